/**
 * Reading a PostgreSQL site store that another process may be writing: no advisory lock (a writer
 * is never held up), read-only sessions, and every read one statement (one MVCC snapshot). A pool,
 * so that a dropped connection is replaced by the next read instead of failing every later one.
 */
import type { Pool } from 'pg';
import { SitemapkitError } from '../core/errors.js';
import { connectError, libpqUrl } from '../sources/sql-postgres.js';
import { failure } from './postgres.js';
import type { PostgresTarget } from './postgres-open.js';
import { type StoreReads, sqlReads } from './read.js';
import { STORE_FORMAT, STORE_VERSION } from './sqlite.js';

/** Reads of the store in `target`'s schema; checks now that it is a store. Throws `ERR_STATE`. */
export async function openPostgresReader(
  target: PostgresTarget,
): Promise<{ reads: StoreReads; meta: Map<string, string>; close(): Promise<void> }> {
  let pg: typeof import('pg').default;
  try {
    pg = (await import('pg')).default;
  } catch (cause) {
    throw new SitemapkitError('ERR_STATE', 'the PostgreSQL client (pg) cannot be loaded', {
      cause,
      hint: 'Reinstall sitemapkit with its dependencies (npm ci).',
    });
  }
  const { shown, schema } = target;
  const pool: Pool = new pg.Pool({
    connectionString: libpqUrl(target.url),
    application_name: 'sitemapkit store reader',
    connectionTimeoutMillis: 30_000,
    max: 4,
    // The schema and read-only sessions as startup options: every pooled connection gets them.
    options: `-c search_path="${schema}" -c default_transaction_read_only=on`,
  });
  // An idle connection that drops is replaced by the next read; without a listener it would end the process.
  pool.on('error', () => undefined);
  const run = async (sql: string, values: unknown[]): Promise<Array<Record<string, unknown>>> => {
    try {
      return (await pool.query({ text: sql, values })).rows as Array<Record<string, unknown>>;
    } catch (cause) {
      throw failure(cause, shown);
    }
  };
  let meta: Map<string, string>;
  try {
    let rows: Array<Record<string, unknown>>;
    try {
      rows = (
        await pool.query(
          'SELECT key, value FROM meta WHERE EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2)',
          [schema, 'meta'],
        )
      ).rows;
    } catch (cause) {
      const code = (cause as { code?: string }).code;
      // 42P01: no meta table in the schema (the EXISTS guard does not stop the planner).
      if (code === '42P01') rows = [];
      else if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) throw failure(cause, shown);
      else {
        const e = connectError(cause, shown, '--store');
        throw new SitemapkitError('ERR_STATE', e.message, { where: shown, hint: e.hint ?? '', cause });
      }
    }
    meta = new Map(rows.map((r) => [String(r['key']), String(r['value'])]));
    if (meta.get('format') !== STORE_FORMAT || meta.get('version') !== STORE_VERSION) {
      throw new SitemapkitError(
        'ERR_STATE',
        `the schema "${schema}" does not hold a sitemapkit site store of a version this release reads`,
        {
          where: shown,
          hint: 'a read-only open needs an existing store: give its schema with ?schema=NAME',
        },
      );
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return { reads: sqlReads(run), meta, close: () => pool.end().catch(() => undefined) };
}
