/**
 * The SQLite side of splicing (store/splice.ts): the layouts of the published children, and the
 * rows changed since the published build. Apart from sqlite.ts, which delegates to it.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { LayoutRow, LayoutStore, PendingEntry } from './backend.js';

// Added after the first release of the format: created on open when missing.
export const LAYOUTS = `
CREATE TABLE IF NOT EXISTS layouts (
  path TEXT PRIMARY KEY,
  file INTEGER NOT NULL,
  stamp TEXT NOT NULL,
  data BLOB
) WITHOUT ROWID;
`;

export class SqliteLayouts implements LayoutStore {
  readonly #dropFile: BetterSqlite3.Statement;
  readonly #dropOf: BetterSqlite3.Statement;
  readonly #pending: BetterSqlite3.Statement;
  readonly #get: BetterSqlite3.Statement;
  readonly #save: BetterSqlite3.Statement;
  readonly #keep: BetterSqlite3.Statement;

  constructor(db: BetterSqlite3.Database) {
    this.#dropFile = db.prepare('DELETE FROM layouts WHERE file = ?');
    this.#dropOf = db.prepare('DELETE FROM layouts WHERE file = (SELECT file FROM urls WHERE id = ?)');
    this.#pending = db.prepare(
      'SELECT id, file, fragment, loc, coalesce(input_lastmod, changed_at) AS lastmod, len, news, CASE WHEN news = 1 THEN entry END AS entry FROM urls WHERE changed > ? ORDER BY changed, id LIMIT ?',
    );
    this.#get = db.prepare('SELECT path, file, stamp, data FROM layouts WHERE path = ?');
    this.#save = db.prepare(
      'INSERT INTO layouts (path, file, stamp, data) VALUES (@path, @file, @stamp, @data) ON CONFLICT (path) DO UPDATE SET file = excluded.file, stamp = excluded.stamp, data = excluded.data',
    );
    this.#keep = db.prepare('DELETE FROM layouts WHERE path NOT IN (SELECT value FROM json_each(?))');
  }

  /** Before rows move into `file`: the layouts of that file and of the files they leave go. */
  moving(ids: readonly number[], file: number): void {
    if (ids.length > 0) this.#dropFile.run(file);
    for (const id of ids) this.#dropOf.run(id);
  }

  async pendingEntries(since: number, limit: number): Promise<PendingEntry[]> {
    return this.#pending.all(since, limit) as PendingEntry[];
  }

  async get(path: string): Promise<LayoutRow | undefined> {
    return this.#get.get(path) as LayoutRow | undefined;
  }

  async save(rows: readonly LayoutRow[], keep: readonly string[]): Promise<void> {
    this.#keep.run(JSON.stringify(keep));
    for (const r of rows) this.#save.run(r);
  }
}
