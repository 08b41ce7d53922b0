/**
 * Reading an SQLite site store that another process may be writing. A writer holds the file in
 * `locking_mode=EXCLUSIVE` from open to close, and any open connection (even an idle one) keeps it
 * from getting in; so a reader holds no connection between reads: each read opens the file
 * read-only, runs one statement and closes it. While a writer holds the file, a read fails with
 * `ERR_BUSY` (retryable) instead of waiting for it.
 */
import { statSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import { SitemapkitError } from '../core/errors.js';
import { type StoreReads, sqliteReadsOf } from './read.js';
import { STORE_FORMAT, STORE_VERSION } from './sqlite.js';

type Db = BetterSqlite3.Database;

function isBusy(cause: unknown): boolean {
  return (cause as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;
}

function busy(path: string, cause: unknown): SitemapkitError {
  return new SitemapkitError('ERR_BUSY', 'the site store is being written by another process', {
    where: path,
    cause,
    hint: 'try again when it is done (a reader never waits for a writer, nor holds one up)',
  });
}

/**
 * Reads of the store file at `path`, a connection per read. Checks now that the file is a store
 * (`ERR_STATE`) and returns its settings rows; `ERR_BUSY` when a writer holds it.
 */
export async function openSqliteReader(
  path: string,
): Promise<{ reads: StoreReads; meta: Map<string, string> }> {
  let Database: typeof BetterSqlite3;
  try {
    Database = (await import('better-sqlite3')).default;
  } catch (cause) {
    throw new SitemapkitError('ERR_STATE', 'the SQLite binding (better-sqlite3) cannot be loaded', {
      cause,
      hint: 'reinstall with `npm ci`',
    });
  }
  const once = async <T>(fn: (db: Db) => T | Promise<T>): Promise<T> => {
    let db: Db;
    try {
      // A short wait covers a writer that is opening or closing, never one at work.
      db = new Database(path, { readonly: true, fileMustExist: true, timeout: 50 });
    } catch (cause) {
      throw new SitemapkitError('ERR_STATE', `cannot open the site store: ${(cause as Error).message}`, {
        cause,
        where: path,
        hint: 'a read-only open needs an existing store: create it with sitemapkit store add or generate --store',
      });
    }
    try {
      return await fn(db);
    } catch (cause) {
      if (isBusy(cause)) throw busy(path, cause);
      if (cause instanceof SitemapkitError) throw cause;
      throw new SitemapkitError('ERR_STATE', `cannot read the site store: ${(cause as Error).message}`, {
        cause,
        where: path,
        hint: 'check that the file is a site store',
      });
    } finally {
      db.close();
    }
  };
  const meta = await once((db) => {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
    const rows =
      table === undefined
        ? []
        : (db.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>);
    return new Map(rows.map((r) => [r.key, r.value]));
  });
  if (meta.get('format') !== STORE_FORMAT || meta.get('version') !== STORE_VERSION) {
    throw new SitemapkitError(
      'ERR_STATE',
      'this file is not a sitemapkit site store of a version this release reads',
      { where: path, hint: 'pass the path of a site store' },
    );
  }
  // The generation, known without opening the file while neither it nor its WAL changed. A write
  // after the generation was read moves an mtime past the one recorded, unless that mtime was
  // within a second of the read (coarse file clocks): then it is not trusted ("racy", as git's index).
  // Not the change times: a read-only connection changes the WAL's at every open.
  let known: { stamp: string; newest: number; readAt: number; generation: number } | undefined;
  const stampOf = (): { stamp: string; newest: number } => {
    let stamp = '';
    let newest = 0;
    for (const p of [path, `${path}-wal`]) {
      const st = statSync(p, { throwIfNoEntry: false, bigint: true });
      if (st === undefined) stamp += '-|';
      else {
        stamp += `${st.ino}:${st.size}:${st.mtimeNs}|`;
        newest = Math.max(newest, Number(st.mtimeNs / 1_000_000n));
      }
    }
    return { stamp, newest };
  };
  // Each read on a connection of its own, opened and closed around it.
  const reads: StoreReads = {
    files: () => once((db) => sqliteReadsOf(db).files()),
    entries: (file, after, limit) => once((db) => sqliteReadsOf(db).entries(file, after, limit)),
    published: () => once((db) => sqliteReadsOf(db).published!()),
    async generation() {
      const { stamp, newest } = stampOf();
      if (known !== undefined && known.stamp === stamp && known.readAt - known.newest > 1000)
        return known.generation;
      const readAt = Date.now();
      const generation = (await reads.files()).generation;
      known = { stamp, newest, readAt, generation };
      return generation;
    },
  };
  return { reads, meta };
}
