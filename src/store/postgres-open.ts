/**
 * Opening a PostgreSQL site store: the URL and its `?schema=`, the advisory lock that keeps one
 * process at a time on a schema (across machines), and the schema created or checked (format and
 * version, as in the SQLite file). The backend itself is postgres.ts.
 */
import { createHash } from 'node:crypto';
import type { Client, ClientConfig } from 'pg';
import { SitemapkitError } from '../core/errors.js';
import { redactDatabaseUrl } from '../sources/sql-db.js';
import { connectError, libpqUrl, shownOf } from '../sources/sql-postgres.js';
import { failure, INDEXES, PostgresBackend } from './postgres.js';
import { LAYOUTS } from './postgres-layouts.js';
import { STORE_FORMAT, STORE_VERSION } from './sqlite.js';

export const DEFAULT_SCHEMA = 'sitemapkit';

// Quoted everywhere, but kept to plain names so that a schema reads the same in psql and in messages.
const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

const TABLES = `
CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
CREATE SEQUENCE urls_id;
CREATE TABLE urls (
  id bigint PRIMARY KEY,
  loc text NOT NULL,
  section text NOT NULL,
  file bigint,
  hash text NOT NULL,
  input_lastmod text,
  changed_at text,
  first_seen text NOT NULL,
  len bigint NOT NULL,
  news integer NOT NULL,
  entry text,
  fragment text,
  born bigint NOT NULL,
  changed bigint NOT NULL,
  removed_at text
);
CREATE INDEX urls_tombstones ON urls (removed_at) WHERE file IS NULL;
CREATE TABLE files (
  id bigint PRIMARY KEY,
  section text NOT NULL,
  num integer NOT NULL,
  urls bigint NOT NULL,
  bytes bigint NOT NULL,
  news integer NOT NULL,
  changed bigint NOT NULL
);
CREATE TABLE published (
  path text PRIMARY KEY,
  sha256 text NOT NULL,
  size bigint NOT NULL,
  disk text NOT NULL,
  bytes bigint NOT NULL,
  urls bigint NOT NULL,
  lastmod text NOT NULL
);
`;

/** A store URL split into what pg connects with, the schema, and how messages name it. */
export interface PostgresTarget {
  url: string;
  schema: string;
  /** The URL without its password. */
  shown: string;
}

/** Reads a `postgres://` store URL; `?schema=NAME` chooses the schema. Throws `ERR_OPTIONS`. */
export function postgresTarget(raw: string): PostgresTarget {
  const shown = redactDatabaseUrl(raw);
  if (!URL.canParse(raw)) {
    throw new SitemapkitError('ERR_OPTIONS', `the store URL "${shown}" cannot be read`, {
      hint: 'Give postgres://USER:PASSWORD@HOST:PORT/DATABASE?schema=NAME; percent-encode special characters in the password (@ as %40, / as %2F, : as %3A).',
    });
  }
  const u = new URL(raw);
  const schema = u.searchParams.get('schema') ?? DEFAULT_SCHEMA;
  if (!SCHEMA_NAME.test(schema)) {
    throw new SitemapkitError('ERR_OPTIONS', `the store schema "${schema}" is not a plain name`, {
      where: shown,
      hint: 'Give ?schema= a letter or _ then letters, digits or _ (at most 63), such as ?schema=sitemapkit_www.',
    });
  }
  if (/^pg_/i.test(schema)) {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `the store schema "${schema}" is reserved (pg_ names are PostgreSQL's)`,
      {
        where: shown,
        hint: 'Give ?schema= a name that does not start with pg_, such as ?schema=sitemapkit_www.',
      },
    );
  }
  // pg would pass an unknown parameter on to the server as a setting.
  u.searchParams.delete('schema');
  return { url: u.href, schema, shown };
}

/** The advisory lock key of a schema: 64 bits of its SHA-256, as the signed bigint PostgreSQL takes. */
export function lockKey(schema: string): string {
  return createHash('sha256').update(`sitemapkit-store:${schema}`).digest().readBigInt64BE(0).toString();
}

