import { wholeNumber as checkWhole, duration, rangeText } from '../core/checks.js';
import { isSitemapkitError } from '../core/errors.js';
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

/**
 * A whole-number option of at least `min`, or undefined when it was not given. The range is the
 * library's rule (`core/checks.ts`); only the wording speaks of the flag.
 */
export function wholeNumber(
  flag: string,
  raw: string | undefined,
  min: number = 1,
  max: number = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (raw === undefined) return undefined;
  try {
    return checkWhole(flag, /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN, 0, { min, max });
  } catch {
    throw new UsageError(`${flag} needs a whole number ${rangeText(min, max)}, not "${raw}"`);
  }
}

/** A commander argument parser for a whole-number option from `min` to `max`. */
export function wholeNumberArg(flag: string, min = 0, max?: number): (raw: string) => number {
  return (raw) => wholeNumber(flag, raw, min, max)!;
}

/**
 * A commander argument parser for a duration (`500ms`, `30s`, `2m`), in milliseconds; a bare
 * number keeps the unit the flag has always had, so scripts keep working.
 */
export function durationArg(flag: string, unit: 'ms' | 's', minMs = 0): (raw: string) => number {
  return (raw) => durationFlag(flag, raw, unit, minMs)!;
}

/** {@link durationArg} for a flag read as a string: undefined when it was not given. */
export function durationFlag(
  flag: string,
  raw: string | undefined,
  unit: 'ms' | 's',
  minMs = 0,
): number | undefined {
  if (raw === undefined) return undefined;
  try {
    return duration(flag, raw, 0, { unit, minMs });
  } catch (error) {
    throw new UsageError(isSitemapkitError(error) ? error.message : String(error));
  }
}

/** A default duration for help texts: `15s`, `2m`, `500ms`. */
export function seconds(ms: number): string {
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000}m`;
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
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

/**
 * Options whose value may be left out (`--xsl [url]`), and the values they take. Commander gives
 * such an option the next word whatever it is, so `generate --xsl urls.txt` would take the input
 * file as the stylesheet; {@link unswallow} stops that.
 */
const OPTIONAL_VALUES: Readonly<
  Record<string, { takes: (value: string) => boolean; what: string; without: string }>
> = {
  '--xsl': {
    takes: (v) => /\.xslt?(?:[?#].*)?$/i.test(v),
    what: 'a stylesheet URL ending in .xsl',
    without: 'the bundled stylesheet is used',
  },
};

/**
 * Moves an optional-value option away from a following word that is not a value of it (an input
 * file, a start URL), so that the word stays an argument and the option takes no value; each move
 * is told in a note. `--xsl=VALUE` is always the value.
 */
export function unswallow(argv: readonly string[]): { argv: string[]; notes: string[] } {
  const out = [...argv];
  const notes: string[] = [];
  const end = (): number => {
    const i = out.indexOf('--');
    return i === -1 ? out.length : i;
  };
  for (let i = 0; i < end() - 1; i++) {
    const spec = OPTIONAL_VALUES[out[i]!];
    const next = out[i + 1]!;
    if (spec === undefined || (next.startsWith('-') && next !== '-') || spec.takes(next)) continue;
    const [flag] = out.splice(i, 1);
    out.splice(end(), 0, flag!);
    notes.push(
      `${flag} takes ${spec.what}, and "${next}" is not one: "${next}" is read as an argument (an input) and ${spec.without}; write ${flag}=VALUE for a value of another form`,
    );
    i--;
  }
  return { argv: out, notes };
}
