/**
 * The rows of a query on a SQLite file, through better-sqlite3's `iterate()` (one row at a time
 * from the engine, handed over a batch at a time), on a connection opened read-only. The binding
 * is loaded only when a query runs.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { SitemapkitError } from '../core/errors.js';
import type { SqlBatch } from './sql-rows.js';

async function load(): Promise<typeof BetterSqlite3> {
  try {
    return (await import('better-sqlite3')).default;
  } catch (e) {
    throw new SitemapkitError('ERR_INPUT', 'the SQLite binding (better-sqlite3) cannot be loaded', {
      cause: e,
      hint: 'Reinstall with npm ci (better-sqlite3 builds from source when no prebuilt binary is available; it needs python3, make and a C++ compiler).',
    });
  }
}

function sqliteError(e: unknown, path: string, doing: string): SitemapkitError {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? String(e);
  if (err.code === 'SQLITE_NOTADB' || err.code === 'SQLITE_CORRUPT') {
    return new SitemapkitError('ERR_INPUT', `the file is not a readable SQLite database (${message})`, {
      where: path,
      cause: e,
      hint: 'Give the path of a SQLite database file.',
    });
  }
  if (err.code === 'SQLITE_BUSY' || err.code === 'SQLITE_LOCKED') {
    return new SitemapkitError('ERR_INPUT', `the database is locked by another program (${message})`, {
      where: path,
      cause: e,
      hint: 'Run again when the writer is done, or switch the database to WAL mode so that readers are not blocked.',
    });
  }
  return new SitemapkitError('ERR_INPUT', `${doing}: ${message}`, {
    where: path,
    cause: e,
    hint: 'Check the SQL given to --from-sql (sqlite3 FILE .tables lists the tables).',
  });
}

/** The rows of `query`, `batchRows` at a time; the first batch comes with the column names. */
export async function* sqliteRows(path: string, query: string, batchRows: number): AsyncGenerator<SqlBatch> {
  const Database = await load();
  let db: BetterSqlite3.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw sqliteError(e, path, 'cannot open the database');
  }
  try {
    let stmt: BetterSqlite3.Statement;
    let rows: IterableIterator<unknown>;
    let columns: string[];
    try {
      stmt = db.prepare(query);
      if (!stmt.reader) {
        throw new SitemapkitError('ERR_INPUT', 'the query returns no rows', {
          where: path,
          hint: '--from-sql reads the rows of one SELECT (the database is opened read-only).',
        });
      }
      stmt.raw(true);
      columns = stmt.columns().map((c) => c.name);
      rows = stmt.iterate();
    } catch (e) {
      if (e instanceof SitemapkitError) throw e;
      throw sqliteError(
        e,
        path,
        /more than one statement/.test(String(e))
          ? 'the query holds more than one statement'
          : 'the query fails',
      );
    }
    let batch: unknown[][] = [];
    let sent = false;
    try {
      for (const row of rows) {
        batch.push(row as unknown[]);
        if (batch.length >= batchRows) {
          // The iterator holds the statement open across the yield; better-sqlite3 allows other
          // statements meanwhile only on other connections, and this one is ours alone.
          yield { columns, rows: batch, shown: path };
          sent = true;
          batch = [];
        }
      }
    } catch (e) {
      if (e instanceof SitemapkitError) throw e;
      throw sqliteError(e, path, 'the query fails');
    }
    if (batch.length > 0 || !sent) yield { columns, rows: batch, shown: path };
  } finally {
    db.close();
  }
}
