/**
 * The crawl state's file: created, locked (exclusive: a second crawl on it is refused), emptied by
 * `--fresh`, and checked to be a state of a format this release reads. The queries live in
 * state.ts.
 */
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SitemapkitError } from '../core/errors.js';
import { ensureDir } from '../writer/atomic.js';

type Db = BetterSqlite3.Database;

export const FORMAT = 'sitemapkit-crawl-state';
export const VERSION = '4';

/**
 * What each earlier version lacks, in order: a state written by an earlier release is migrated
 * when it is opened (in one transaction, under the file's lock), never refused. Version 2 (issue
 * 12, recrawls) keeps each URL's validators, its main-text fingerprint and what a recrawl observed;
 * version 3 (issue 14, the report's columns) its canonical link and meta description length;
 * version 4 (issue 14, rendering) what rendering changed on the page.
 */
const MIGRATIONS: ReadonlyArray<{ from: string; sql: string }> = [
  {
    from: '1',
    sql: `
ALTER TABLE urls ADD COLUMN etag TEXT;
ALTER TABLE urls ADD COLUMN last_modified TEXT;
ALTER TABLE urls ADD COLUMN fingerprint TEXT;
ALTER TABLE urls ADD COLUMN changed_at TEXT;
ALTER TABLE urls ADD COLUMN prev_verdict TEXT;
ALTER TABLE urls ADD COLUMN change TEXT;
ALTER TABLE urls ADD COLUMN change_at TEXT;
`,
  },
  {
    from: '2',
    sql: `
ALTER TABLE urls ADD COLUMN canonical TEXT;
ALTER TABLE urls ADD COLUMN description_length INTEGER;
`,
  },
  { from: '3', sql: 'ALTER TABLE urls ADD COLUMN rendered TEXT;' },
];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS urls (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  depth INTEGER NOT NULL,
  state INTEGER NOT NULL DEFAULT 0,
  via INTEGER,
  source TEXT NOT NULL,
  status INTEGER,
  verdict TEXT,
  reason TEXT,
  target TEXT,
  content_type TEXT,
  title TEXT,
  lastmod TEXT,
  extra TEXT,
  bytes INTEGER,
  ms INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  etag TEXT,
  last_modified TEXT,
  fingerprint TEXT,
  changed_at TEXT,
  prev_verdict TEXT,
  change TEXT,
  change_at TEXT,
  canonical TEXT,
  description_length INTEGER,
  rendered TEXT
);
CREATE INDEX IF NOT EXISTS urls_queue ON urls (depth, id) WHERE state = 0;
CREATE TABLE IF NOT EXISTS links (target INTEGER NOT NULL, source INTEGER NOT NULL, PRIMARY KEY (target, source)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS link_log (target INTEGER NOT NULL, source INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS patterns (key TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
`;

/** How {@link CrawlState.open} treats an existing file. */
export type StateMode = 'new' | 'resume' | 'fresh';

/** Throws `ERR_STATE` when `mode` does not fit what is on disk (before any network work). */
export function checkState(path: string, mode: StateMode): void {
  const exists = existsSync(path);
  if (mode === 'resume' && !exists) {
    throw new SitemapkitError('ERR_STATE', 'there is no crawl state to resume', {
      where: path,
      hint: 'run the crawl without --resume to start it (or pass --state FILE to name another state file)',
    });
  }
  if (mode === 'new' && exists) {
    throw new SitemapkitError('ERR_STATE', 'the state of an unfinished crawl is here', {
      where: path,
      hint: 'pass --resume to continue that crawl, or --fresh to delete it and start over (the state of a finished crawl is started over without asking)',
    });
  }
}

/** What an existing state file says about its crawl: `status` is `complete` once it finished. */
export interface StateOnDisk {
  status: string | undefined;
  /** Its crawl fingerprints pages (a recrawl, or a first crawl made with `recrawl`). */
  fingerprints: boolean;
}

async function loadSqlite(): Promise<typeof BetterSqlite3> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (cause) {
    throw new SitemapkitError('ERR_STATE', 'the SQLite binding (better-sqlite3) cannot be loaded', {
      cause,
      hint: 'reinstall with `npm ci` (better-sqlite3 builds from source when no prebuilt binary is available; it needs python3, make and a C++ compiler)',
    });
  }
}

/**
 * Reads the status of the state at `path` without keeping it open: undefined when there is no
 * file, `status: undefined` for a file that is not a readable state (or a crawl that never ran).
 * Throws `ERR_STATE` when another crawl holds it.
 */
export async function readStateOnDisk(path: string): Promise<StateOnDisk | undefined> {
  if (!existsSync(path)) return undefined;
  const Database = await loadSqlite();
  let db: Db | undefined;
  try {
    db = new Database(path, { fileMustExist: true, timeout: 200 });
    const meta = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
    if (meta === undefined) return { status: undefined, fingerprints: false };
    const get = (key: string): string | undefined =>
      (db!.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
    if (get('format') !== FORMAT) return { status: undefined, fingerprints: false };
    return { status: get('status'), fingerprints: get('fingerprints') === 'yes' };
  } catch (cause) {
    if ((cause as { code?: string }).code?.startsWith('SQLITE_BUSY') === true) {
      throw new SitemapkitError('ERR_STATE', 'the crawl state is in use by another crawl', {
        cause,
        where: path,
        hint: 'wait for the other crawl to end, or pass --state FILE',
      });
    }
    return { status: undefined, fingerprints: false };
  } finally {
    db?.close();
  }
}

/**
 * Opens (or creates) the state file. `new` refuses an existing state, `resume` requires one,
 * `fresh` deletes it first. Throws `ERR_STATE` with what to do.
 */
export async function openStateDb(path: string, mode: StateMode): Promise<Db> {
  checkState(path, mode);
  const Database = await loadSqlite();
  // Bounded: Node's recursive mkdir loops forever under /proc.
  await ensureDir(dirname(path), 'create the folder of the crawl state');
  const lock = (): Db => {
    const db = new Database(path, { timeout: 200 });
    try {
      // Exclusive before WAL: no shared-memory index, and the lock is held until close.
      db.pragma('locking_mode = EXCLUSIVE');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      db.pragma('cache_size = -16000');
      // A checkpoint copies every page the WAL holds into the file and syncs both: at the default
      // (1,000 pages) a large crawl checkpoints every few dozen commits and writes its hot index
      // pages again each time. 16,384 pages (64 MiB of WAL at most) write them once per interval.
      db.pragma('wal_autocheckpoint = 16384');
      // Each page is a savepoint inside the batch: its rollback journal is scratch, never needed
      // after a crash (the WAL is what lasts), so it stays in memory (a fifth of the state writes' time).
      db.pragma('temp_store = MEMORY');
      db.exec('BEGIN EXCLUSIVE; COMMIT');
      return db;
    } catch (cause) {
      db.close();
      throw cause;
    }
  };
  const refuse = (cause: unknown): SitemapkitError => {
    const busy = (cause as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;
    return new SitemapkitError(
      'ERR_STATE',
      busy
        ? 'the crawl state is in use by another crawl'
        : `cannot open the crawl state: ${(cause as Error).message}`,
      {
        cause,
        where: path,
        hint: busy ? 'wait for the other crawl to end, or pass --state FILE' : 'pass --fresh to start over',
      },
    );
  };
  let db: Db;
  try {
    db = lock();
  } catch (cause) {
    const busy = (cause as { code?: string }).code?.startsWith('SQLITE_BUSY') === true;
    // --fresh may replace a file that is not a database, but never one another crawl holds.
    if (mode !== 'fresh' || busy) throw refuse(cause);
    for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
    try {
      db = lock();
    } catch (again) {
      throw refuse(again);
    }
  }
  if (mode === 'fresh') {
    // Emptied under our own lock (not unlinked first: that could pull the file from under a
    // crawl that holds it).
    try {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
        name: string;
      }>;
      for (const t of tables) db.exec(`DROP TABLE IF EXISTS "${t.name.replace(/"/g, '""')}"`);
    } catch (cause) {
      db.close();
      throw refuse(cause);
    }
  }
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
    if (tables !== undefined) {
      const format = db.prepare('SELECT value FROM meta WHERE key = ?').get('format') as
        | { value: string }
        | undefined;
      const version = db.prepare('SELECT value FROM meta WHERE key = ?').get('version') as
        | { value: string }
        | undefined;
      let current = version?.value;
      if (format?.value === FORMAT && current !== undefined && migrate(db, current)) current = VERSION;
      if (format?.value !== FORMAT || current !== VERSION) {
        throw new SitemapkitError(
          'ERR_STATE',
          'this file is not a sitemapkit crawl state of a version this release reads',
          {
            where: path,
            hint: 'pass --fresh to start over, or --state FILE for another file',
          },
        );
      }
    }
    db.exec(SCHEMA);
  } catch (cause) {
    db.close();
    if (cause instanceof SitemapkitError) throw cause;
    throw new SitemapkitError('ERR_STATE', `cannot read the crawl state: ${(cause as Error).message}`, {
      cause,
      where: path,
      hint: 'pass --fresh to start over',
    });
  }
  return db;
}

