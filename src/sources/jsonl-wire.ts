/**
 * The messages between the JSONL reader's worker (`jsonl-worker.ts`) and the main thread
 * (`jsonl-thread.ts`), and errors as plain data (an Error keeps neither its class nor its code
 * across a postMessage).
 */
import { type ErrorCode, isSitemapkitError, SitemapkitError } from '../core/errors.js';
import type { HashedSetTables } from '../core/hash.js';
import type { CheckRequest } from '../writer/checked.js';

export interface JsonlTask {
  file: string;
  encoding: string | undefined;
  request: CheckRequest;
}

export interface ErrorData {
  name: string;
  message: string;
  code?: string;
  where?: string;
  hint?: string;
  errno?: number;
  syscall?: string;
  path?: string;
}

/**
 * A batch of checked records (see `writer/checked.ts`: its first `length` bytes), the end with the
 * duplicate set, or a failure.
 */
export type FromJsonlWorker =
  | { buffer: ArrayBuffer; length: number }
  | { done: true; tables: HashedSetTables | undefined }
  | { error: ErrorData };

/**
 * The main thread took a batch: the worker may send one more. Sent as is, or as the buffer of the
 * batch before, which the main thread has read (the worker fills it again).
 */
export const MORE = 'more';

export function errorData(e: unknown): ErrorData {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const out: ErrorData = { name: e.name, message: e.message };
  const f = e as { code?: unknown; errno?: unknown; syscall?: unknown; path?: unknown };
  if (typeof f.code === 'string') out.code = f.code;
  if (typeof f.errno === 'number') out.errno = f.errno;
  if (typeof f.syscall === 'string') out.syscall = f.syscall;
  if (typeof f.path === 'string') out.path = f.path;
  if (isSitemapkitError(e)) {
    if (e.where !== undefined) out.where = e.where;
    if (e.hint !== undefined) out.hint = e.hint;
  }
  return out;
}

/** The error again: a SitemapkitError with its code, place and hint; a system error with its code and path. */
export function errorFrom(d: ErrorData): Error {
  if (d.name === 'SitemapkitError' && d.code !== undefined) {
    return new SitemapkitError(d.code as ErrorCode, d.message, {
      ...(d.where !== undefined && { where: d.where }),
      ...(d.hint !== undefined && { hint: d.hint }),
    });
  }
  const e = new Error(d.message) as Error & Omit<ErrorData, 'name' | 'message'>;
  e.name = d.name;
  if (d.code !== undefined) e.code = d.code;
  if (d.errno !== undefined) e.errno = d.errno;
  if (d.syscall !== undefined) e.syscall = d.syscall;
  if (d.path !== undefined) e.path = d.path;
  return e;
}