async function loadPg(): Promise<typeof import('pg').default> {
  try {
    return (await import('pg')).default;
  } catch (cause) {
    throw new SitemapkitError('ERR_STATE', 'the PostgreSQL client (pg) cannot be loaded', {
      cause,
      hint: 'Reinstall sitemapkit with its dependencies (npm ci).',
    });
  }
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Opens (creating when missing) the store in `target`'s schema, locked for this process until
 * `close()`. Throws `ERR_STATE` (cannot connect, locked, not a store).
 */
export async function openPostgresBackend(target: PostgresTarget): Promise<PostgresBackend> {
  const pg = await loadPg();
  const { shown, schema } = target;
  const state = (message: string, hint: string, cause?: unknown): SitemapkitError =>
    new SitemapkitError('ERR_STATE', message, { where: shown, hint, cause });
  let client: Client;
  try {
    const config: ClientConfig = {
      connectionString: libpqUrl(target.url),
      application_name: 'sitemapkit store',
      connectionTimeoutMillis: 30_000,
      // Counts and bigint columns as numbers (ids and sizes stay far below 2^53).
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === 20 ? Number : pg.types.getTypeParser(oid, format ?? 'text')) as never,
      },
    };
    client = new pg.Client(config);
  } catch (cause) {
    throw state(
      `the store URL cannot be used: ${(cause as Error).message}`,
      'Check the parameters after ? in --store (sslmode, sslrootcert…).',
      cause,
    );
  }
  // A dropped connection is reported by the next query; without a listener it would end the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (cause) {
    const e = connectError(cause, shownOf(client), '--store');
    throw new SitemapkitError('ERR_STATE', e.message, { where: shown, hint: e.hint ?? '', cause });
  }
  try {
    const locked = await client.query('SELECT pg_try_advisory_lock($1::bigint) AS ok', [lockKey(schema)]);
    if (locked.rows[0]?.ok !== true) {
      throw state(
        'the site store is in use by another sitemapkit process',
        `wait for the other process to end (one process at a time uses a store; schema ${schema})`,
      );
    }
    await client.query("SELECT set_config('search_path', $1, false)", [quote(schema)]);
    const exists = await client.query(
      'SELECT count(*) AS n, count(*) FILTER (WHERE table_name = $2) AS meta FROM information_schema.tables WHERE table_schema = $1',
      [schema, 'meta'],
    );
    const { n, meta } = exists.rows[0] as { n: number; meta: number };
    if (meta > 0) {
      const got = await client.query('SELECT key, value FROM meta WHERE key IN ($1, $2)', [
        'format',
        'version',
      ]);
      const m = new Map(got.rows.map((r: { key: string; value: string }) => [r.key, r.value]));
      if (m.get('format') !== STORE_FORMAT || m.get('version') !== STORE_VERSION) {
        throw state(
          `the schema "${schema}" does not hold a sitemapkit site store of a version this release reads`,
          'give another schema with ?schema=NAME in --store (a new one is created)',
        );
      }
    } else if (n > 0) {
      throw state(
        `the schema "${schema}" holds other tables and is not a sitemapkit site store`,
        'give another schema with ?schema=NAME in --store (a new one is created)',
      );
    } else {
      await client.query('BEGIN');
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quote(schema)}`);
      await client.query(TABLES + INDEXES);
      await client.query('INSERT INTO meta (key, value) VALUES ($1, $2), ($3, $4)', [
        'format',
        STORE_FORMAT,
        'version',
        STORE_VERSION,
      ]);
      await client.query('COMMIT');
    }
    const layouts = await client.query("SELECT to_regclass('layouts') IS NOT NULL AS ok");
    if (!(layouts.rows[0] as { ok: boolean }).ok) await client.query(LAYOUTS);
  } catch (cause) {
    await client.end().catch(() => undefined);
    if (cause instanceof SitemapkitError) throw cause;
    throw failure(cause, shown);
  }
  return new PostgresBackend(client, shown);
}
