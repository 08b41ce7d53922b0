/**
 * Field values as read from a document: each function returns the value for the entry model, or
 * undefined when the value cannot be kept, and reports what it repaired or dropped.
 */
import type { Changefreq, YesNo } from '../core/entry.js';
import { isW3cDatetime, isXsdLastmod, normalizeLastmod } from '../core/lastmod.js';
import { CHANGEFREQS } from '../core/limits.js';
import { toStrictUri } from '../core/url.js';
import type { DocumentReporter, Where } from './reporter.js';

/** Where a value is, computed only when something is reported (positions cost a line count). */
export type At = () => Where;

/**
 * A URL field through the shared URL rule, strict about the text as written (without the location
 * part, which the core applies to page entries). Too short or too long URLs are reported and
 * kept; unusable ones are dropped. The finding names the offending URL (`url`), not the page.
 */
export function urlValue(raw: string, rep: DocumentReporter, at: At): string | undefined {
  const r = toStrictUri(raw);
  if (r.ok) return r.url;
  rep.report(r.code, r.message, { ...at(), url: r.url });
  return r.code === 'url-too-short' || r.code === 'url-too-long' ? r.url : undefined;
}

const CHANGEFREQ_SET: ReadonlySet<string> = new Set(CHANGEFREQS);

/**
 * A date field (lastmod, video and news dates). W3C Datetime is kept as written; XSD-only forms
 * are kept with a warning; an HTTP date (RSS pubDate) is converted to UTC, silently for feeds.
 */
export function dateValue(raw: string, rep: DocumentReporter, at: At, fromFeed = false): string | undefined {
  if (isW3cDatetime(raw)) {
    if (!isXsdLastmod(raw)) {
      const w = at();
      rep.report(
        'lastmod-not-xsd',
        `${w.field ?? 'lastmod'} "${raw}" is W3C Datetime but the sitemap XSD rejects it`,
        w,
      );
    }
    return raw;
  }
  if (!fromFeed && isXsdLastmod(raw)) {
    const w = at();
    const why = /T/.test(raw) ? 'a time without a time zone' : 'a date with a time zone';
    rep.report(
      'lastmod-not-w3c',
      `${w.field ?? 'lastmod'} "${raw}" is ${why}: the XSD accepts it, W3C Datetime does not`,
      w,
    );
    return raw;
  }
  const n = normalizeLastmod(raw);
  if (n.ok) {
    if (!fromFeed) {
      const w = at();
      rep.report(
        'lastmod-invalid',
        `${w.field ?? 'lastmod'} "${raw}" is not W3C Datetime; read as ${n.value}`,
        w,
      );
    }
    return n.value;
  }
  const w = at();
  rep.report('lastmod-invalid', `${w.field ?? 'lastmod'}: ${n.message}; dropped`, w);
  return undefined;
}

/**
 * {@link dateValue} with a memory of values that were fine: sitemaps repeat the same few dates
 * thousands of times, and the two date grammars are the largest cost after the URL rule.
 */
export class DateReader {
  readonly #clean = new Set<string>();

  read(raw: string, rep: DocumentReporter, at: At, fromFeed = false): string | undefined {
    if (this.#clean.has(raw)) return raw;
    const v = dateValue(raw, rep, at, fromFeed);
    if (v === raw && isXsdLastmod(raw) && isW3cDatetime(raw)) {
      if (this.#clean.size >= 4096) this.#clean.clear();
      this.#clean.add(raw);
    }
    return v;
  }

  /**
   * Whether {@link read} would keep `raw` as it is without a finding; remembered as `read`
   * remembers it, so that calling this and then `read` leaves the same memory as `read` alone.
   */
  isClean(raw: string): boolean {
    if (this.#clean.has(raw)) return true;
    if (!isXsdLastmod(raw) || !isW3cDatetime(raw)) return false;
    if (this.#clean.size >= 4096) this.#clean.clear();
    this.#clean.add(raw);
    return true;
  }
}

export function changefreqValue(raw: string, rep: DocumentReporter, at: At): Changefreq | undefined {
  // Compared with ===, not looked up in the set: a fresh string's hash is computed in the runtime.
  switch (raw) {
    case 'always':
    case 'hourly':
    case 'daily':
    case 'weekly':
    case 'monthly':
    case 'yearly':
    case 'never':
      return raw;
  }
  const lower = raw.toLowerCase();
  if (CHANGEFREQ_SET.has(lower)) {
    rep.report('changefreq-invalid', `changefreq "${raw}" must be lower case; read as "${lower}"`, at());
    return lower as Changefreq;
  }
  rep.report(
    'changefreq-invalid',
    `changefreq "${clip(raw)}" is not one of ${CHANGEFREQS.join(', ')}; dropped`,
    at(),
  );
  return undefined;
}

export function priorityValue(raw: string, rep: DocumentReporter, at: At): number | undefined {
  if (/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(raw)) {
    const n = Number(raw);
    if (n >= 0 && n <= 1) return n;
  }
  rep.report('priority-invalid', `priority "${clip(raw)}" is not a number from 0.0 to 1.0; dropped`, at());
  return undefined;
}

export function yesNoValue(raw: string, rep: DocumentReporter, at: At): YesNo | undefined {
  const v = raw.toLowerCase();
  if (v === 'yes' || v === 'no') return v;
  return invalid(raw, 'yes or no', rep, at);
}

/** A non-negative number; `integer` also refuses fractions. */
export function numberValue(
  raw: string,
  integer: boolean,
  rep: DocumentReporter,
  at: At,
): number | undefined {
  const ok = integer ? /^\d+$/.test(raw) : /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(raw);
  if (ok) {
    const n = Number(raw);
    if (Number.isFinite(n)) return n;
  }
  return invalid(raw, integer ? 'a whole number' : 'a number', rep, at);
}

export function enumValue<T extends string>(
  raw: string,
  allowed: readonly T[],
  rep: DocumentReporter,
  at: At,
): T | undefined {
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  const lower = raw.toLowerCase();
  const hit = allowed.find((a) => a.toLowerCase() === lower);
  if (hit !== undefined) return hit;
  return invalid(raw, allowed.join(' or '), rep, at);
}

function invalid(raw: string, expected: string, rep: DocumentReporter, at: At): undefined {
  const where = at();
  rep.report('value-invalid', `${where.field ?? 'value'} "${clip(raw)}" is not ${expected}; dropped`, where);
  return undefined;
}

export function clip(s: string, max = 80): string {
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}
