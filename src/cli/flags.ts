import type { AddressPolicy } from '../http/address.js';
import { isHeaderName } from '../http/headers.js';
import { UsageError } from './exit.js';

/** For repeatable options: `--x a --x b` → `['a', 'b']`. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `--header NAME:VALUE` (repeatable) → a header record; a malformed one is a usage error. */
export function parseHeaders(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of raw) {
    const colon = h.indexOf(':');
    const name = colon === -1 ? '' : h.slice(0, colon).trim();
    if (!isHeaderName(name)) throw new UsageError(`--header needs NAME:VALUE, not "${h}"`);
    out[name] = h.slice(colon + 1).trim();
  }
  return out;
}

/** A whole-number option of at least `min`, or undefined when it was not given. */
export function wholeNumber(flag: string, raw: string | undefined, min = 1): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < min) {
    throw new UsageError(`${flag} needs a whole number of at least ${min}, not "${raw}"`);
  }
  return n;
}

/** A commander argument parser for a whole-number option of at least `min`. */
export function wholeNumberArg(flag: string, min = 0): (raw: string) => number {
  return (raw) => wholeNumber(flag, raw, min)!;
}

/** The flags of the address policy (see docs/http.md). */
export interface AddressFlags {
  allowPrivateAddresses?: boolean;
  strictAddresses?: boolean;
}

/** Help of `--allow-private-addresses`. */
export const ALLOW_PRIVATE_HELP =
  'follow redirects, index children and links from a public address to a private one (localhost, 10/8, 192.168/16, cloud metadata…); refused by default';
/** Help of `--strict-addresses`. */
export const STRICT_ADDRESSES_HELP =
  'refuse every private address, the start included (for untrusted sitemaps)';

/** The address policy the flags ask for; both at once is a usage error. */
export function addressPolicyOf(flags: AddressFlags): AddressPolicy | undefined {
  if (flags.allowPrivateAddresses === true && flags.strictAddresses === true)
    throw new UsageError('--allow-private-addresses and --strict-addresses contradict each other: give one');
  if (flags.allowPrivateAddresses === true) return 'off';
  if (flags.strictAddresses === true) return 'strict';
  return undefined;
}
