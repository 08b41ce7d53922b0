/**
 * The SQLite backend of the site store (better-sqlite3): one file, WAL, locked by one process at a
 * time (a second `sitemapkit` on the same store is refused at once, not queued), a format and
 * version checked on open. The crawl state (src/crawler/state-open.ts) is opened the same way.
 */
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SitemapkitError } from '../core/errors.js';
import { ensureDir } from '../writer/atomic.js';
import type { FileRow, NewUrlRow, PendingRow, PublishedRow, StoreBackend, UrlRow } from './backend.js';

type Db = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

export const STORE_FORMAT = 'sitemapkit-store';
export const STORE_VERSION = '1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS urls (
  id INTEGER PRIMARY KEY,
  loc TEXT NOT NULL UNIQUE,
  section TEXT NOT NULL,
  file INTEGER,
  hash TEXT NOT NULL,
  input_lastmod TEXT,
  changed_at TEXT,
  first_seen TEXT NOT NULL,
  len INTEGER NOT NULL,
  news INTEGER NOT NULL,
  entry TEXT,
  fragment TEXT NOT NULL,
  born INTEGER NOT NULL,
  changed INTEGER NOT NULL,
  removed_at TEXT
);
CREATE INDEX IF NOT EXISTS urls_file ON urls (file, id) WHERE file IS NOT NULL;
CREATE INDEX IF NOT EXISTS urls_changed ON urls (changed, id);
CREATE INDEX IF NOT EXISTS urls_tombstones ON urls (removed_at) WHERE file IS NULL;
CREATE TABLE IF NOT EXISTS files (
  id INTEGER PRIMARY KEY,
  section TEXT NOT NULL,
  num INTEGER NOT NULL,
  urls INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  news INTEGER NOT NULL,
  changed INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS published (
  path TEXT PRIMARY KEY,
  sha256 TEXT NOT NULL,
  size INTEGER NOT NULL,
  disk TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  urls INTEGER NOT NULL,
  lastmod TEXT NOT NULL
) WITHOUT ROWID;
`;

const COLUMNS =
  'id, loc, section, file, hash, input_lastmod AS inputLastmod, changed_at AS changedAt, first_seen AS firstSeen, len, news, entry, fragment, born, changed, removed_at AS removedAt';

async function loadSqlite(): Promise<typeof BetterSqlite3> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (cause) {
    throw new SitemapkitError('ERR_STATE', 'the SQLite binding (better-sqlite3) cannot be loaded', {
      cause,
      hint: 'reinstall with `npm ci` (better-sqlite3 builds from source when no prebuilt binary is available)',
    });
  }
}

function isBusy(cause: unknown): boolean {
  return (cause as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;
}

/** Opens (creating when missing) the store at `path`, locked for this process. Throws `ERR_STATE`. */
export async function openSqliteBackend(path: string): Promise<SqliteBackend> {
  const Database = await loadSqlite();
  await ensureDir(dirname(path), 'create the folder of the site store');
  let db: Db;
  try {
    db = new Database(path, { timeout: 200 });
  } catch (cause) {
    throw new SitemapkitError('ERR_STATE', `cannot open the site store: ${(cause as Error).message}`, {
      cause,
      where: path,
      hint: 'check the path and its permissions',
    });
  }
  try {
    // Exclusive before WAL: no shared-memory index, and the lock is held until close.
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    // FULL: a committed import or build survives a power cut, not only a crash of the process.
    db.pragma('synchronous = FULL');
    db.pragma('cache_size = -32000');
    db.pragma('temp_store = MEMORY');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    const meta = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
    if (meta !== undefined) {
      const get = (key: string): string | undefined =>
        (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
      if (get('format') !== STORE_FORMAT || get('version') !== STORE_VERSION) {
        throw new SitemapkitError(
          'ERR_STATE',
          'this file is not a sitemapkit site store of a version this release reads',
          {
            where: path,
            hint: 'pass --store with another file (a new one is created)',
          },
        );
      }
    } else {
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
        n: number;
      };
      if (tables.n > 0) {
        throw new SitemapkitError('ERR_STATE', 'this SQLite file is not a sitemapkit site store', {
          where: path,
          hint: 'pass --store with another file (a new one is created)',
        });
      }
      db.exec(`BEGIN; ${SCHEMA} COMMIT;`);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)').run(
        'format',
        STORE_FORMAT,
        'version',
        STORE_VERSION,
      );
    }
  } catch (cause) {
    db.close();
    if (cause instanceof SitemapkitError) throw cause;
    throw new SitemapkitError(
      'ERR_STATE',
      isBusy(cause)
        ? 'the site store is in use by another sitemapkit process'
        : `cannot open the site store: ${(cause as Error).message}`,
      {
        cause,
        where: path,
        hint: isBusy(cause)
          ? 'wait for the other process to end (one process at a time uses a store)'
          : 'check that the file is a site store',
      },
    );
  }
  return new SqliteBackend(db);
}

export class SqliteBackend implements StoreBackend {
  readonly #db: Db;
  readonly #s: Record<string, Statement>;
  #depth = 0;

  constructor(db: Db) {
    this.#db = db;
    const p = (sql: string): Statement => db.prepare(sql);
    this.#s = {
      getMeta: p('SELECT value FROM meta WHERE key = ?'),
      setMeta: p(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      lookup: p(`SELECT ${COLUMNS} FROM urls WHERE loc = ?`),
      insert: p(
        'INSERT INTO urls (loc, section, file, hash, input_lastmod, changed_at, first_seen, len, news, entry, fragment, born, changed, removed_at) VALUES (@loc, @section, @file, @hash, @inputLastmod, @changedAt, @firstSeen, @len, @news, @entry, @fragment, @born, @changed, @removedAt)',
      ),
      update: p(
        'UPDATE urls SET section = @section, file = @file, hash = @hash, input_lastmod = @inputLastmod, changed_at = @changedAt, first_seen = @firstSeen, len = @len, news = @news, entry = @entry, fragment = @fragment, born = @born, changed = @changed, removed_at = @removedAt WHERE id = @id',
      ),
      delete: p('DELETE FROM urls WHERE id = ?'),
      move: p('UPDATE urls SET file = ? WHERE id = ?'),
      live: p(`SELECT ${COLUMNS} FROM urls WHERE file IS NOT NULL AND id > ? ORDER BY id LIMIT ?`),
      liveOfFile: p(`SELECT ${COLUMNS} FROM urls WHERE file = ? AND id > ? ORDER BY id LIMIT ?`),
      tombstones: p(`SELECT ${COLUMNS} FROM urls WHERE file IS NULL AND id > ? ORDER BY id LIMIT ?`),
      pending: p(
        `SELECT id, loc, CASE WHEN file IS NULL THEN 'removed' WHEN born > @since THEN 'added' ELSE 'changed' END AS change,
          CASE WHEN file IS NULL THEN NULL ELSE coalesce(input_lastmod, changed_at) END AS lastmod,
          coalesce(removed_at, changed_at, first_seen) AS at
         FROM urls WHERE changed > @since AND id > @after ORDER BY id LIMIT @limit`,
      ),
      removedSince: p('SELECT count(*) AS n FROM urls WHERE file IS NULL AND changed > ?'),
      purge: p('DELETE FROM urls WHERE file IS NULL AND removed_at < ? AND changed <= ?'),
      files: p('SELECT id, section, num, urls, bytes, news, changed FROM files ORDER BY section, num'),
      saveFile: p(
        'INSERT INTO files (id, section, num, urls, bytes, news, changed) VALUES (@id, @section, @num, @urls, @bytes, @news, @changed) ON CONFLICT (id) DO UPDATE SET section = excluded.section, num = excluded.num, urls = excluded.urls, bytes = excluded.bytes, news = excluded.news, changed = excluded.changed',
      ),
      deleteFile: p('DELETE FROM files WHERE id = ?'),
      published: p('SELECT path, sha256, size, disk, bytes, urls, lastmod FROM published ORDER BY path'),
      clearPublished: p('DELETE FROM published'),
      addPublished: p(
        'INSERT INTO published (path, sha256, size, disk, bytes, urls, lastmod) VALUES (@path, @sha256, @size, @disk, @bytes, @urls, @lastmod)',
      ),
    };
  }

  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    // Nested calls join the outer transaction (a sync and a build as one unit).
    if (this.#depth > 0) return fn();
    this.#db.exec('BEGIN IMMEDIATE');
    this.#depth++;
    try {
      const out = await fn();
      this.#db.exec('COMMIT');
      return out;
    } catch (error) {
      if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
      throw error;
    } finally {
      this.#depth--;
    }
  }

  async getMeta(key: string): Promise<string | undefined> {
    return (this.#s['getMeta']!.get(key) as { value: string } | undefined)?.value;
  }

  async setMeta(key: string, value: string): Promise<void> {
    this.#s['setMeta']!.run(key, value);
  }

  async lookup(locs: readonly string[]): Promise<Map<string, UrlRow>> {
    const out = new Map<string, UrlRow>();
    const st = this.#s['lookup']!;
    for (const loc of locs) {
      const row = st.get(loc) as UrlRow | undefined;
      if (row !== undefined) out.set(loc, row);
    }
    return out;
  }

  async insert(rows: readonly NewUrlRow[]): Promise<number[]> {
    const st = this.#s['insert']!;
    return rows.map((r) => Number(st.run(r).lastInsertRowid));
  }

  async update(rows: readonly UrlRow[]): Promise<void> {
    const st = this.#s['update']!;
    for (const r of rows) st.run(r);
  }

  async deleteIds(ids: readonly number[]): Promise<void> {
    const st = this.#s['delete']!;
    for (const id of ids) st.run(id);
  }

  async move(ids: readonly number[], file: number): Promise<void> {
    const st = this.#s['move']!;
    for (const id of ids) st.run(file, id);
  }

  async liveRows(after: number, limit: number, file?: number): Promise<UrlRow[]> {
    return (
      file === undefined ? this.#s['live']!.all(after, limit) : this.#s['liveOfFile']!.all(file, after, limit)
    ) as UrlRow[];
  }

  async tombstones(after: number, limit: number): Promise<UrlRow[]> {
    return this.#s['tombstones']!.all(after, limit) as UrlRow[];
  }

  async pending(since: number, after: number, limit: number): Promise<PendingRow[]> {
    return this.#s['pending']!.all({ since, after, limit }) as PendingRow[];
  }

  async countRemovedSince(since: number): Promise<number> {
    return (this.#s['removedSince']!.get(since) as { n: number }).n;
  }

  async purge(before: string, published: number): Promise<number> {
    return this.#s['purge']!.run(before, published).changes;
  }

  async files(): Promise<FileRow[]> {
    return this.#s['files']!.all() as FileRow[];
  }

  async saveFiles(rows: readonly FileRow[], deleted: readonly number[]): Promise<void> {
    for (const id of deleted) this.#s['deleteFile']!.run(id);
    for (const r of rows) this.#s['saveFile']!.run(r);
  }

  async published(): Promise<PublishedRow[]> {
    return this.#s['published']!.all() as PublishedRow[];
  }

  async setPublished(rows: readonly PublishedRow[]): Promise<void> {
    this.#s['clearPublished']!.run();
    for (const r of rows) this.#s['addPublished']!.run(r);
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
