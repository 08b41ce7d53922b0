/**
 * The intake split across two threads: a source that can read and check its records on another
 * thread (the JSONL reader, `sources/jsonl-thread.ts`) runs this module's check stage there, the
 * same steps as the intake's (`intake.ts`: the record count, unreadable records, `normalizeEntry`,
 * the duplicate set, in that order), and hands the main thread one string per batch that says
 * what happened to each record. The main thread replays it: the findings in the same order with
 * the same record numbers, lines and URLs, and each entry through the same look-ahead and `emit`.
 *
 * One string per batch, not objects: a structured clone of a million entry objects costs about a
 * second on the receiving thread, the string a copy. A record is one line of tab-separated fields
 * (JSON escapes tabs and line feeds, and a normalised loc, lastmod or changefreq holds neither):
 *
 *   P  line  warnings  loc  lastmod  changefreq  priority    an entry of those fields only
 *   E  line  warnings  JSON of the normalised entry           any other entry
 *   I  line  warnings  JSON of [errors, loc or null]         an invalid record (or a duplicate)
 *
 * `warnings` is empty, or the JSON of [warnings, the loc they name or null].
 */
import type { SitemapEntry } from '../core/entry.js';
import type { EntryProblem, NormalizeOptions } from '../core/normalize.js';
import { normalizeEntry } from '../core/normalize.js';
import type { Dedupe } from './dedupe.js';

/** What the check stage needs, and all a worker is told (it must cross a thread: plain data). */
export interface CheckRequest {
  scope: NonNullable<NormalizeOptions['scope']>;
  legacy: boolean;
  dropFields: boolean;
  /** Whether duplicates are looked for (the set then lives with the check stage). */
  dedupe: boolean;
}

/** One batch of checked records: where they came from, and the records as described above. */
export interface CheckedBatch {
  file: string;
  text: string;
}

/**
 * A source's records checked elsewhere, in order. Once every batch is taken, `seen()` gives the
 * duplicate set the check stage filled (the build asks it whether an alternate URL is in the
 * build).
 */
export interface CheckedStream extends AsyncIterable<CheckedBatch> {
  seen(): import('../core/hash.js').HashedStringSet | undefined;
}

/**
 * Offered by a source that can check its own records on another thread: called once, with what
 * the check stage needs. Undefined when the source cannot do it this time (the intake then reads
 * the records itself).
 */
export const CHECKED: unique symbol = Symbol.for('sitemapkit.checked');

export interface CheckableSource {
  [CHECKED](request: CheckRequest): CheckedStream | undefined;
}

export function checkedOf(source: unknown, request: CheckRequest): CheckedStream | undefined {
  if (typeof source !== 'object' || source === null || !(CHECKED in source)) return undefined;
  const f = (source as { [CHECKED]?: unknown })[CHECKED];
  return typeof f === 'function' ? (f.call(source, request) as CheckedStream | undefined) : undefined;
}

/** Whether an entry has only the fields a `P` record carries. */
function plain(e: SitemapEntry): boolean {
  for (const key in e) {
    if (key !== 'loc' && key !== 'lastmod' && key !== 'changefreq' && key !== 'priority') return false;
  }
  return true;
}

function warningsField(warnings: readonly EntryProblem[], loc: string | undefined): string {
  return warnings.length === 0 ? '' : JSON.stringify([warnings, loc ?? null]);
}

/** The record of a record its source could not decode (an `UnreadableRecord` with this message). */
export function checkUnreadable(message: string, line: number): string {
  const errors: EntryProblem[] = [{ code: 'record-unreadable', field: '', message }];
  return `I\t${line}\t\t${JSON.stringify([errors, null])}\n`;
}

/**
 * The check stage of one decoded record, as a line of a batch's text: what `consume` does to a
 * record before the look-ahead, without reporting anything.
 */
export function checkRecord(
  item: unknown,
  line: number,
  request: CheckRequest,
  dedupe: Dedupe | undefined,
): string {
  const r = normalizeEntry(item, request);
  const w = r.warnings.length === 0 ? '' : warningsField(r.warnings, r.ok ? r.entry.loc : undefined);
  if (!r.ok) {
    const loc = (item as { loc?: unknown })?.loc;
    return `I\t${line}\t${w}\t${JSON.stringify([r.errors, typeof loc === 'string' ? loc : null])}\n`;
  }
  const e = r.entry;
  const duplicate = dedupe?.add(e.loc);
  if (duplicate !== undefined) return `I\t${line}\t${w}\t${JSON.stringify([[duplicate], e.loc])}\n`;
  if (!plain(e)) return `E\t${line}\t${w}\t${JSON.stringify(e)}\n`;
  return `P\t${line}\t${w}\t${e.loc}\t${e.lastmod ?? ''}\t${e.changefreq ?? ''}\t${e.priority ?? ''}\n`;
}

/** One record of a batch, decoded on the main thread. */
export interface CheckedRecord {
  line: number;
  warnings: EntryProblem[] | undefined;
  /** The loc the warnings name. */
  warningLoc: string | undefined;
  /** The entry to write, or undefined for an invalid record. */
  entry: SitemapEntry | undefined;
  errors: EntryProblem[] | undefined;
  /** The loc the errors name. */
  errorLoc: string | undefined;
}

/**
 * Decodes the records of a batch one at a time into `out` (reused: no object per record but the
 * entry); returns the offset of the next record, or -1 at the end.
 */
export function nextChecked(text: string, at: number, out: CheckedRecord): number {
  if (at >= text.length) return -1;
  const kind = text.charCodeAt(at);
  const t1 = text.indexOf('\t', at + 2);
  out.line = Number(text.slice(at + 2, t1));
  const t2 = text.indexOf('\t', t1 + 1);
  if (t2 === t1 + 1) {
    out.warnings = undefined;
    out.warningLoc = undefined;
  } else {
    const [warnings, loc] = JSON.parse(text.slice(t1 + 1, t2)) as [EntryProblem[], string | null];
    out.warnings = warnings;
    out.warningLoc = loc ?? undefined;
  }
  if (kind === 80 /* P */) {
    const t3 = text.indexOf('\t', t2 + 1);
    const t4 = text.indexOf('\t', t3 + 1);
    const t5 = text.indexOf('\t', t4 + 1);
    const end = text.indexOf('\n', t5 + 1);
    const e: SitemapEntry = { loc: text.slice(t2 + 1, t3) };
    if (t4 > t3 + 1) e.lastmod = text.slice(t3 + 1, t4);
    if (t5 > t4 + 1) e.changefreq = text.slice(t4 + 1, t5) as NonNullable<SitemapEntry['changefreq']>;
    if (end > t5 + 1) e.priority = Number(text.slice(t5 + 1, end));
    out.entry = e;
    out.errors = undefined;
    out.errorLoc = undefined;
    return end + 1;
  }
  const end = text.indexOf('\n', t2 + 1);
  const json = text.slice(t2 + 1, end);
  if (kind === 69 /* E */) {
    out.entry = JSON.parse(json) as SitemapEntry;
    out.errors = undefined;
    out.errorLoc = undefined;
  } else {
    const [errors, loc] = JSON.parse(json) as [EntryProblem[], string | null];
    out.entry = undefined;
    out.errors = errors;
    out.errorLoc = loc ?? undefined;
  }
  return end + 1;
}

export function emptyChecked(): CheckedRecord {
  return {
    line: 0,
    warnings: undefined,
    warningLoc: undefined,
    entry: undefined,
    errors: undefined,
    errorLoc: undefined,
  };
}
