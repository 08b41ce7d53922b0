/** What the database readers of `--from-sql` hand over: rows a batch at a time, with the column names. */
export interface SqlBatch {
  /** The result's column names, in order (the same array for every batch of a query). */
  columns: readonly string[];
  /** Each row's values in column order; NULL is `null`. */
  rows: unknown[][];
  /** The database as messages name it: for PostgreSQL the user, host, port and database in effect (PG* variables included), never the password. */
  shown: string;
}
