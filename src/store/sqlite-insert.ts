/**
 * New URL rows into the SQLite store, many rows a statement (the store's bulk path: every URL of a
 * first import passes here).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { hashKey } from '../core/hash.js';
import type { NewUrlRow } from './backend.js';

type Statement = BetterSqlite3.Statement;

const INSERT =
  'INSERT INTO urls (key, loc, section, file, hash, input_lastmod, changed_at, first_seen, len, news, entry, fragment, born, changed, removed_at)';
const INSERT_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
// 64 rows of 15 values: 960 parameters, well under SQLite's limit of 32,766.
const INSERT_ROWS = 64;

function pushRow(values: unknown[], r: NewUrlRow): void {
  values.push(
    hashKey(r.loc),
    r.loc,
    r.section,
    r.file,
    r.hash,
    r.inputLastmod,
    r.changedAt,
    r.firstSeen,
    r.len,
    r.news,
    r.entry,
    r.fragment,
    r.born,
    r.changed,
    r.removedAt,
  );
}

export class SqliteInserter {
  readonly #db: BetterSqlite3.Database;
  #one: Statement | undefined;
  #many: Statement | undefined;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  insert(rows: readonly NewUrlRow[]): number[] {
    // INSERT_ROWS rows a statement: far fewer calls into SQLite than one per row. A rowid table
    // without AUTOINCREMENT gives each new row the largest id in use plus one, so the rows of one
    // statement get consecutive ids ending at its last insert rowid (the store is locked for us).
    const ids: number[] = [];
    const values: unknown[] = [];
    const flush = (st: Statement, count: number): void => {
      const last = Number(st.run(values).lastInsertRowid);
      for (let k = count - 1; k >= 0; k--) ids.push(last - k);
      values.length = 0;
    };
    let i = 0;
    if (rows.length >= INSERT_ROWS) {
      this.#many ??= this.#db.prepare(`${INSERT} VALUES ${Array(INSERT_ROWS).fill(INSERT_ROW).join(', ')}`);
      for (; i + INSERT_ROWS <= rows.length; i += INSERT_ROWS) {
        for (let k = i; k < i + INSERT_ROWS; k++) pushRow(values, rows[k]!);
        flush(this.#many, INSERT_ROWS);
      }
    }
    this.#one ??= this.#db.prepare(`${INSERT} VALUES ${INSERT_ROW}`);
    const st = this.#one;
    for (; i < rows.length; i++) {
      pushRow(values, rows[i]!);
      flush(st, 1);
    }
    return ids;
  }
}
