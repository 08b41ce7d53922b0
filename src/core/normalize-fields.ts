/**
 * The field readers of the entry normalisation: each reads one raw value, records what is wrong
 * with it on the record's problem list, and returns the clean value or undefined.
 */
import type { YesNo } from './entry.js';
import { normalizeLastmod } from './lastmod.js';
import { toUri } from './url.js';
import { hasInvalidXmlChar } from './xml.js';

/** One thing wrong (an error) or rewritten away (a warning) in one record. */
export interface EntryProblem {
  code: string;
  field: string;
  message: string;
}

// Most records have no problem at all, so the lists are shared empties until the first one.
export const NONE: EntryProblem[] = [];

/** The problems of one record, in the order found. */
export class Collector {
  errors: EntryProblem[] = NONE;
  warnings: EntryProblem[] = NONE;
  error(code: string, field: string, message: string): void {
    if (this.errors === NONE) this.errors = [];
    this.errors.push({ code, field, message });
  }
  warn(code: string, field: string, message: string): void {
    if (this.warnings === NONE) this.warnings = [];
    this.warnings.push({ code, field, message });
  }
}

export function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

export function uri(c: Collector, field: string, v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) {
    c.error('entry-invalid', field, `${field} must be a URL string`);
    return undefined;
  }
  const r = toUri(s);
  if (!r.ok) {
    c.error(r.code, field, r.message);
    return undefined;
  }
  return r.url;
}

export function date(c: Collector, code: string, field: string, v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number' && !(v instanceof Date)) {
    c.error(code, field, `${field} must be a date string, epoch number or Date`);
    return undefined;
  }
  const r = normalizeLastmod(v);
  if (!r.ok) {
    c.error(code, field, r.message);
    return undefined;
  }
  return r.value;
}

export function yesNo(c: Collector, field: string, v: unknown): YesNo | undefined {
  const s = typeof v === 'boolean' ? (v ? 'yes' : 'no') : str(v)?.trim().toLowerCase();
  if (s === 'yes' || s === 'no') return s;
  c.error('video-invalid', field, `${field} must be yes or no, got ${JSON.stringify(v)}`);
  return undefined;
}

/**
 * Free text that goes into XML as it is (a video tag, a price, an id, a title): a control character
 * XML cannot carry is an error naming the field, never a file xmllint refuses.
 */
export function xmlSafe(c: Collector, code: string, field: string, values: readonly string[]): boolean {
  if (!values.some((s) => hasInvalidXmlChar(s))) return true;
  c.error(code, field, `${field} holds a control character that XML cannot carry; remove it`);
  return false;
}

export function text(
  c: Collector,
  code: string,
  field: string,
  v: unknown,
  max?: number,
): string | undefined {
  const s = str(v)?.trim();
  if (s === undefined || s === '') {
    c.error(code, field, `${field} is required and must be non-empty text`);
    return undefined;
  }
  if (hasInvalidXmlChar(s)) {
    c.error(code, field, `${field} holds a control character that XML cannot carry; remove it`);
    return undefined;
  }
  if (max !== undefined && [...s].length > max) {
    c.error(code, field, `${field} has ${[...s].length} characters; the maximum is ${max}`);
    return undefined;
  }
  return s;
}

export function legacyDrop(c: Collector, legacy: boolean, field: string, present: boolean): boolean {
  if (!present) return false;
  if (legacy) return true;
  c.warn(
    'legacy-tag',
    field,
    `${field} was dropped by Google in 2022 and is left out; pass the legacy option to keep it`,
  );
  return false;
}
