/**
 * The option checks every `resolve…Options` uses, so that one option type reads the same way in
 * every entry point and the CLI never checks again what the library checks: whole numbers with a
 * range and a default, durations with units, http(s) URLs, and HTTP header names and values.
 * Each failure is one `ERR_OPTIONS` sentence naming the option, the value and what is accepted.
 */
import { SitemapkitError } from './errors.js';

function bad(message: string, hint?: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message, hint === undefined ? {} : { hint });
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));
const en = (n: number): string => n.toLocaleString('en-US');

/** The range of a whole-number option. */
export interface WholeRange {
  /** @default 0 */
  min?: number;
  /** @default Number.MAX_SAFE_INTEGER */
  max?: number;
  /** Accept `Infinity` as "no limit". @default false */
  unbounded?: boolean;
}

/** `of at least 1`, `from 0 to 9`: the accepted range in words, for messages. */
export function rangeText(min: number, max: number = Number.MAX_SAFE_INTEGER): string {
  return max === Number.MAX_SAFE_INTEGER ? `of at least ${en(min)}` : `from ${en(min)} to ${en(max)}`;
}

/**
 * A whole-number option: `fallback` when `value` is undefined, else `value` checked against the
 * range. Throws `ERR_OPTIONS` naming the option.
 */
export function wholeNumber(name: string, value: unknown, fallback: number, range: WholeRange = {}): number {
  if (value === undefined) return fallback;
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (range.unbounded === true && value === Number.POSITIVE_INFINITY) return value;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw bad(
      `${name} must be a whole number ${rangeText(min, max)}, not ${show(value)}`,
      `leave ${name} out to use the default (${en(fallback)})`,
    );
  }
  return value;
}

/** Milliseconds per unit of a duration. */
const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/;

/** How a duration option is read. */
export interface DurationSpec {
  /** The unit of a bare number: what the option (or flag) has always meant. */
  unit: 'ms' | 's';
  /** In milliseconds. @default 0 */
  minMs?: number;
  /** In milliseconds. @default Number.MAX_SAFE_INTEGER */
  maxMs?: number;
}

/**
 * A duration in milliseconds from a number (in `spec.unit`) or a string with a unit (`500ms`,
 * `30s`, `2m`, `1h`, `2d`; a bare number in `spec.unit`). `fallback` (in milliseconds) when undefined.
 */
export function duration(name: string, value: unknown, fallbackMs: number, spec: DurationSpec): number {
  if (value === undefined) return fallbackMs;
  let ms: number | undefined;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) ms = value * UNITS[spec.unit]!;
  else if (typeof value === 'string') {
    const m = DURATION.exec(value);
    if (m !== null) ms = Number(m[1]) * UNITS[m[2] ?? spec.unit]!;
  }
  if (ms === undefined) {
    throw bad(
      `${name} must be a duration such as 500ms, 30s or 2m (a bare number is in ${spec.unit === 'ms' ? 'milliseconds' : 'seconds'}), not ${show(value)}`,
    );
  }
  ms = Math.round(ms);
  const min = spec.minMs ?? 0;
  const max = spec.maxMs ?? Number.MAX_SAFE_INTEGER;
  if (ms < min || ms > max) {
    const range =
      max === Number.MAX_SAFE_INTEGER ? `at least ${en(min)} ms` : `from ${en(min)} to ${en(max)} ms`;
    throw bad(`${name} must be ${range}, not ${show(value)}`);
  }
  return ms;
}

/**
 * An absolute http(s) URL option, returned as given after the check (the caller normalises it the
 * way its concept needs). `what` says what the URL is for, for the hint.
 */
export function httpUrl(name: string, value: unknown, what = 'the full address'): URL {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw bad(
      `${name} must be an http(s) URL, not ${show(value)}`,
      `give ${what}, such as https://example.com/`,
    );
  }
  let u: URL;
  try {
    u = new URL(String(value));
  } catch {
    throw bad(
      `${name} "${String(value)}" is not an absolute URL`,
      `give ${what}, such as https://example.com/`,
    );
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw bad(
      `${name} "${String(value)}" is not an http(s) URL`,
      `give ${what}, such as https://example.com/`,
    );
  }
  return u;
}

/** RFC 9110 §5.6.2 token: what a header name may be. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Whether `name` is a valid HTTP header name. */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/**
 * Extra request headers, checked once: names must be HTTP tokens, values strings without CR, LF
 * or NUL (which would split or end the request line). Names are returned lower-cased, as HTTP
 * compares them; `name` is the option's name for the message.
 */
export function headerRecord(name: string, value: unknown): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw bad(`${name} must be an object of header names and string values`);
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (!TOKEN.test(k)) throw bad(`${name}: "${k}" is not a valid HTTP header name`);
    if (typeof v !== 'string') throw bad(`${name}: the value of ${k} must be a string, not ${show(v)}`);
    if (/[\r\n\0]/.test(v))
      throw bad(`${name}: the value of ${k} holds a line break or NUL, which HTTP cannot carry`);
    out[k.toLowerCase()] = v;
  }
  return out;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The (at most three) `candidates` nearest a mistyped `word` by edit distance, nearest first: for
 * the "did you mean" of an unknown rule code or option name.
 */
export function closestWords(word: string, candidates: readonly string[]): string[] {
  const limit = Math.max(3, Math.floor(word.length / 3));
  return candidates
    .map((c) => ({ c, d: editDistance(word, c) }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d || a.c.localeCompare(b.c))
    .slice(0, 3)
    .map((x) => x.c);
}
