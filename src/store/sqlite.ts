/**
 * The SQLite backend of the site store (better-sqlite3): one file, WAL, locked by one process at a
 * time (a second `sitemapkit` on the same store is refused at once, not queued), a format and
 * version checked on open. The crawl state (src/crawler/state-open.ts) is opened the same way.
 */
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SitemapkitError } from '../core/errors.js';
import { hashKey } from '../core/hash.js';
import { ensureDir } from '../writer/atomic.js';
import type {
  CompareRow,
  FeedRow,
  FileRow,
  FragmentRow,
  KnownRow,
  LightRow,
  NewUrlRow,
  PendingRow,
  PublishedRow,
  StoreBackend,
  UrlRow,
} from './backend.js';
import { type StoreReads, sqliteReadsOf } from './read.js';
import { SqliteInserter } from './sqlite-insert.js';
import { LASTMODS, SqliteLastmods } from './sqlite-lastmods.js';
import { LAYOUTS, SqliteLayouts } from './sqlite-layouts.js';

type Db = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

export const STORE_FORMAT = 'sitemapkit-store';
export const STORE_VERSION = '1';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS urls (
  id INTEGER PRIMARY KEY,
  key INTEGER NOT NULL,
  loc TEXT NOT NULL,
  section TEXT NOT NULL,
  file INTEGER,
  hash TEXT NOT NULL,
  input_lastmod TEXT,
  changed_at TEXT,
  first_seen TEXT NOT NULL,
  len INTEGER NOT NULL,
  news INTEGER NOT NULL,
  entry TEXT,
  fragment TEXT,
  born INTEGER NOT NULL,
  changed INTEGER NOT NULL,
  removed_at TEXT
);
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

// Locs are looked up through a 53-bit hash of them: an index a third the size of one on the text.
const INDEXES = `
CREATE INDEX IF NOT EXISTS urls_key ON urls (key);
CREATE INDEX IF NOT EXISTS urls_file ON urls (file, id) WHERE file IS NOT NULL;
CREATE INDEX IF NOT EXISTS urls_changed ON urls (changed, id);
${LASTMODS}
`;

// What an import compares (the serialised entry is left out: it is rewritten when anything changes).
const KNOWN =
  'id, loc, section, file, hash, input_lastmod AS inputLastmod, changed_at AS changedAt, first_seen AS firstSeen, len, news, born, changed, removed_at AS removedAt';
const COMPARE = 'id, loc, hash, input_lastmod, section, file';
const LOOKUP_BATCH = 256;

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

