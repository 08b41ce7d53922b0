// The site's pages, in a SQLite database (any database works: the handler asks for a count and
// for one page of rows at a time).
import Database from 'better-sqlite3';

export const DB_FILE = process.env.PAGES_DB ?? 'pages.db';

let db;

/** The database, opened read-only on first use (next build never opens it). */
export function pagesDb() {
  db ??= new Database(DB_FILE, { readonly: true, fileMustExist: true });
  return db;
}
