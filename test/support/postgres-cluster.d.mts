import type pg from 'pg';

/** A running throwaway cluster. */
export interface Postgres {
  /** `postgres://postgres:PASSWORD@127.0.0.1:PORT/sitemapkit`: the test database, password included. */
  url: string;
  host: string;
  port: number;
  /** The superuser (`postgres`), whose password is {@link password}. */
  user: string;
  password: string;
  /** The database created at start (`sitemapkit`). */
  database: string;
  /** The folder holding the cluster (`data/`), its log (`server.log`) and its Unix socket. */
  dir: string;
  /** The standard `PG*` variables naming this server and its test database (for `psql` and `pg`). */
  env: Record<string, string>;
  /** A program of the server's version (`psql`, `pg_dump`…), by name. */
  bin(name: string): string;
  /** The URL of another database on this server (create it first with {@link createDatabase}). */
  urlOf(database: string): string;
  /** Creates a database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL (several statements allowed when there are no parameters) in the test database. */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    sql: string,
    params?: unknown[],
  ): Promise<pg.QueryResult<R>>;
  /** Stops the server (fast shutdown) and deletes its folder; safe to call twice. */
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** The process whose death stops the cluster (the harness's own self-test kills a stand-in). @default process.pid */
  watchPid?: number;
}

/** The folder of Debian's PostgreSQL programs (highest major version), or of `initdb` on PATH. */
export function postgresBinDir(): string;

/** The server's settings as `pg_ctl -o` takes them (a stopped cluster started again needs them). */
export function serverSettings(port: number, dir: string): string;

/** `pg_ctl` on a running test cluster, as the server's own user, waiting for it to finish. */
export function pgCtl(server: Postgres, ...args: string[]): void;

/** Starts a fresh cluster with a `sitemapkit` database; the caller stops it. */
export function startPostgres(options?: PostgresOptions): Promise<Postgres>;