/** Brings a state of an earlier version up to {@link VERSION} in one transaction; false when `from` is not one. */
function migrate(db: Db, from: string): boolean {
  const start = MIGRATIONS.findIndex((m) => m.from === from);
  if (start < 0) return false;
  db.transaction(() => {
    for (const m of MIGRATIONS.slice(start)) db.exec(m.sql);
    db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(VERSION, 'version');
  })();
  return true;
}

/** The steps of {@link shareDb} and {@link endSharing} a fault-injection test stops at. */
export type ShareStep = 'journal' | 'normal' | 'committed' | 'shared' | 'unsharing';

/**
 * Lets other connections of this process read the state while this one keeps it from every other
 * crawl (the crawl's report is written by a second thread beside the sitemaps). The crawl's lock
 * is exclusive and its WAL has no shared-memory index, so no second connection can open it: the
 * WAL is checkpointed into the file and left (rollback journal), and the exclusive lock is turned
 * into a shared one, held by a read transaction this connection keeps open until
 * {@link endSharing}. Another crawl opening the state then fails as it does today ("in use by
 * another crawl"): its exclusive lock needs every shared one gone.
 *
 * The lock is never let go on the way. Releasing it and taking a shared one in the next statement
 * left a window in which another crawl took the state (and this one failed "in use"). A write
 * transaction's commit in normal locking turns the exclusive lock into a shared one in one step
 * (one `fcntl` call makes the write lock a read lock), and a statement still reading at that commit
 * keeps the read transaction open, so the shared lock stays; an explicit transaction then holds it
 * once that statement is done. `onStep` is called between the steps (fault-injection tests).
 */
