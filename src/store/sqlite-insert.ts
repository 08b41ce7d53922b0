/**
 * New URL rows into the SQLite store, many rows a statement (the store's bulk path: every URL of a
 * first import passes here).
 */
import type BetterSqlite3 from 'better-sqlite3';
import { hashKey } from '../core/hash.js';
import type { NewUrlRow } from './backend.js';

type Statement = BetterSqlite3.Statement;

// Binding is most of the cost of an insert from JavaScript, so what the rows of a statement share
// is written into its text once: an import's new rows share their first-seen time, generations and
// empty change and removal times (10 values a row, not 15), and a plain entry (no section, news
// block, entry JSON or fragment, most of a large site) binds 6.
const INSERT =
  'INSERT INTO urls (key, loc, file, hash, input_lastmod, len, section, news, entry, fragment, changed_at, removed_at, first_seen, born, changed)';
// 64 rows of at most 15 values: 960 parameters, well under SQLite's limit of 32,766.
const INSERT_ROWS = 64;
// An import's own time: nothing else is ever written into a statement's text.
const UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,3})?Z$/;

/** How much of a row a statement binds: all of it, all but the import's shared values, or a plain entry's. */
type Shape = 'all' | 'shared' | 'plain';

function pushRow(values: unknown[], r: NewUrlRow, shape: Shape): void {
  values.push(hashKey(r.loc), r.loc, r.file, r.hash, r.inputLastmod, r.len);
  if (shape === 'plain') return;
  values.push(r.section, r.news, r.entry, r.fragment);
  if (shape === 'all') values.push(r.changedAt, r.removedAt, r.firstSeen, r.born, r.changed);
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

function plain(r: NewUrlRow): boolean {
  return r.section === '' && r.news === 0 && r.entry === null && r.fragment === null;
}

export class SqliteInserter {
  readonly #db: BetterSqlite3.Database;
  #one: Statement | undefined;
  #all: Statement | undefined;
  /** The statements for an import's new rows, with their shared values in the text. */
  #shared: { firstSeen: string; gen: number; shared: Statement; plain: Statement } | undefined;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
  }

  #many(row: string): Statement {
    return this.#db.prepare(`${INSERT} VALUES ${Array(INSERT_ROWS).fill(row).join(', ')}`);
  }

  #sharedStatements(firstSeen: string, gen: number): { shared: Statement; plain: Statement } | undefined {
    if (!UTC.test(firstSeen) || !Number.isSafeInteger(gen)) return undefined;
    const s = this.#shared;
    if (s !== undefined && s.firstSeen === firstSeen && s.gen === gen) return s;
    const tail = `NULL, NULL, '${firstSeen}', ${gen}, ${gen})`;
    this.#shared = {
      firstSeen,
      gen,
      shared: this.#many(`(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${tail}`),
      plain: this.#many(`(?, ?, ?, ?, ?, ?, '', 0, NULL, NULL, ${tail}`),
    };
    return this.#shared;
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
      const fast = this.#sharedStatements(first.firstSeen, first.born);
      for (; i + INSERT_ROWS <= rows.length; i += INSERT_ROWS) {
        let shape: Shape = fast === undefined ? 'all' : 'plain';
        for (let k = i; shape !== 'all' && k < i + INSERT_ROWS; k++) {
          const r = rows[k]!;
          if (!shared(r, first.firstSeen, first.born)) shape = 'all';
          else if (shape === 'plain' && !plain(r)) shape = 'shared';
        }
        for (let k = i; k < i + INSERT_ROWS; k++) pushRow(values, rows[k]!, shape);
        if (shape === 'all') {
          this.#all ??= this.#many('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
          flush(this.#all, INSERT_ROWS);
        } else flush(fast![shape], INSERT_ROWS);
      }
    }
    this.#one ??= this.#db.prepare(`${INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const st = this.#one;
    for (; i < rows.length; i++) {
      pushRow(values, rows[i]!, 'all');
      flush(st, 1);
    }
    return ids;
  }
}
