/**
 * New URL rows into the SQLite store, many rows a statement (the store's bulk path: every URL of a
 * first import passes here).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { hashKey } from '../core/hash.js';
import type { NewUrlRow } from './backend.js';

type Statement = BetterSqlite3.Statement;

const INSERT =
  'INSERT INTO urls (key, loc, section, file, hash, input_lastmod, len, news, entry, fragment, changed_at, removed_at, first_seen, born, changed)';
const INSERT_ROW = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)';
// 64 rows of 15 values: 960 parameters, well under SQLite's limit of 32,766.
const INSERT_ROWS = 64;
// An import's own time: nothing else is ever written into a statement's text.
const UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,3})?Z$/;

function pushRow(values: unknown[], r: NewUrlRow, all: boolean): void {
  values.push(
    hashKey(r.loc),
    r.loc,
    r.section,
    r.file,
    r.hash,
    r.inputLastmod,
    r.len,
    r.news,
    r.entry,
    r.fragment,
  );
  if (all) values.push(r.changedAt, r.removedAt, r.firstSeen, r.born, r.changed);
}

/** Whether a row is a new URL of an import (never changed, live, first seen now, born now). */
function shared(r: NewUrlRow, firstSeen: string, gen: number): boolean {
  return (
    r.changedAt === null &&
    r.removedAt === null &&
    r.firstSeen === firstSeen &&
    r.born === gen &&
    r.changed === gen
  );
}

export class SqliteInserter {
  readonly #db: BetterSqlite3.Database;
  #one: Statement | undefined;
  #many: Statement | undefined;
  /** The statement for an import's new rows, with their shared values in its text. */
  #shared: { firstSeen: string; gen: number; st: Statement } | undefined;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  /**
   * The statement of INSERT_ROWS new rows of one import: its shared values (first seen, born,
   * changed, no change time, live) are written into the text once, so each row binds 10 values, not
   * 15 (binding is most of the cost of an insert from JavaScript: 0.35 s a million rows).
   */
  #sharedStatement(firstSeen: string, gen: number): Statement | undefined {
    if (!UTC.test(firstSeen) || !Number.isSafeInteger(gen)) return undefined;
    const s = this.#shared;
    if (s !== undefined && s.firstSeen === firstSeen && s.gen === gen) return s.st;
    const row = `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, '${firstSeen}', ${gen}, ${gen})`;
    const st = this.#db.prepare(`${INSERT} VALUES ${Array(INSERT_ROWS).fill(row).join(', ')}`);
    this.#shared = { firstSeen, gen, st };
    return st;
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
      const first = rows[0]!;
      const fast = this.#sharedStatement(first.firstSeen, first.born);
      for (; i + INSERT_ROWS <= rows.length; i += INSERT_ROWS) {
        let all = fast === undefined;
        for (let k = i; !all && k < i + INSERT_ROWS; k++)
          all = !shared(rows[k]!, first.firstSeen, first.born);
        for (let k = i; k < i + INSERT_ROWS; k++) pushRow(values, rows[k]!, all);
        if (all) {
          this.#many ??= this.#db.prepare(
            `${INSERT} VALUES ${Array(INSERT_ROWS).fill(INSERT_ROW).join(', ')}`,
          );
          flush(this.#many, INSERT_ROWS);
        } else flush(fast!, INSERT_ROWS);
      }
    }
    this.#one ??= this.#db.prepare(`${INSERT} VALUES ${INSERT_ROW}`);
    const st = this.#one;
    for (; i < rows.length; i++) {
      pushRow(values, rows[i]!, true);
      flush(st, 1);
    }
    return ids;
  }
}
