/**
 * The intake split across two threads: a source that can read and check its records on another
 * thread (the JSONL reader, `sources/jsonl-thread.ts`) runs this module's check stage there, the
 * same steps as the intake's (`intake.ts`: the record count, unreadable records, `normalizeEntry`,
 * the duplicate set, in that order), and hands the main thread one buffer per batch that says
 * what happened to each record. The main thread replays it: the findings in the same order with
 * the same record numbers, lines and URLs, and each entry through the same look-ahead and `emit`.
 *
 * Bytes in a transferred buffer, not objects nor a string: a structured clone of a million entry
 * objects costs about a second on the receiving thread; a string of the records is built from
 * small pieces, flattened and copied when posted, and copied again when received. A buffer is
 * written in place, moves between the threads without a copy and comes back to be filled again.
 * A record is a fixed header of 28 bytes (little-endian) and its UTF-8 text:
 *
 *   0  kind: P (an entry of loc, lastmod, changefreq and priority only), E (any other entry),
 *      I (an invalid record or a duplicate)
 *   1  P: the changefreq's number (1 + its index in CHANGEFREQS; 0 for none)
 *   2  P: 1 when loc and lastmod are ASCII (read back as Latin-1, without decoding)
 *   4  the line (u32)        8  bytes of warnings (u32)
 *   12 P: bytes of loc; E: of the entry's JSON; I: of the JSON of [errors, loc or null] (u32)
 *   16 P: bytes of lastmod (u32)
 *   20 P: priority (f64; -1 for none)
 *   28 the warnings' JSON ([warnings, the loc they name or null]), then loc and lastmod or the JSON
 */
import type { SitemapEntry } from '../core/entry.js';
import { CHANGEFREQS } from '../core/limits.js';
import type { EntryProblem, NormalizeOptions, NormalizeResult } from '../core/normalize.js';
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
  bytes: Uint8Array;
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

const P = 80;
const E = 69;
const I = 73;
const HEADER = 28;
/** A batch's usual size; a batch that outgrows it (a large entry) gets a buffer of its own. */
export const BATCH_BYTES: number = 128 * 1024;

/** Node's own Buffer methods behind `write` and `toString`, without their argument parsing (once per field). */
interface RawBuffer extends Buffer {
  utf8Write(s: string, offset: number, length?: number): number;
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

const FREQ_CODE: ReadonlyMap<string, number> = new Map(CHANGEFREQS.map((f, i) => [f, i + 1]));

/**
 * The checked records of one batch as they are written, on the thread that checks them. `take`
 * hands the filled bytes on; `reuse` gives back a buffer the other thread is done with.
 */
export class CheckedWriter {
  #buf: RawBuffer;
  #view: DataView;
  #used = 0;
  readonly #free: ArrayBuffer[] = [];

  constructor() {
    this.#buf = this.#fresh(BATCH_BYTES);
    this.#view = new DataView(this.#buf.buffer, this.#buf.byteOffset, this.#buf.length);
  }

  /** Bytes written into the current batch. */
  get used(): number {
    return this.#used;
  }

  #fresh(size: number): RawBuffer {
    const ab = size === BATCH_BYTES ? this.#free.pop() : undefined;
    // A buffer of its own (not a slice of Node's shared pool): it is transferred whole.
    return Buffer.from(ab ?? new ArrayBuffer(size)) as RawBuffer;
  }

