/**
 * The PostgreSQL side of a shared crawl (issue 17): the connection pool of one worker (settings
 * from the URL and the standard `PG*` variables, sized to the worker's concurrency), the crawl's
 * schema (one per crawl id, created and migrated on first use), failures in one sentence naming
 * host:port/database and what to check, and the retry of a statement or transaction that a lost
 * connection, a restarting server or a deadlock broke (the caller's work is all in memory until its
 * transaction commits, so running it again is safe).
 */
import type { Pool, PoolClient, PoolConfig } from 'pg';
import type { Diagnostic } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { redactDatabaseUrl } from '../sources/sql-db.js';
import { connectError, libpqUrl } from '../sources/sql-postgres.js';

/** The format of a crawl's schema, and its version (migrations below, as the SQLite state has). */
export const PG_FORMAT = 'sitemapkit-crawl-postgres';
export const PG_VERSION = '4';

/** A crawl id: letters, digits, `_` and `-`, as a schema name reads it in psql and in messages. */
const CRAWL_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,55}$/;

/** Whether a crawl's `state` names a PostgreSQL database rather than a file. */
export function isPostgresState(state: string | undefined): state is string {
  return state !== undefined && /^postgres(?:ql)?:\/\//i.test(state);
}

/** The schema of a crawl id (quoted wherever it is used). */
export function crawlSchema(crawlId: string): string {
  return `crawl_${crawlId}`;
}

/** Checks a crawl id; throws `ERR_OPTIONS` naming the option. */
export function checkCrawlId(id: unknown, name = 'crawlId'): string {
  if (typeof id !== 'string' || !CRAWL_ID.test(id)) {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `${name} must be a letter or digit then letters, digits, "_" or "-" (at most 56), got ${JSON.stringify(id)}`,
      { hint: 'every worker of one crawl passes the same id, such as crawlId: "shop-2026-11"' },
    );
  }
  return id;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Where a crawl lives: the database and the schema, and how messages name them (no password). */
export interface PgTarget {
  url: string;
  crawlId: string;
  schema: string;
  /** `postgres://user@host:port/db`, without the password, with the crawl's schema. */
  shown: string;
}

export function pgTarget(url: string, crawlId: string): PgTarget {
  if (!URL.canParse(url)) {
    throw new SitemapkitError('ERR_OPTIONS', `the state URL "${redactDatabaseUrl(url)}" cannot be read`, {
      hint: 'give postgres://USER:PASSWORD@HOST:PORT/DATABASE; percent-encode special characters in the password (@ as %40)',
    });
  }
  const id = checkCrawlId(crawlId);
  const schema = crawlSchema(id);
  return { url, crawlId: id, schema, shown: `${redactDatabaseUrl(url)} (schema ${schema})` };
}

async function loadPg(): Promise<typeof import('pg').default> {
  try {
    return (await import('pg')).default;
  } catch (cause) {
    throw new SitemapkitError('ERR_STATE', 'the PostgreSQL client (pg) cannot be loaded', {
      cause,
      hint: 'reinstall sitemapkit with its dependencies (npm ci)',
    });
  }
}

/** SQLSTATE classes and socket errors that a retry may cure: the server restarts, the link drops, a deadlock. */
export function transient(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  const message = String((e as Error)?.message ?? '');
  if (typeof code === 'string') {
    if (code === '40P01' || code === '40001') return true;
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03') return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN'].includes(code))
      return true;
  }
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i.test(
    message,
  );
}

/** A failure of a statement, or a connection lost for longer than the retries, in one sentence. */
export function pgFailure(cause: unknown, shown: string, doing: string): SitemapkitError {
  if (cause instanceof SitemapkitError) return cause;
  const e = cause as { code?: string; message?: string };
  const message = e.message ?? String(cause);
  if (e.code === '42501') {
    return new SitemapkitError('ERR_STATE', `the database user may not ${doing}: ${message}`, {
      where: shown,
      cause,
      hint: 'grant the user CREATE on the database (GRANT CREATE ON DATABASE db TO user), or let an administrator create the schema once',
    });
  }
  // The schema gone under a running worker: `crawl-status --drop --force` dropped the crawl.
  if (e.code === '42P01' || e.code === '3F000') {
    return new SitemapkitError(
      'ERR_STATE',
      `the crawl was dropped while this worker ran, so it cannot ${doing}`,
      {
        where: shown,
        cause,
        hint: 'nothing more of it is recorded; start it again with sitemapkit crawl URL --state … --crawl-id … to crawl anew',
      },
    );
  }
  if (transient(cause)) {
    return new SitemapkitError(
      'ERR_STATE',
      `lost the connection to the crawl's database while trying to ${doing}: ${message}`,
      {
        where: shown,
        cause,
        hint: 'check that the server runs and is reachable; what this worker finished is committed, the rest returns to the queue when its leases expire: start the worker again',
      },
    );
  }
  return new SitemapkitError(
    'ERR_STATE',
    `the crawl's database failed to ${doing}: ${message}${e.code === undefined ? '' : ` (SQLSTATE ${e.code})`}`,
    { where: shown, cause, hint: 'check the server log, then start the worker again' },
  );
}

/** The pooled clients given an 'error' listener (once each). */
const LISTENED = new WeakSet<PoolClient>();