export function shareDb(db: Db, onStep?: (step: ShareStep) => void): void {
  db.pragma('journal_mode = DELETE');
  onStep?.('journal');
  // Normal locking lets go of the exclusive lock at the end of the next transaction…
  db.pragma('locking_mode = NORMAL');
  onStep?.('normal');
  // …down to a shared lock, not to none, as a statement reads across the commit.
  db.exec('BEGIN IMMEDIATE');
  // One row whatever the table holds: the statement stays under way until it is returned.
  const reading = db.prepare('SELECT COUNT(*) FROM meta').iterate();
  reading.next();
  // better-sqlite3 refuses a write statement while a read is under way, which is the point here.
  db.unsafeMode(true);
  try {
    db.exec('COMMIT');
    onStep?.('committed');
    db.exec('BEGIN');
  } finally {
    db.unsafeMode(false);
    reading.return?.();
  }
  onStep?.('shared');
}

/**
 * Ends {@link shareDb}'s read transaction (with what was written since, `published`) holding the
 * exclusive lock again: in exclusive mode the commit keeps the lock it takes, so no other crawl
 * gets in before the state is closed. The readers must be closed first (the commit waits for
 * their shared locks, up to the busy timeout). The file stays in rollback mode until it is
 * opened again (openStateDb turns WAL on).
 */
export function endSharing(db: Db, onStep?: (step: ShareStep) => void): void {
  db.pragma('locking_mode = EXCLUSIVE');
  onStep?.('unsharing');
  db.exec('COMMIT');
}

/** The page cache of {@link openStateReader}'s connection, in KiB. */
const READER_CACHE_KIB = 2000;

/**
 * A second connection to a state {@link shareDb} shares, read-only, for another thread of this
 * process (the report's). Throws `ERR_STATE` as {@link openStateDb} words it.
 */
export async function openStateReader(path: string): Promise<Db> {
  const Database = await loadSqlite();
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 200 });
    // The report reads every URL once, in order, and each one's links (one range of an index, in
    // the same order): the file's pages are read once each, and a page cache of the crawl's size
    // (16 MB, better-sqlite3's default) would only add its 16 MiB to the process's peak RSS.
    db.pragma(`cache_size = -${READER_CACHE_KIB}`);
    return db;
  } catch (cause) {
    throw new SitemapkitError('ERR_STATE', `cannot read the crawl state: ${(cause as Error).message}`, {
      cause,
      where: path,
      hint: 'the crawl state was moved or locked while its report was written; run the crawl again with --resume',
    });
  }
}
