/**
 * The address policy against server-side request forgery. A run that starts at a public address
 * may not move (by a redirect, an index child, a link) to a loopback, private, link-local,
 * carrier-NAT or unspecified address; a run that starts at such an address on purpose (a site on
 * localhost, a staging box) may. `strict` refuses them all, `off` none. The check is made on the
 * address actually connected to (see `client.ts`), so a host name that resolves differently the
 * second time (DNS rebinding) is judged by what it resolved to.
 */
import { netModule } from './builtins.js';

/** `default`: no move from public to private; `strict`: no private address at all; `off`: no check. */
export type AddressPolicy = 'default' | 'strict' | 'off';

/** What an IP address is, for the policy: everything but `public` counts as private. */
export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'carrier-nat' | 'unspecified';

/** Classifies an IP address; injectable so tests can play a public address on loopback. */
export type AddressClassifier = (address: string) => AddressKind;

const V4: ReadonlyArray<readonly [number, number, AddressKind]> = [
  [0x00000000, 8, 'unspecified'], // 0/8
  [0x7f000000, 8, 'loopback'], // 127/8
  [0x0a000000, 8, 'private'], // 10/8
  [0x64400000, 10, 'carrier-nat'], // 100.64/10
  [0xac100000, 12, 'private'], // 172.16/12
  [0xc0a80000, 16, 'private'], // 192.168/16
  [0xa9fe0000, 16, 'link-local'], // 169.254/16, cloud metadata included
];

function v4Number(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

function classifyV4(n: number): AddressKind {
  for (const [base, bits, kind] of V4) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if ((n & mask) >>> 0 === base) return kind;
  }
  return 'public';
}

/** The eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included). */
function v6Groups(address: string): number[] | undefined {
  let a = address.toLowerCase();
  const zone = a.indexOf('%');
  if (zone !== -1) a = a.slice(0, zone);
  const lastColon = a.lastIndexOf(':');
  if (a.slice(lastColon + 1).includes('.')) {
    const n = v4Number(a.slice(lastColon + 1));
    if (n === undefined) return undefined;
    a = `${a.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', rest, extra] = a.split('::');
  if (extra !== undefined) return undefined;
  const h = head === '' ? [] : head.split(':');
  const r = rest === undefined ? undefined : rest === '' ? [] : rest.split(':');
  const fill = r === undefined ? 0 : 8 - h.length - r.length;
  if (fill < 0 || (r === undefined && h.length !== 8)) return undefined;
  const groups = [...h, ...Array<string>(fill).fill('0'), ...(r ?? [])].map((g) =>
    /^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN,
  );
  return groups.some((g) => Number.isNaN(g)) ? undefined : groups;
}

/** The built-in classifier: IPv4 ranges, and IPv6 loopback, ULA, link-local, IPv4-mapped and NAT64 forms. */
export function classifyAddress(address: string): AddressKind {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = netModule().isIP(bare.split('%')[0] ?? bare);
  if (family === 4) return classifyV4(v4Number(bare) ?? 0);
  if (family !== 6) return 'public';
  const g = v6Groups(bare);
  if (g === undefined) return 'public';
  const embedded = ((g[6]! << 16) >>> 0) + g[7]!;
  if (g.slice(0, 7).every((x) => x === 0))
    return g[7] === 0 ? 'unspecified' : g[7] === 1 ? 'loopback' : 'public';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), 64:ff9b::/96 (NAT64): judged as the IPv4 inside.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return classifyV4(embedded);
  if (g.slice(0, 6).every((x) => x === 0)) return classifyV4(embedded);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return classifyV4(embedded);
  if ((g[0]! & 0xfe00) === 0xfc00) return 'private';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'link-local';
  return 'public';
}

/**
 * The policy's state for one run: which origins were started from on purpose, and whether one of
 * them turned out private (then the whole run may use private addresses).
 */
export class AddressGuard {
  readonly policy: AddressPolicy;
  readonly #classify: AddressClassifier;
  readonly #starts = new Set<string>();
  #privateStart = false;

  constructor(policy: AddressPolicy = 'default', classify: AddressClassifier = classifyAddress) {
    this.policy = policy;
    this.#classify = classify;
  }

  /** Marks `origin` as a start: its next connection may be private (outside `strict`). */
  start(origin: string): void {
    this.#starts.add(origin);
  }

  /**
   * Judges one connection to `address` made for `origin`; returns why it is refused, or undefined.
   * The first connection to a start origin decides whether the run started private; every later
   * one, the start origin's included, is judged against that (so a rebound name cannot pass).
   */
  check(origin: string, address: string): string | undefined {
    if (this.policy === 'off') return undefined;
    const kind = this.#classify(address);
    const isStart = this.#starts.delete(origin);
    if (kind === 'public') return undefined;
    if (this.policy === 'strict') return `${origin} is at ${kind} address ${address}, refused in strict mode`;
    if (isStart) {
      this.#privateStart = true;
      return undefined;
    }
    if (this.#privateStart) return undefined;
    return `${origin} is at ${kind} address ${address}, and the run started at a public address`;
  }

  /** Judges a URL whose connected address cannot be seen (a user's fetch): its host, if an IP literal. */
  checkHost(origin: string, hostname: string): string | undefined {
    const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
    if (netModule().isIP(bare) === 0) {
      // A name cannot be judged without the address; a start origin still counts as used.
      if (this.#starts.delete(origin) && bare === 'localhost' && this.policy !== 'off') {
        if (this.policy === 'strict') return `${origin} is a loopback name, refused in strict mode`;
        this.#privateStart = true;
      }
      return undefined;
    }
    return this.check(origin, bare);
  }
}