/** The pool of one worker, with the retrying helpers every query of the shared crawl goes through. */
export class PgDb {
  readonly target: PgTarget;
  readonly pool: Pool;
  /** How long a lost connection is retried before the worker gives up. */
  readonly retryMs: number;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(target: PgTarget, pool: Pool, retryMs: number, sleep: (ms: number) => Promise<void>) {
    this.target = target;
    this.pool = pool;
    this.retryMs = retryMs;
    this.#sleep = sleep;
  }

  /** Runs `fn` with a client in the crawl's schema, again after a transient failure (until `retryMs`). */
  async with<T>(doing: string, fn: (c: PoolClient) => Promise<T>): Promise<T> {
    const until = Date.now() + this.retryMs;
    for (let attempt = 0; ; attempt++) {
      let client: PoolClient | undefined;
      try {
        client = await this.pool.connect();
        if (!LISTENED.has(client)) {
          LISTENED.add(client);
          // A connection lost while checked out is reported by the query it breaks; unheard,
          // the client's own 'error' event would end the process.
          client.on('error', () => undefined);
        }
        return await fn(client);
      } catch (e) {
        if (client !== undefined) {
          // A client whose connection failed is destroyed, never reused.
          client.release(transient(e) ? (e as Error) : undefined);
          client = undefined;
        }
        if (!transient(e) || Date.now() > until) throw pgFailure(e, this.target.shown, doing);
        await this.#sleep(Math.min(2000, 50 * 2 ** Math.min(attempt, 6)));
      } finally {
        client?.release();
      }
    }
  }

  /** Runs `fn` in one transaction (rolled back on failure, and run again after a transient one). */
  transaction<T>(doing: string, fn: (c: PoolClient) => Promise<T>): Promise<T> {
    return this.with(doing, async (c) => {
      await c.query('BEGIN');
      try {
        const r = await fn(c);
        await c.query('COMMIT');
        return r;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    });
  }

  /** One statement. */
  async query<R extends Record<string, unknown>>(
    doing: string,
    sql: string,
    params: unknown[] = [],
  ): Promise<R[]> {
    return this.with(doing, async (c) => (await c.query(sql, params)).rows as R[]);
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/** How a first connection waits for a server that is not up yet: for how long, and whom it tells. */
export interface FirstConnect {
  /** ms; the same budget as a lost connection's retries (`retrySeconds`). */
  waitMs: number;
  /** Told once, at the first failed try, that the worker waits (`crawl-database-waiting`). */
  onWait: ((d: Diagnostic) => void) | undefined;
  sleep: (ms: number) => Promise<void>;
}

/** A failed try's cause in a few words, for the waiting line. */
function why(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  if (code === 'ECONNREFUSED') return 'the connection was refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name is not known';
  if (code === '57P03') return 'the server is starting up or shutting down';
  return String((e as Error)?.message ?? e);
}

/**
 * Runs `connect` until it succeeds, again after a failure a retry may cure (the server not up yet,
 * restarting, a name not resolved yet: a worker started beside its database, as in a compose
 * file) for `wait.waitMs`, saying once that it waits; a refused login, a missing database or a
 * missing right fails at the first try. The last failure is thrown as it came.
 */
export async function connectPatiently<T>(
  connect: () => Promise<T>,
  shown: string,
  wait: FirstConnect,
): Promise<T> {
  const until = Date.now() + wait.waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      return await connect();
    } catch (e) {
      if (!transient(e) || Date.now() >= until) throw e;
      if (attempt === 0) {
        wait.onWait?.({
          code: 'crawl-database-waiting',
          severity: 'info',
          message: `${shown}: the database cannot be reached yet (${why(e)}): waiting up to ${Math.ceil(wait.waitMs / 1000)} s for it`,
        });
      }
      await wait.sleep(Math.min(1000, 50 * 2 ** Math.min(attempt, 5)));
    }
  }
}

/**
 * Opens a pool of `size` connections on the crawl's database, every session in the crawl's schema.
 * The first connection is made here: an unreachable server fails at once, or, with `firstConnect`,
 * once it was not up for that long; a refused login fails at once.
 */
export async function openPgDb(
  target: PgTarget,
  o: {
    size: number;
    retryMs: number;
    sleep: (ms: number) => Promise<void>;
    name: string;
    firstConnect?: FirstConnect;
  },
): Promise<PgDb> {
  const pg = await loadPg();
  const config: PoolConfig = {
    connectionString: libpqUrl(target.url),
    application_name: o.name,
    max: o.size,
    connectionTimeoutMillis: 30_000,
    idleTimeoutMillis: 30_000,
    // Every commit durable before it is acknowledged, whatever the server's default: a page recorded
    // finished must never be fetched again, even after the server crashes.
    options: `-c search_path=${quoteIdent(target.schema)} -c synchronous_commit=on`,
    // Counts and ids as numbers (they stay far below 2^53).
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? Number : pg.types.getTypeParser(oid, format ?? 'text')) as never,
    },
  };
  const pool = new pg.Pool(config);
  // A dropped idle connection is reported by the next query; without a listener it would end the process.
  pool.on('error', () => undefined);
  let c: PoolClient;
  try {
    c =
      o.firstConnect === undefined
        ? await pool.connect()
        : await connectPatiently(() => pool.connect(), target.shown, o.firstConnect);
  } catch (cause) {
    await pool.end().catch(() => undefined);
    const e = connectError(cause, target.shown, '--state');
    throw new SitemapkitError('ERR_STATE', e.message, { where: target.shown, hint: e.hint ?? '', cause });
  }
  c.release();
  return new PgDb(target, pool, o.retryMs, o.sleep);
}
