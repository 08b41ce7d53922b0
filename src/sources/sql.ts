/**
 * `--from-sql QUERY --db URL`: the rows of one SELECT as writer records, from PostgreSQL (a
 * server-side cursor in a READ ONLY transaction) or from a SQLite file (opened read-only). The
 * result's columns are named like the CSV input's (`loc` or `url`, `lastmod`, `changefreq`,
 * `priority`, `title`, `section`, `images`, `mobile`, `hreflang:CODE`) and mapped by the CSV
 * reader's own column rules; the drivers are loaded only when a query runs.
 */
import { wholeNumber } from '../core/checks.js';
import { SitemapkitError } from '../core/errors.js';
import { type BatchedSource, batchedSource } from '../writer/batches.js';
import { CSV_FIELDS, type CsvOptions, headerFields, resolveColumns, rowToRecord } from './csv.js';
import type { SourceRecord } from './record.js';
import { resolveDatabase, type SqlDatabase } from './sql-db.js';
import type { SqlBatch } from './sql-rows.js';

export { redactDatabaseUrl } from './sql-db.js';

/** How `readSql` reads. */
export interface SqlOptions {
  /** Column names for fields, as for CSV: `{ loc: 'path' }` (letter case aside). Aliases in the query (`AS loc`) do the same. */
  columns?: CsvOptions['columns'];
  /** Columns to leave out, by name (letter case aside). */
  ignoreColumns?: CsvOptions['ignoreColumns'];
  /** A column that is no field: `fail` names it and reads nothing; `ignore` leaves it out. @default 'fail' */
  extraColumns?: CsvOptions['extraColumns'];
  /** Rows fetched from the server at a time (memory holds about two batches). @default 500 */
  batchRows?: number | undefined;
  /** Ends a running query (the PostgreSQL connection is closed) with `ERR_ABORTED`. */
  signal?: AbortSignal | undefined;
}

interface ResolvedSqlOptions {
  db: SqlDatabase;
  query: string;
  mapped: Map<string, string>;
  columns: CsvOptions;
  batchRows: number;
  signal: AbortSignal | undefined;
}

/** Checks the query, the database and the options once, before any connection. */
export function resolveSqlOptions(query: string, db: string, options: SqlOptions = {}): ResolvedSqlOptions {
  if (typeof query !== 'string' || query.trim() === '') {
    throw new SitemapkitError('ERR_OPTIONS', 'the query is empty', {
      hint: 'Give one SELECT whose columns are named like the CSV input, such as SELECT url AS loc, updated_at AS lastmod FROM pages.',
    });
  }
  if (typeof db !== 'string' || db.trim() === '') {
    throw new SitemapkitError('ERR_OPTIONS', 'no database given for the query', {
      hint: 'Give postgres://USER:PASSWORD@HOST:PORT/DATABASE or sqlite:PATH.',
    });
  }
  const columns: CsvOptions = {
    ...(options.columns !== undefined && { columns: options.columns }),
    ...(options.ignoreColumns !== undefined && { ignoreColumns: options.ignoreColumns }),
    ...(options.extraColumns !== undefined && { extraColumns: options.extraColumns }),
  };
  return {
    db: resolveDatabase(db),
    query: query.trim().replace(/;\s*$/, ''),
    mapped: resolveColumns(columns),
    columns,
    batchRows: wholeNumber('batchRows', options.batchRows, 500, { min: 1, max: 100_000 }),
    signal: options.signal,
  };
}

/** SQLite's own date and time text (`datetime()`, `CURRENT_TIMESTAMP`): UTC, with a space for the T. */
const SQLITE_DATETIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

const QUERY_WORDS = {
  must: "the query's result must have",
  unknown: 'the query returns the unknown column',
  noLocHint: (first: string | undefined) => {
    // The first column is the likely URL, unless it is already another field.
    const col = first !== undefined && !CSV_FIELDS.includes(first.toLowerCase()) ? first : 'your_url_column';
    return `Name the URL column in the query, such as SELECT ${col} AS loc, … (or --columns loc=${col}). Columns: loc (or url), lastmod, changefreq, priority, title, section, images, mobile, hreflang:CODE.`;
  },
  unknownHint: (first: string) =>
    `Leave it out of the SELECT, rename it (AS lastmod…), leave it out with --ignore-columns "${first}", or leave out every unknown column with --extra-columns ignore. Columns: loc (or url), lastmod, changefreq, priority, title, section, images, mobile, hreflang:CODE.`,
};

/**
 * The rows of one SELECT as records. Each record's origin is `<sql DB>` and its row number (1 for
 * the first row), so the writer names the row and the column of a bad value. NULL is an absent
 * field. PostgreSQL `date`, `timestamp` (taken as UTC) and `timestamptz` become W3C Datetime
 * text, numerics a priority, `text[]` a list of images; SQLite's `YYYY-MM-DD HH:MM:SS` text in
 * `lastmod` is read as UTC. Connection, login and query failures are `ERR_INPUT` naming the
 * database without its password.
 */
export function readSql(query: string, db: string, options: SqlOptions = {}): BatchedSource<SourceRecord> {
  const o = resolveSqlOptions(query, db, options);
  return batchedSource(async function* () {
    const batches: AsyncGenerator<SqlBatch> =
      o.db.kind === 'postgres'
        ? (await import('./sql-postgres.js')).postgresRows(o.db.url, o.query, o.batchRows, o.signal)
        : (await import('./sql-sqlite.js')).sqliteRows(o.db.path, o.query, o.batchRows);
    let fields: Array<string | undefined> | undefined;
    let lastmodAt = -1;
    let row = 0;
    let where = '';
    for await (const batch of batches) {
      if (fields === undefined) {
        if (batch.columns.length === 0) {
          throw new SitemapkitError('ERR_INPUT', 'the query returns no columns', {
            where: batch.shown,
            hint: 'Give a SELECT with a loc (or url) column.',
          });
        }
        fields = headerFields(batch.columns, o.mapped, o.columns, batch.shown, QUERY_WORDS);
        where = `<sql ${batch.shown}>`;
        lastmodAt = o.db.kind === 'sqlite' ? fields.indexOf('lastmod') : -1;
      }
      const items: SourceRecord[] = new Array(batch.rows.length);
      const lines: number[] = new Array(batch.rows.length);
      for (let i = 0; i < batch.rows.length; i++) {
        const cells = batch.rows[i]!;
        if (lastmodAt >= 0) {
          const v = cells[lastmodAt];
          const m = typeof v === 'string' ? SQLITE_DATETIME.exec(v) : null;
          if (m !== null) cells[lastmodAt] = `${m[1]}T${m[2]}Z`;
        }
        items[i] = rowToRecord(fields, cells);
        lines[i] = ++row;
      }
      if (items.length > 0) yield { items, file: where, lines };
    }
  });
}
