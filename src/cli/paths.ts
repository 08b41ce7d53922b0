/**
 * The paths a command is given, checked before it starts: a missing file, a folder where a file
 * is wanted (or the other way round) is one sentence naming the path and what to do, before
 * anything is read, fetched or written.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isSitemapkitError, SitemapkitError } from '../core/errors.js';
import { fsError } from '../core/fs-errors.js';
import { BATCHES, batchedSource, batchesOf } from '../writer/batches.js';
import { CHECKED, type CheckableSource, checkedOf } from '../writer/checked.js';

/** Whether `source` names a local path (not standard input, not an http(s) URL). */
export function isLocalPath(source: string): boolean {
  return source !== '-' && !/^[a-z][a-z0-9+.-]*:\/\//i.test(source);
}

/**
 * Checks that `path` is a file that can be looked at. `doing` is what the command does with it
 * (`read the input file`); `folderHint` is the advice when it is a folder.
 */
export async function checkInputFile(path: string, doing: string, folderHint: string): Promise<void> {
  let isDir: boolean;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (e) {
    throw fsError(e, { path, doing });
  }
  if (isDir)
    throw new SitemapkitError('ERR_INPUT', `cannot ${doing}: it is a folder, not a file`, {
      where: path,
      hint: folderHint,
    });
}

/** Checks that `path` is a folder. */
export async function checkInputFolder(path: string, doing: string, fileHint: string): Promise<void> {
  let isDir: boolean;
  try {
    isDir = (await stat(path)).isDirectory();
  } catch (e) {
    throw fsError(e, { path, doing, kind: 'folder' });
  }
  if (!isDir)
    throw new SitemapkitError('ERR_INPUT', `cannot ${doing}: it is a file, not a folder`, {
      where: path,
      hint: fileHint,
    });
}

/**
 * Rethrows a file-system failure of a stream (a file that vanished or turned unreadable while it
 * was read) as one sentence naming `path`; keeps the writer's fast lane of record batches.
 */
export function namingPath<T>(items: AsyncIterable<T>, path: string, doing: string): AsyncIterable<T> {
  if (!(BATCHES in items)) return guarded(items, path, doing);
  const named: AsyncIterable<T> & Partial<CheckableSource> = batchedSource(() =>
    guarded(batchesOf<T>(items)!, path, doing),
  );
  // A source that reads on another thread keeps doing so, its failures named the same way.
  if (CHECKED in items) {
    named[CHECKED] = (request) => {
      const checked = checkedOf(items, request);
      if (checked === undefined) return undefined;
      return { seen: () => checked.seen(), [Symbol.asyncIterator]: () => guarded(checked, path, doing) };
    };
  }
  return named;
}

async function* guarded<T>(items: AsyncIterable<T>, path: string, doing: string): AsyncGenerator<T> {
  try {
    yield* items;
  } catch (e) {
    throw fsError(e, { path, doing });
  }
}

/**
 * {@link checkInputFile} for a sitemap given to `parse` or `validate`. A missing file is left to
 * the reader, whose "PATH: no such file" scripts already match on.
 */
export async function checkSitemapFile(path: string): Promise<void> {
  try {
    await checkInputFile(
      path,
      'read the sitemap',
      `give a sitemap file, such as ${join(path, 'sitemap.xml')} (or its http(s) URL)`,
    );
  } catch (e) {
    if (!(isSitemapkitError(e) && (e.cause as { code?: unknown } | undefined)?.code === 'ENOENT')) throw e;
  }
}
