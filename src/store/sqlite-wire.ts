/**
 * What crosses between the main thread and the worker thread that owns an SQLite store's
 * connection (sqlite-thread.ts, sqlite-worker.ts): new rows packed a few thousand at a time into
 * one string and two typed arrays (transferred, not cloned: a structured clone of a row object per
 * URL cost more than the insert itself), and errors as plain data made into the same errors again.
 */
import { type ErrorCode, isSitemapkitError, SitemapkitError } from '../core/errors.js';
import type { NewUrlRow } from './backend.js';

/** New rows, packed: the strings of every row in one text, cut by `lens`; the numbers in `nums`. */
export interface PackedRows {
  count: number;
  text: string;
  /** Per row, per string field: its length in `text`, NULL_LEN for null, SAME_LEN for the previous row's value. */
  lens: Int32Array;
  /** Per row: file (NaN for null), len, news, born, changed. */
  nums: Float64Array;
}

const STRINGS = [
  'loc',
  'section',
  'hash',
  'inputLastmod',
  'changedAt',
  'firstSeen',
  'entry',
  'fragment',
  'removedAt',
] as const;
const NUMS = 5;
const NULL_LEN = -1;
// An import's new rows share their first-seen time and empty fields: sent once, not per row.
const SAME_LEN = -2;

/** Packs rows as they come; `take()` hands over what it holds (its arrays are then transferred). */
export class RowPacker {
  readonly #capacity: number;
  #text = '';
  #lens: Int32Array;
  #nums: Float64Array;
  #count = 0;
  readonly #last: Array<string | null | undefined> = Array(STRINGS.length).fill(undefined);

  constructor(capacity: number) {
    this.#capacity = capacity;
    this.#lens = new Int32Array(capacity * STRINGS.length);
    this.#nums = new Float64Array(capacity * NUMS);
  }

  get count(): number {
    return this.#count;
  }

  get full(): boolean {
    return this.#count >= this.#capacity;
  }

  add(r: NewUrlRow): void {
    // Field by field, in the order of STRINGS (a loop over the names cost most of the packing).
    const at = this.#count * STRINGS.length;
    this.#str(at, 0, r.loc);
    this.#str(at, 1, r.section);
    this.#str(at, 2, r.hash);
    this.#str(at, 3, r.inputLastmod);
    this.#str(at, 4, r.changedAt);
    this.#str(at, 5, r.firstSeen);
    this.#str(at, 6, r.entry);
    this.#str(at, 7, r.fragment);
    this.#str(at, 8, r.removedAt);
    const n = this.#count * NUMS;
    this.#nums[n] = r.file ?? Number.NaN;
    this.#nums[n + 1] = r.len;
    this.#nums[n + 2] = r.news;
    this.#nums[n + 3] = r.born;
    this.#nums[n + 4] = r.changed;
    this.#count++;
  }

  #str(at: number, k: number, v: string | null): void {
    if (v === this.#last[k]) this.#lens[at + k] = SAME_LEN;
    else if (v === null) this.#lens[at + k] = NULL_LEN;
    else {
      this.#text += v;
      this.#lens[at + k] = v.length;
    }
    this.#last[k] = v;
  }

  take(): PackedRows {
    const out: PackedRows = {
      count: this.#count,
      text: this.#text,
      lens: this.#lens.subarray(0, this.#count * STRINGS.length),
      nums: this.#nums.subarray(0, this.#count * NUMS),
    };
    this.#text = '';
    this.#lens = new Int32Array(this.#capacity * STRINGS.length);
    this.#nums = new Float64Array(this.#capacity * NUMS);
    this.#count = 0;
    this.#last.fill(undefined);
    return out;
  }
}

/** The rows of a pack, as the backend inserts them. */
export function unpackRows(p: PackedRows): NewUrlRow[] {
  const rows: NewUrlRow[] = new Array(p.count);
  const last: Array<string | null> = Array(STRINGS.length).fill(null);
  let pos = 0;
  for (let i = 0; i < p.count; i++) {
    const at = i * STRINGS.length;
    for (let k = 0; k < STRINGS.length; k++) {
      const len = p.lens[at + k]!;
      if (len === NULL_LEN) last[k] = null;
      else if (len !== SAME_LEN) {
        last[k] = p.text.slice(pos, pos + len);
        pos += len;
      }
    }
    const n = i * NUMS;
    const file = p.nums[n]!;
    // In the order of STRINGS.
    rows[i] = {
      loc: last[0]!,
      section: last[1]!,
      file: Number.isNaN(file) ? null : file,
      hash: last[2]!,
      inputLastmod: last[3]!,
      changedAt: last[4]!,
      firstSeen: last[5]!,
      len: p.nums[n + 1]!,
      news: p.nums[n + 2]!,
      entry: last[6]!,
      fragment: last[7]!,
      born: p.nums[n + 3]!,
      changed: p.nums[n + 4]!,
      removedAt: last[8]!,
    };
  }
  return rows;
}

/** An error as data (an Error does not keep its class, code or fields across a postMessage). */
export interface ErrorData {
  name: string;
  message: string;
  code?: string | undefined;
  where?: string | undefined;
  hint?: string | undefined;
  cause?: ErrorData | undefined;
  /** A fault injected by the main thread's onStep: the main thread rethrows its own error. */
  step?: boolean;
}

export function errorData(e: unknown): ErrorData {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const code = (e as { code?: unknown }).code;
  const out: ErrorData = { name: e.name, message: e.message };
  if (typeof code === 'string') out.code = code;
  if (isSitemapkitError(e)) {
    out.where = e.where;
    out.hint = e.hint;
  }
  if (e.cause !== undefined) out.cause = errorData(e.cause);
  return out;
}

/** The error again: a SitemapkitError with its code, place and hint; another error with its name and code. */
export function errorFrom(d: ErrorData): Error {
  const cause = d.cause === undefined ? undefined : errorFrom(d.cause);
  if (d.name === 'SitemapkitError' && d.code !== undefined)
    return new SitemapkitError(d.code as ErrorCode, d.message, {
      ...(cause !== undefined && { cause }),
      ...(d.where !== undefined && { where: d.where }),
      ...(d.hint !== undefined && { hint: d.hint }),
    });
  const e = new Error(d.message, cause === undefined ? undefined : { cause });
  e.name = d.name;
  if (d.code !== undefined) (e as Error & { code: string }).code = d.code;
  return e;
}

/** A call of the main thread: a backend method by name (`layouts.get`, `reads.files`…) or a control. */
export interface Call {
  id: number;
  op: string;
  args: unknown[];
  /** Not waited for (inside a transaction): a failure fails every later call until the rollback. */
  nowait: boolean;
}

/** The worker's answer to a call (`id`), or a step it waits at (`step`), or an insert acknowledged. */
export type Reply =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: ErrorData }
  | { step: string };

/** What the worker is started with. */
export interface WorkerInput {
  path: string;
  /** Set when the caller injects faults at steps: the worker waits on it at each of its own. */
  steps: SharedArrayBuffer | undefined;
}