function notAStore(path: string, message: string): SitemapkitError {
  return new SitemapkitError('ERR_STATE', message, {
    where: path,
    hint: 'pass --store with another file (a new one is created)',
  });
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
    // Temporary data (the sorts that build indexes after a bulk load) spills to files, so that
    // memory stays flat however many URLs a store holds.
    db.pragma('temp_store = FILE');
    db.exec('BEGIN EXCLUSIVE; COMMIT');
    const meta = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
    if (meta !== undefined) {
      const get = (key: string): string | undefined =>
        (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
      if (get('format') !== STORE_FORMAT || get('version') !== STORE_VERSION)
        throw notAStore(path, 'this file is not a sitemapkit site store of a version this release reads');
    } else {
      const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as {
        n: number;
      };
      if (tables.n > 0) throw notAStore(path, 'this SQLite file is not a sitemapkit site store');
      // A new store's first write goes under a rollback journal: its pages go into the file once,
      // not into a WAL and back, and a crash still rolls the store back to what it was (empty).
      db.pragma('journal_mode = DELETE');
      db.exec(`BEGIN; ${SCHEMA} ${INDEXES} COMMIT;`);
      db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)').run(
        'format',
        STORE_FORMAT,
        'version',
        STORE_VERSION,
      );
    }
    db.exec(LAYOUTS);
    db.exec(LASTMODS);
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
  #lookupBatch: Statement | undefined;
  #compareBatch: Statement | undefined;
  readonly #inserter: SqliteInserter;
  /** A new store, under a rollback journal until its first write transaction ends (then WAL). */
  #fresh: boolean;
  readonly layouts: SqliteLayouts;
  readonly #lastmods: SqliteLastmods;

  constructor(db: Db) {
    this.#db = db;
    this.#fresh = db.pragma('journal_mode', { simple: true }) === 'delete';
    this.#inserter = new SqliteInserter(db);
    this.layouts = new SqliteLayouts(db);
    this.#lastmods = new SqliteLastmods(db);
    const p = (sql: string): Statement => db.prepare(sql);
    this.#s = {
      getMeta: p('SELECT value FROM meta WHERE key = ?'),
      setMeta: p(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      ),
      lookup: p(`SELECT ${KNOWN} FROM urls WHERE key = ?`),
      compare: p(`SELECT ${COMPARE} FROM urls WHERE key = ?`).raw(),
      byId: p(`SELECT ${KNOWN} FROM urls WHERE id = ?`),
      scan: p('SELECT id, file, len, news, born FROM urls WHERE id > ? ORDER BY id LIMIT ?'),
      liveIds: p('SELECT id FROM urls INDEXED BY urls_file WHERE file IS NOT NULL').pluck(),
      light: p('SELECT id, file, len, news, born FROM urls WHERE id = ?'),
      bury: p('UPDATE urls SET file = NULL, removed_at = ?, changed = ? WHERE id = ?'),
      update: p(
        'UPDATE urls SET section = @section, file = @file, hash = @hash, input_lastmod = @inputLastmod, changed_at = @changedAt, first_seen = @firstSeen, len = @len, news = @news, entry = @entry, fragment = @fragment, born = @born, changed = @changed, removed_at = @removedAt WHERE id = @id',
      ),
      delete: p('DELETE FROM urls WHERE id = ?'),
      move: p('UPDATE urls SET file = ? WHERE id = ?'),
      // NOT INDEXED: a walk of the table in id order (the file index would sort every page).
      live: p(
        `SELECT ${COLUMNS} FROM urls NOT INDEXED WHERE file IS NOT NULL AND id > ? ORDER BY id LIMIT ?`,
      ),
      // Raw rows, made into objects on the JS side: about 40% less time than the binding's named
      // rows (every URL of a build passes here).
      fragments: p(
        'SELECT id, fragment, loc, coalesce(input_lastmod, changed_at) AS lastmod, len, news, CASE WHEN news = 1 THEN entry END AS entry FROM urls WHERE file = ? AND id > ? ORDER BY id LIMIT ?',
      ).raw(),
      // julianday() counts whole milliseconds, as Date.parse does: the order is exact. One walk of
      // the table, C-side, with a sorter bounded by the limit.
      newestUrls: p(
        `SELECT loc, time, entry FROM (
           SELECT loc, entry, coalesce(input_lastmod,
             CASE WHEN news = 1 THEN json_extract(entry, '$.news.publication_date') END,
             changed_at, CASE WHEN born > @first THEN first_seen END) AS time
           FROM urls NOT INDEXED WHERE file IS NOT NULL)
         WHERE time IS NOT NULL ORDER BY julianday(time) DESC, loc LIMIT @limit`,
      ),
      tombstones: p(`SELECT ${COLUMNS} FROM urls WHERE file IS NULL AND id > ? ORDER BY id LIMIT ?`),
      pending: p(
        `SELECT id, changed AS gen, loc, CASE WHEN file IS NULL THEN 'removed' WHEN born > @since THEN 'added' ELSE 'changed' END AS change,
          CASE WHEN file IS NULL THEN NULL ELSE coalesce(input_lastmod, changed_at) END AS lastmod,
          coalesce(removed_at, changed_at, first_seen) AS at
         FROM urls WHERE changed = @gen AND id > @after ORDER BY id LIMIT @limit`,
      ),
      maxChanged: p('SELECT max(changed) AS m FROM urls'),
      countPending: p(
        "SELECT CASE WHEN file IS NULL THEN 'removed' WHEN born > @since THEN 'added' ELSE 'changed' END AS change, count(*) AS n FROM urls WHERE changed > @since GROUP BY 1",
      ),
      removedSince: p(
        'SELECT count(*) AS n FROM urls INDEXED BY urls_tombstones WHERE file IS NULL AND changed > ?',
      ),
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
      if (this.#fresh) this.#db.pragma('journal_mode = WAL');
      this.#fresh = false;
    }
  }

  async getMeta(key: string): Promise<string | undefined> {
    return (this.#s['getMeta']!.get(key) as { value: string } | undefined)?.value;
  }

  async setMeta(key: string, value: string): Promise<void> {
    this.#s['setMeta']!.run(key, value);
  }

  async lookup(locs: readonly string[]): Promise<Map<string, KnownRow>> {
    const out = new Map<string, KnownRow>();
    const wanted = new Set(locs);
    // A statement per 256 locs (an IN list over the key index): far fewer calls than one per loc.
    let i = 0;
    for (; i + LOOKUP_BATCH <= locs.length; i += LOOKUP_BATCH) {
      this.#lookupBatch ??= this.#db.prepare(
        `SELECT ${KNOWN} FROM urls WHERE key IN (${Array(LOOKUP_BATCH).fill('?').join(',')})`,
      );
      const keys = locs.slice(i, i + LOOKUP_BATCH).map(hashKey);
      // A hash collision is possible, so the loc itself decides.
      for (const row of this.#lookupBatch.all(keys) as KnownRow[])
        if (wanted.has(row.loc)) out.set(row.loc, row);
    }
    const st = this.#s['lookup']!;
    for (; i < locs.length; i++) {
      const loc = locs[i]!;
      for (const row of st.all(hashKey(loc)) as KnownRow[]) if (row.loc === loc) out.set(loc, row);
    }
    return out;
  }

  async compare(locs: readonly string[]): Promise<Map<string, CompareRow>> {
    const out = new Map<string, CompareRow>();
    const wanted = new Set(locs);
    const take = (rows: unknown[][]): void => {
      for (const [id, loc, hash, inputLastmod, section, file] of rows as Array<
        [number, string, string, string | null, string, number | null]
      >) {
        // A hash collision is possible, so the loc itself decides.
        if (wanted.has(loc)) out.set(loc, { id, loc, hash, inputLastmod, section, file });
      }
    };
    let i = 0;
    for (; i + LOOKUP_BATCH <= locs.length; i += LOOKUP_BATCH) {
      this.#compareBatch ??= this.#db
        .prepare(`SELECT ${COMPARE} FROM urls WHERE key IN (${Array(LOOKUP_BATCH).fill('?').join(',')})`)
        .raw();
      take(this.#compareBatch.all(locs.slice(i, i + LOOKUP_BATCH).map(hashKey)) as unknown[][]);
    }
    const st = this.#s['compare']!;
    for (; i < locs.length; i++) take(st.all(hashKey(locs[i]!)) as unknown[][]);
    return out;
  }

  async rows(ids: readonly number[]): Promise<Map<number, KnownRow>> {
    const st = this.#s['byId']!;
    const out = new Map<number, KnownRow>();
    for (const id of ids) {
      const r = st.get(id) as KnownRow | undefined;
      if (r !== undefined) out.set(id, r);
    }
    return out;
  }

  async unseen(seen: (id: number) => boolean): Promise<LightRow[]> {
    // The ids alone, from the file index (covering): no table row is read for a URL still listed.
    const gone: number[] = [];
    for (const id of this.#s['liveIds']!.iterate() as IterableIterator<number>) if (!seen(id)) gone.push(id);
    const st = this.#s['light']!;
    return gone.map((id) => st.get(id) as LightRow);
  }

  async insert(rows: readonly NewUrlRow[]): Promise<number[]> {
    return this.#inserter.insert(rows);
  }

  async scan(after: number, limit: number): Promise<LightRow[]> {
    return this.#s['scan']!.all(after, limit) as LightRow[];
  }

  async bury(ids: readonly number[], at: string, gen: number): Promise<void> {
    const st = this.#s['bury']!;
    for (const id of ids) st.run(at, gen, id);
  }

  async fragments(file: number, after: number, limit: number): Promise<FragmentRow[]> {
    const rows = this.#s['fragments']!.all(file, after, limit) as Array<
      [number, string | null, string, string | null, number, number, string | null]
    >;
    return rows.map(([id, fragment, loc, lastmod, len, news, entry]) => ({
      id,
      fragment,
      loc,
      lastmod,
      len,
      news,
      entry,
    }));
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
    this.layouts.moving(ids, file);
    const st = this.#s['move']!;
    for (const id of ids) st.run(file, id);
  }

  async liveRows(after: number, limit: number): Promise<UrlRow[]> {
    return this.#s['live']!.all(after, limit) as UrlRow[];
  }

  async newestUrls(firstBuild: number, limit: number): Promise<FeedRow[]> {
    return this.#s['newestUrls']!.all({ first: firstBuild, limit }) as FeedRow[];
  }

  async inputLastmods(
    buildMs: number,
    nearMs: number,
  ): Promise<{ count: number; first: string | null; same: boolean; near: boolean }> {
    return this.#lastmods.judge(buildMs, nearMs);
  }

  async tombstones(after: number, limit: number): Promise<UrlRow[]> {
    return this.#s['tombstones']!.all(after, limit) as UrlRow[];
  }

  async pending(since: number, after: { gen: number; id: number }, limit: number): Promise<PendingRow[]> {
    // A generation at a time over the (changed, id) index: every page is a range of it.
    const max = (this.#s['maxChanged']!.get() as { m: number | null }).m ?? 0;
    let gen = after.gen <= since ? since + 1 : after.gen;
    let id = after.gen <= since ? 0 : after.id;
    const out: PendingRow[] = [];
    while (gen <= max && out.length < limit) {
      const want = limit - out.length;
      const rows = this.#s['pending']!.all({ since, gen, after: id, limit: want }) as PendingRow[];
      out.push(...rows);
      if (rows.length === want) break;
      gen++;
      id = 0;
    }
    return out;
  }

  /**
   * A bulk load into an empty store: the indexes go while rows are inserted and are built once
   * after, by sorting (several times faster than keeping them up to date row by row).
   */
  async bulk<T>(fn: () => Promise<T>): Promise<T> {
    this.#db.exec(
      'DROP INDEX urls_key; DROP INDEX urls_file; DROP INDEX urls_changed; DROP INDEX urls_lastmods',
    );
    const out = await fn();
    this.#db.exec(INDEXES);
    return out;
  }

  async countPending(since: number): Promise<Record<PendingRow['change'], number>> {
    const out = { added: 0, changed: 0, removed: 0 };
    for (const r of this.#s['countPending']!.all({ since }) as Array<{
      change: PendingRow['change'];
      n: number;
    }>)
      out[r.change] = r.n;
    return out;
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

  reads(): StoreReads {
    return sqliteReadsOf(this.#db);
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}