  reuse(ab: ArrayBuffer): void {
    if (ab.byteLength === BATCH_BYTES && this.#free.length < 8) this.#free.push(ab);
  }

  /** The current batch's buffer and length, handed over (transfer it); the next batch starts empty. */
  take(): { buffer: ArrayBuffer; length: number } {
    const out = { buffer: this.#buf.buffer as ArrayBuffer, length: this.#used };
    this.#buf = this.#fresh(BATCH_BYTES);
    this.#view = new DataView(this.#buf.buffer, this.#buf.byteOffset, this.#buf.length);
    this.#used = 0;
    return out;
  }

  /** Room for `n` more bytes: a larger buffer with the batch so far when it would not fit. */
  #room(n: number): void {
    if (this.#used + n <= this.#buf.length) return;
    const bigger = this.#fresh(Math.max(2 * this.#buf.length, this.#used + n));
    this.#buf.copy(bigger, 0, 0, this.#used);
    this.#buf = bigger;
    this.#view = new DataView(bigger.buffer, bigger.byteOffset, bigger.length);
  }

  /** A record's header and its warnings; returns where its text goes next. */
  #head(kind: number, line: number, warnings: string, text: number): number {
    // UTF-8 takes at most three bytes for a UTF-16 unit.
    this.#room(HEADER + 3 * (warnings.length + text));
    const at = this.#used;
    const v = this.#view;
    v.setUint8(at, kind);
    v.setUint32(at + 4, line, true);
    const w = warnings === '' ? 0 : this.#buf.utf8Write(warnings, at + HEADER);
    v.setUint32(at + 8, w, true);
    return at + HEADER + w;
  }

  /** An `E` or `I` record: its JSON. */
  json(kind: number, line: number, warnings: string, json: string): void {
    const at = this.#used;
    const p = this.#head(kind, line, warnings, json.length);
    const n = this.#buf.utf8Write(json, p);
    this.#view.setUint32(at + 12, n, true);
    this.#used = p + n;
  }

  /** A `P` record. */
  plain(line: number, warnings: string, e: SitemapEntry): void {
    const at = this.#used;
    const lastmod = e.lastmod ?? '';
    const p = this.#head(P, line, warnings, e.loc.length + lastmod.length);
    const v = this.#view;
    const a = this.#buf.utf8Write(e.loc, p);
    const b = lastmod === '' ? 0 : this.#buf.utf8Write(lastmod, p + a);
    v.setUint8(at + 1, e.changefreq === undefined ? 0 : FREQ_CODE.get(e.changefreq)!);
    // As many bytes as characters: every one was ASCII.
    v.setUint8(at + 2, a === e.loc.length && b === lastmod.length ? 1 : 0);
    v.setUint32(at + 12, a, true);
    v.setUint32(at + 16, b, true);
    v.setFloat64(at + 20, e.priority ?? -1, true);
    this.#used = p + a + b;
  }
}

function warningsField(warnings: readonly EntryProblem[], loc: string | undefined): string {
  return warnings.length === 0 ? '' : JSON.stringify([warnings, loc ?? null]);
}

/** The record of a record its source could not decode (an `UnreadableRecord` with this message). */
export function checkUnreadable(message: string, line: number, out: CheckedWriter): void {
  const errors: EntryProblem[] = [{ code: 'record-unreadable', field: '', message }];
  out.json(I, line, '', JSON.stringify([errors, null]));
}

/**
 * The check stage of one decoded record, written as a record of the batch: what `consume` does to
 * a record before the look-ahead, without reporting anything.
 */
export function checkRecord(
  item: unknown,
  line: number,
  request: CheckRequest,
  dedupe: Dedupe | undefined,
  out: CheckedWriter,
): void {
  const r = normalizeEntry(item, request);
  writeChecked(item, r, r.ok ? dedupe?.add(r.entry.loc) : undefined, line, out);
}

/**
 * {@link checkRecord} in two steps, for a batch of records: `normalizeEntry(item, request)` for
 * each, then their URLs recorded in the duplicate set together (`Dedupe.prepare`, `addAt`), and
 * this for each in order, with `duplicate` the set's answer for an entry (undefined for an invalid
 * record).
 */
export function writeChecked(
  item: unknown,
  r: NormalizeResult,
  duplicate: EntryProblem | undefined,
  line: number,
  out: CheckedWriter,
): void {
  const w = r.warnings.length === 0 ? '' : warningsField(r.warnings, r.ok ? r.entry.loc : undefined);
  if (!r.ok) {
    const loc = (item as { loc?: unknown })?.loc;
    out.json(I, line, w, JSON.stringify([r.errors, typeof loc === 'string' ? loc : null]));
    return;
  }
  const e = r.entry;
  if (duplicate !== undefined) out.json(I, line, w, JSON.stringify([[duplicate], e.loc]));
  else if (!plain(e)) out.json(E, line, w, JSON.stringify(e));
  else out.plain(line, w, e);
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
 * Reads the records of one batch in order, into one {@link CheckedRecord} reused for each (no
 * object per record but the entry).
 */
export class CheckedReader {
  readonly #buf: RawBuffer;
  readonly #view: DataView;
  #at = 0;

  constructor(bytes: Uint8Array) {
    this.#buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length) as RawBuffer;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  }

  /** Decodes the next record into `out`; false at the end. */
  next(out: CheckedRecord): boolean {
    const at = this.#at;
    const buf = this.#buf;
    if (at >= buf.length) return false;
    const v = this.#view;
    const kind = v.getUint8(at);
    out.line = v.getUint32(at + 4, true);
    const w = v.getUint32(at + 8, true);
    const a = v.getUint32(at + 12, true);
    let p = at + HEADER;
    if (w === 0) {
      out.warnings = undefined;
      out.warningLoc = undefined;
    } else {
      const [warnings, loc] = JSON.parse(buf.utf8Slice(p, p + w)) as [EntryProblem[], string | null];
      out.warnings = warnings;
      out.warningLoc = loc ?? undefined;
      p += w;
    }
    if (kind === P) {
      const b = v.getUint32(at + 16, true);
      const ascii = v.getUint8(at + 2) === 1;
      const e: SitemapEntry = { loc: ascii ? buf.latin1Slice(p, p + a) : buf.utf8Slice(p, p + a) };
      if (b > 0) e.lastmod = ascii ? buf.latin1Slice(p + a, p + a + b) : buf.utf8Slice(p + a, p + a + b);
      const f = v.getUint8(at + 1);
      if (f > 0) e.changefreq = CHANGEFREQS[f - 1]!;
      const priority = v.getFloat64(at + 20, true);
      if (priority !== -1) e.priority = priority;
      out.entry = e;
      out.errors = undefined;
      out.errorLoc = undefined;
      this.#at = p + a + b;
      return true;
    }
    const json = buf.utf8Slice(p, p + a);
    if (kind === E) {
      out.entry = JSON.parse(json) as SitemapEntry;
      out.errors = undefined;
      out.errorLoc = undefined;
    } else {
      const [errors, loc] = JSON.parse(json) as [EntryProblem[], string | null];
      out.entry = undefined;
      out.errors = errors;
      out.errorLoc = loc ?? undefined;
    }
    this.#at = p + a;
    return true;
  }
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
