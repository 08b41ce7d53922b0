import { UsageError } from './exit.js';

/** For repeatable options: `--x a --x b` → `['a', 'b']`. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `--header NAME:VALUE` (repeatable) → a header record; a malformed one is a usage error. */
export function parseHeaders(raw: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of raw) {
    const colon = h.indexOf(':');
    const name = colon === -1 ? '' : h.slice(0, colon).trim();
    if (!TOKEN.test(name)) throw new UsageError(`--header needs NAME:VALUE, not "${h}"`);
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
