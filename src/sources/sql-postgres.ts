/**
 * The rows of a query on PostgreSQL, through a server-side cursor (a named portal fetched a batch
 * at a time, `pg-cursor`) in a READ ONLY transaction, so memory stays flat for any row count and
 * the query cannot change the database. `pg` is loaded only when a query runs.
 */
import { connect } from 'node:net';
import type { Client, ClientConfig } from 'pg';
import { SitemapkitError } from '../core/errors.js';
import { redactDatabaseUrl } from './sql-db.js';
import type { SqlBatch } from './sql-rows.js';

/** What `pg-cursor` offers (it ships no types). */
interface Cursor {
  read(
    rows: number,
    cb: (err: Error | undefined, rows: unknown[][], result: { fields: Array<{ name: string }> }) => void,
  ): void;
  close(cb: (err?: Error) => void): void;
}
type CursorClass = new (text: string, values: null, config: { rowMode: 'array'; types: unknown }) => Cursor;

/** A `timestamp` (no zone) as PostgreSQL prints it: taken as UTC. */
const TIMESTAMP = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/;
/** A `timestamptz` as printed in the UTC session this reader sets. */
const TIMESTAMPTZ = /^(\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)([+-]\d{2})(:\d{2})?$/;

/**
 * Dates and times as W3C Datetime text, not JavaScript `Date`s: `pg` reads a `date` and a
 * `timestamp` in the local zone of the machine, which would shift them. A `timestamp` without a
 * zone is taken as UTC; `infinity` and BC dates stay as printed (the writer then names the row).
 */
const PARSERS: Readonly<Record<number, (text: string) => string>> = {
  1082: (text) => text,
  1114: (text) => {
    const m = TIMESTAMP.exec(text);
    return m === null ? text : `${m[1]}T${m[2]}Z`;
  },
  1184: (text) => {
    const m = TIMESTAMPTZ.exec(text);
    if (m === null) return text;
    const zone = m[3] === '+00' && (m[4] === undefined || m[4] === ':00') ? 'Z' : `${m[3]}${m[4] ?? ':00'}`;
    return `${m[1]}T${m[2]}${zone}`;
  },
};

async function load(): Promise<{
  Client: new (config: ClientConfig) => Client;
  Cursor: CursorClass;
  types: unknown;
}> {
  try {
    const pg = (await import('pg')).default;
    // A name in a variable: pg-cursor has no type declarations, and this one use needs none.
    const cursorModule = 'pg-cursor';
    const Cursor = ((await import(cursorModule)) as { default: CursorClass }).default;
    const types = {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        PARSERS[oid] ?? pg.types.getTypeParser(oid, format ?? 'text'),
    };
    return { Client: pg.Client, Cursor, types };
  } catch (e) {
    throw new SitemapkitError('ERR_INPUT', 'the PostgreSQL client (pg, pg-cursor) cannot be loaded', {
      cause: e,
      hint: 'Reinstall sitemapkit with its dependencies (npm ci).',
    });
  }
}

/** How this client names the database it talks to: user, host, port and database, never the password. */
export function shownOf(client: Client): string {
  const c = client as unknown as { user?: string; host?: string; port?: number; database?: string };
  const host = c.host ?? '';
  const at = host.startsWith('/')
    ? `localhost:${c.port}/${c.database ?? ''}?host=${host}`
    : `${host}:${c.port}/${c.database ?? ''}`;
  return `postgres://${c.user ? `${c.user}@` : ''}${at}`;
}

