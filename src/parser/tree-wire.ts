/**
 * What the tree's main thread and its parse workers say to each other (`tree-pool.ts`,
 * `tree-worker.ts`). The main thread keeps all I/O (fetches through the run's HTTP client, with its
 * hooks and address policy; robots.txt for cross-submits) and hands the worker the body's raw
 * chunks; the worker decodes, parses and checks, and sends back batches of items together with the
 * findings made while reading them, in the order they happened, to be replayed at the document's
 * turn. Errors cross as plain data and come back as the same classes.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { isSitemapkitError, SitemapkitError } from '../core/errors.js';
import type { HttpFailureReason } from '../http/errors.js';
import { FetchFailure, type FetchFailureKind } from './http.js';
import type { ItemPosition, SitemapInfo, SitemapItem } from './types.js';

/**
 * One thing a document did while it was read, kept for its turn: a finding (`d`) or, when the
 * caller has `onItem`, an item's position (`i`: its index in the batch it belongs to).
 */
export type DocEvent = { d: Diagnostic } | { i: number; w: ItemPosition };

/** The items one `readDocument` step yielded, and what happened while they were read. */
export interface DocBatch {
  events: DocEvent[];
  items: SitemapItem[];
  /**
   * Instead of `items` (then empty), when the tree is read into lines ({@link TreeLineFormat}):
   * the batch's pages as lines, one each, written in the worker. Only a batch of pages alone (no
   * index child, which the walk must see) travels as lines.
   */
  lines?: Lines;
}

/**
 * Pages as lines: `count` lines, each ending with a newline, as text (read in this thread) or as
 * their UTF-8 bytes (written by a parse worker: bytes cross between threads without a copy, stay
 * out of this thread's heap while they wait for their turn, and are written out as they are).
 */
export type Lines = { text: string; count: number } | { bytes: Uint8Array; count: number };

/**
 * A tree read into lines of text rather than entries (the CLI's `parse URL --format jsonl`): each
 * page becomes `line(item, sitemapJson)`, written by the parse worker that read it, so that this
 * thread only puts the lines in order. `module` (a URL the workers import) exports the same
 * function under `name`; a line must contain no newline but its last character.
 */
export interface TreeLineFormat {
  module: string;
  name: string;
  /** The line of `item` (a page) of the sitemap `sitemapJson` (its URL as listed, as JSON). */
  line(item: SitemapItem, sitemapJson: string): string;
}

/** The end of a document: what happened after its last batch, and its facts. */
export interface DocEnd {
  events: DocEvent[];
  info: SitemapInfo;
}

/** The options a worker needs to read one document as the main thread would. */
export interface DocTask {
  name: string;
  requested?: string;
  url?: string;
  redirects: string[];
  fetched: boolean;
  sitemapUrl: string | undefined;
  allowHosts: readonly string[];
  crossSubmit: boolean | undefined;
  maxBytes: number;
  maxDownloadBytes: number;
  maxElementDepth: number;
  rawUrls: boolean;
  /** Whether the caller has `onItem` (positions are then recorded). */
  positions: boolean;
  /** Pages as lines: the module and export of the line function, and the sitemap's name as JSON. */
  lines?: { module: string; name: string; sitemapJson: string };
  parent?: string;
  depth?: number;
}

/** An error as data: enough to raise the same class with the same code, message, place and hint. */
export interface WireError {
  message: string;
  name?: string;
  stack?: string;
  code?: string;
  where?: string;
  hint?: string;
  fetch?: { kind: FetchFailureKind; status?: number; reason?: HttpFailureReason };
}

/**
 * Batches sent together: each one's events and item count; their items, when not in the text.
 * With `lines`, the message's bytes are the batches' lines, and `end` is the byte where each
 * batch's lines end.
 */
export interface OutMeta {
  batches: Array<{ events: DocEvent[]; n: number; end?: number }>;
  items?: SitemapItem[];
  lines?: true;
}

export type ToWorker =
  | { t: 'open'; id: number; task: DocTask }
  | { t: 'chunk'; id: number; bytes: Uint8Array }
  | { t: 'end'; id: number; error?: WireError }
  | { t: 'credit'; id: number; bytes: number }
  | { t: 'cross'; id: number; q: number; ok: boolean }
  | { t: 'cancel'; id: number };

export type FromWorker =
  | { t: 'took'; id: number }
  /**
   * v8-serialised {@link OutMeta}; the items in `text` (`tree-codec.ts`) unless the meta holds
   * them, or the lines' UTF-8 in `bytes`.
   */
  | { t: 'out'; id: number; buf: ArrayBuffer; text?: string; bytes?: ArrayBuffer }
  /** v8-serialised `DocEnd`. */
  | { t: 'done'; id: number; buf: ArrayBuffer }
  | { t: 'error'; id: number; error: WireError }
  | { t: 'cross'; id: number; q: number; url: string; sitemapUrls: string[] };

export function toWire(error: unknown): WireError {
  if (!(error instanceof Error)) return { message: String(error) };
  const w: WireError = { message: error.message, name: error.name };
  if (error.stack !== undefined) w.stack = error.stack;
  if (isSitemapkitError(error)) {
    w.code = error.code;
    if (error.where !== undefined) w.where = error.where;
    if (error.hint !== undefined) w.hint = error.hint;
  }
  if (error instanceof FetchFailure) {
    w.fetch = { kind: error.kind };
    if (error.status !== undefined) w.fetch.status = error.status;
    if (error.reason !== undefined) w.fetch.reason = error.reason;
  }
  return w;
}

export function fromWire(w: WireError): Error {
  let e: Error;
  if (w.fetch !== undefined) {
    e = new FetchFailure(w.fetch.kind, w.message, w.where ?? '', w.fetch.status, undefined, w.fetch.reason);
  } else if (w.code !== undefined) {
    const o: { where?: string; hint?: string } = {};
    if (w.where !== undefined) o.where = w.where;
    if (w.hint !== undefined) o.hint = w.hint;
    e = new SitemapkitError(w.code as SitemapkitError['code'], w.message, o);
  } else {
    e = new Error(w.message);
    if (w.name !== undefined) e.name = w.name;
  }
  if (w.stack !== undefined) e.stack = w.stack;
  return e;
}

/** The bytes of a serialised value as a transferable ArrayBuffer of its own. */
export function ownBuffer(b: Uint8Array): ArrayBuffer {
  if (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer)
    return b.buffer;
  // A copy (a Buffer's slice() would be a view of the same memory).
  return new Uint8Array(b).buffer as ArrayBuffer;
}