function codeOf(e: unknown): string | undefined {
  const err = e as { code?: unknown; errors?: Array<{ code?: unknown }> };
  const code = err?.code ?? err?.errors?.[0]?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A failure to connect or to log in, in one sentence naming the database; `flag` is the option that gave the URL. */
export function connectError(e: unknown, shown: string, flag = '--db'): SitemapkitError {
  const code = codeOf(e);
  const message = (e as Error)?.message ?? String(e);
  const fail = (what: string, hint: string) =>
    new SitemapkitError('ERR_INPUT', what, { where: shown, cause: e, hint });
  if (code === '28000') {
    return fail(
      `the server does not accept this connection (${message})`,
      `The server's pg_hba.conf has no rule for this user, database and address: ask its administrator, or add ?sslmode=require to ${flag} if it accepts only TLS.`,
    );
  }
  if (code === '28P01') {
    return fail(
      `the server refused the login (${message})`,
      `Give the right user and password in ${flag} postgres://USER:PASSWORD@HOST/DB, or in PGUSER and PGPASSWORD (or ~/.pgpass).`,
    );
  }
  if (/password must be a string|no password|password authentication/i.test(message)) {
    return fail(
      'the server asks for a password and none was given',
      `Give it in ${flag} postgres://USER:PASSWORD@HOST/DB, in PGPASSWORD, or in ~/.pgpass.`,
    );
  }
  // TLS (issue 17): a certificate file that sslrootcert, sslcert or sslkey names and cannot be
  // read is an open() failure, not a socket's; a server without TLS answers sslmode=require so.
  const syscall = (e as { syscall?: unknown })?.syscall;
  if (code === 'ENOENT' || code === 'EACCES') {
    if (syscall === 'open') {
      const path = String((e as { path?: unknown }).path ?? '');
      return fail(
        `cannot read ${path}, a certificate or key file of the connection (${code === 'ENOENT' ? 'no such file' : 'permission denied'})`,
        `Check the paths given to sslrootcert, sslcert and sslkey in ${flag}.`,
      );
    }
  }
  if (/does not support SSL/i.test(message)) {
    return fail(
      'cannot connect to the database: the server does not accept TLS connections',
      `Drop sslmode=require from ${flag} (and PGSSLMODE from the environment), or turn ssl on in the server's postgresql.conf.`,
    );
  }
  if (code === '3D000') {
    return fail(
      `there is no such database (${message})`,
      `Check the database name at the end of ${flag} (or PGDATABASE); psql -l lists the databases.`,
    );
  }
  if (
    code === 'ECONNREFUSED' ||
    code === 'ENOTFOUND' ||
    code === 'EHOSTUNREACH' ||
    code === 'ETIMEDOUT' ||
    code === 'EAI_AGAIN' ||
    code === 'ENOENT' ||
    /timeout/i.test(message)
  ) {
    const why =
      code === 'ECONNREFUSED'
        ? 'the connection was refused'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'the host name is not known'
          : code === 'ENOENT'
            ? 'there is no server socket there'
            : 'the server did not answer';
    return fail(
      `cannot connect to the database: ${why}`,
      `Check that the server runs and that the host and port in ${flag} (or PGHOST and PGPORT) are right.`,
    );
  }
  return fail(
    `cannot connect to the database: ${message}`,
    `Check ${flag} (or the PG* environment variables).`,
  );
}

/** A failure of the query (syntax, a missing table, a write refused), in one sentence naming the database. */
function queryError(e: unknown, shown: string, query: string): SitemapkitError {
  const err = e as { code?: string; message?: string; position?: string; hint?: string };
  const message = err.message ?? String(e);
  const at = err.position === undefined ? '' : near(query, Number(err.position));
  const fail = (what: string, hint: string) =>
    new SitemapkitError('ERR_INPUT', what, { where: shown, cause: e, hint });
  if (err.code === '25006') {
    return fail(
      `the query tries to change the database (${message})`,
      '--from-sql only reads: it runs the query in a READ ONLY transaction. Give a SELECT.',
    );
  }
  if (err.code === '42601' && /multiple commands/.test(message)) {
    return fail(
      'the query holds more than one statement',
      'Give one SELECT to --from-sql (no ; between statements).',
    );
  }
  if (err.code === '42P01' || err.code === '42703' || err.code === '42883' || err.code === '3F000') {
    return fail(
      `the query fails: ${message}${at}`,
      `Check the names in the query${err.hint ? ` (${err.hint})` : ''}; the schema search path is the server's default.`,
    );
  }
  if (err.code === '42601')
    return fail(`the query has a ${message}${at}`, 'Check the SQL given to --from-sql.');
  if (err.code === '42501') {
    return fail(
      `the query is not allowed: ${message}`,
      'Connect as a user that may read these tables (GRANT SELECT).',
    );
  }
  if (err.code === undefined || !/^[0-9A-Z]{5}$/.test(err.code)) {
    return fail(
      `the connection failed during the query: ${message}`,
      'Run the command again; check the server log if it keeps failing.',
    );
  }
  return fail(
    `the query fails: ${message}${at} (SQLSTATE ${err.code})`,
    'Check the SQL given to --from-sql.',
  );
}

/** ` (at "FROM pages…", character 12)`: where in the query the server stopped. */
function near(query: string, position: number): string {
  if (!Number.isInteger(position) || position < 1) return '';
  const text = query.slice(position - 1, position + 19).replace(/\s+/g, ' ');
  return ` at character ${position} ("${text}${query.length > position + 19 ? '…' : ''}")`;
}

/**
 * Sends PostgreSQL's CancelRequest for the client's running query, on a connection of its own (the
 * protocol's way; pg's own `cancel()` reads a deprecated property and prints a warning).
 */
function cancelQuery(client: Client): void {
  const c = client as unknown as {
    processID: number | null;
    secretKey: number | null;
    host: string;
    port: number;
  };
  if (c.processID === null || c.secretKey === null) return;
  const message = Buffer.alloc(16);
  message.writeInt32BE(16, 0);
  message.writeInt32BE(80877102, 4); // the cancel request code
  message.writeInt32BE(c.processID, 8);
  message.writeInt32BE(c.secretKey, 12);
  const socket = c.host.startsWith('/') ? connect(`${c.host}/.s.PGSQL.${c.port}`) : connect(c.port, c.host);
  // A cancel that cannot be sent leaves the query to finish on the server; the reader ends anyway.
  socket.on('error', () => undefined);
  socket.on('connect', () => socket.end(message));
}

/**
 * The URL with libpq's meaning of `sslmode` (`require`: encrypted, certificate not checked), as
 * `psql` reads the same URL; pg would otherwise take `require` as `verify-full` and print a
 * multi-line warning to stderr.
 */
export function libpqUrl(url: string): string {
  const u = new URL(url);
  if (!u.searchParams.has('sslmode') || u.searchParams.has('uselibpqcompat')) return url;
  u.searchParams.set('uselibpqcompat', 'true');
  return u.href;
}

function read(cursor: Cursor, rows: number): Promise<{ rows: unknown[][]; columns: string[] }> {
  return new Promise((resolve, reject) => {
    cursor.read(rows, (err, got, result) => {
      if (err) reject(err);
      else resolve({ rows: got, columns: result?.fields.map((f) => f.name) ?? [] });
    });
  });
}

/** The rows of `query`, `batchRows` at a time; the first batch comes with the column names. */
export async function* postgresRows(
  url: string,
  query: string,
  batchRows: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<SqlBatch> {
  const { Client, Cursor, types } = await load();
  // An abort event does not fire for a signal aborted before it is listened to.
  if (signal?.aborted) throw aborted(signal.reason);
  const connectionString = libpqUrl(url);
  let client: Client;
  try {
    // Parts missing from the URL come from the PG* variables (pg reads them), as libpq does.
    client = new Client({
      connectionString,
      application_name: 'sitemapkit',
      connectionTimeoutMillis: 30_000,
    });
  } catch (e) {
    throw new SitemapkitError('ERR_INPUT', `the database URL cannot be used: ${(e as Error).message}`, {
      where: redactDatabaseUrl(url),
      cause: e,
      hint: 'Check the parameters after ? in --db (sslmode, sslrootcert…).',
    });
  }
  const shown = shownOf(client);
  // A connection dropped between reads is reported by the next read; without a listener it would end the process.
  client.on('error', () => undefined);
  let cursor: Cursor | undefined;
  const abort = (): void => {
    // A running query goes on after its client leaves (the server notices only when it sends), so
    // it is cancelled first, as psql does on Ctrl-C.
    if (cursor !== undefined) cancelQuery(client);
    void client.end().catch(() => undefined);
  };
  signal?.addEventListener('abort', abort, { once: true });
  let connected = false;
  try {
    try {
      await client.connect();
      connected = true;
    } catch (e) {
      throw signal?.aborted ? aborted(e) : connectError(e, shown);
    }
    let first: { rows: unknown[][]; columns: string[] };
    try {
      await client.query('BEGIN TRANSACTION READ ONLY');
      // timestamptz values then print in UTC, and PARSERS turn them into W3C Datetime with Z.
      await client.query("SET LOCAL TIME ZONE 'UTC'");
      const opened = client.query(
        new Cursor(query, null, { rowMode: 'array', types }) as never,
      ) as unknown as Cursor;
      cursor = opened;
      first = await read(opened, batchRows);
    } catch (e) {
      throw signal?.aborted ? aborted(e) : queryError(e, shown, query);
    }
    const columns = first.columns;
    // The next batch is asked for before this one is handed over, so that the server computes and
    // sends it while the writer works (two batches in memory at most).
    const opened = cursor;
    const next = (): Promise<{ rows: unknown[][] }> => {
      const p = read(opened, batchRows);
      // Left pending when the reader stops early; the connection's end settles it.
      p.catch(() => undefined);
      return p;
    };
    let pending = first.rows.length > 0 ? next() : undefined;
    yield { columns, rows: first.rows, shown };
    while (pending !== undefined) {
      let rows: unknown[][];
      try {
        rows = (await pending).rows;
      } catch (e) {
        throw signal?.aborted ? aborted(e) : queryError(e, shown, query);
      }
      pending = rows.length > 0 ? next() : undefined;
      if (rows.length > 0) yield { columns, rows, shown };
    }
    await new Promise<void>((resolve) => opened.close(() => resolve()));
    await client.query('COMMIT');
  } finally {
    signal?.removeEventListener('abort', abort);
    // Ending the connection also ends the transaction and the portal when the reader stopped early.
    if (connected || !signal?.aborted) await client.end().catch(() => undefined);
  }
}

function aborted(e: unknown): SitemapkitError {
  return new SitemapkitError('ERR_ABORTED', 'interrupted while reading the query', { cause: e });
}
