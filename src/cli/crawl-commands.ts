/**
 * The command of a shared crawl, kept in its database: `crawl URL --state postgres://…` records
 * its start URLs and flags under the crawl id, and `crawl-worker` (on any machine) reads them back,
 * so that every worker crawls with the same scope, limits and outputs as the one that started it.
 * A table of the CLI's own (`sitemapkit_cli.crawl_commands`), beside the crawl's schema, which the
 * library creates and drops.
 */
import type { Client } from 'pg';
import { SitemapkitError } from '../core/errors.js';
import { connectPatiently, type FirstConnect } from '../crawler/frontier-postgres-db.js';
import { redactDatabaseUrl } from '../sources/sql-db.js';
import { connectError, libpqUrl, shownOf } from '../sources/sql-postgres.js';

/** What `crawl` recorded: its start URLs and its parsed flags (JSON, non-finite numbers kept). */
export interface CrawlCommand {
  urls: string[];
  flags: Record<string, unknown>;
}

const SETUP = `
CREATE SCHEMA IF NOT EXISTS sitemapkit_cli;
CREATE TABLE IF NOT EXISTS sitemapkit_cli.crawl_commands (
  crawl_id text PRIMARY KEY,
  command jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now()
);`;

// Any key works: two processes creating the table at once would otherwise race on the catalog.
const SETUP_LOCK = 7_346_112_017;

/**
 * Runs `use` with a connection to `url` (the `--state` URL), worded for the CLI when it fails.
 * With `wait`, a server that is not up yet is waited for (a worker's first connection).
 */
export async function withDatabase<T>(
  url: string,
  use: (client: Client) => Promise<T>,
  wait?: FirstConnect,
): Promise<T> {
  const pg = (await import('pg')).default;
  const make = (): Client =>
    new pg.Client({
      connectionString: libpqUrl(url),
      application_name: 'sitemapkit crawl',
      connectionTimeoutMillis: 30_000,
    });
  let client: Client;
  try {
    client = make();
  } catch (cause) {
    // pg reads sslrootcert, sslcert and sslkey here, before connecting.
    if ((cause as { syscall?: unknown }).syscall === 'open') {
      const e = connectError(cause, redactDatabaseUrl(url), '--state');
      throw new SitemapkitError('ERR_STATE', e.message, { where: e.where ?? '', hint: e.hint ?? '', cause });
    }
    throw new SitemapkitError('ERR_STATE', `the --state URL cannot be used: ${(cause as Error).message}`, {
      where: redactDatabaseUrl(url),
      hint: 'Check the parameters after ? in --state (sslmode, sslrootcert…).',
      cause,
    });
  }
  // A dropped connection is reported by the next query; without a listener it would end the process.
  client.on('error', () => undefined);
  try {
    if (wait === undefined) await client.connect();
    else {
      // A client connects once: each try after the first is a new one.
      let first: Client | undefined = client;
      client = await connectPatiently(
        async () => {
          const c = first ?? make();
          first = undefined;
          c.on('error', () => undefined);
          try {
            await c.connect();
          } catch (e) {
            await c.end().catch(() => undefined);
            throw e;
          }
          return c;
        },
        redactDatabaseUrl(url),
        wait,
      );
    }
  } catch (cause) {
    const e = connectError(cause, shownOf(client), '--state');
    throw new SitemapkitError('ERR_STATE', e.message, { where: e.where ?? '', hint: e.hint ?? '', cause });
  }
  try {
    return await use(client);
  } catch (cause) {
    if (cause instanceof SitemapkitError) throw cause;
    throw databaseError(cause, shownOf(client));
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A failed statement in one sentence: rights first, since that is what a new user meets. */
function databaseError(cause: unknown, shown: string): SitemapkitError {
  const code = (cause as { code?: string }).code;
  const message = (cause as Error).message ?? String(cause);
  const database = shown.replace(/^.*\/([^/?]*).*$/, '$1');
  if (code === '42501') {
    return new SitemapkitError('ERR_STATE', `the database user lacks a right it needs (${message})`, {
      where: shown,
      hint: `A shared crawl creates its own schemas: run GRANT CREATE ON DATABASE ${database} TO the user, as the database's owner.`,
      cause,
    });
  }
  return new SitemapkitError('ERR_STATE', `the database refused a statement: ${message}`, {
    where: shown,
    hint: 'Check that the server is a PostgreSQL of version 12 or later and that it is not shutting down.',
    cause,
  });
}

async function setUp(client: Client): Promise<void> {
  await client.query('BEGIN');
  await client.query('SELECT pg_advisory_xact_lock($1)', [SETUP_LOCK]);
  await client.query(SETUP);
  await client.query('COMMIT');
}

/** Records (or replaces) the command of crawl `id`. */
export async function saveCrawlCommand(client: Client, id: string, command: CrawlCommand): Promise<void> {
  await setUp(client);
  await client.query(
    `INSERT INTO sitemapkit_cli.crawl_commands (crawl_id, command) VALUES ($1, $2)
     ON CONFLICT (crawl_id) DO UPDATE SET command = EXCLUDED.command, recorded_at = now()`,
    [id, encodeCommand(command)],
  );
}

/** The recorded command of crawl `id`, or undefined when no `crawl` started it. */
export async function loadCrawlCommand(client: Client, id: string): Promise<CrawlCommand | undefined> {
  const table = await client.query("SELECT to_regclass('sitemapkit_cli.crawl_commands') IS NOT NULL AS ok");
  if ((table.rows[0] as { ok: boolean }).ok !== true) return undefined;
  const got = await client.query(
    'SELECT command::text AS c FROM sitemapkit_cli.crawl_commands WHERE crawl_id = $1',
    [id],
  );
  const row = got.rows[0] as { c: string } | undefined;
  return row === undefined ? undefined : decodeCommand(row.c);
}

/** Forgets the command of crawl `id` (with `crawl-status --drop`). */
export async function deleteCrawlCommand(client: Client, id: string): Promise<void> {
  const table = await client.query("SELECT to_regclass('sitemapkit_cli.crawl_commands') IS NOT NULL AS ok");
  if ((table.rows[0] as { ok: boolean }).ok !== true) return;
  await client.query('DELETE FROM sitemapkit_cli.crawl_commands WHERE crawl_id = $1', [id]);
}

// JSON has no Infinity (an unlimited --max-pages, say): such numbers travel as {"$number": "…"}.
/** The command as JSON text; its flags survive {@link decodeCommand} unchanged. */
export function encodeCommand(command: CrawlCommand): string {
  return JSON.stringify(command, (_key, value: unknown) =>
    typeof value === 'number' && !Number.isFinite(value) ? { $number: String(value) } : value,
  );
}

export function decodeCommand(text: string): CrawlCommand {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && Object.keys(value).length === 1) {
      const n = (value as { $number?: unknown }).$number;
      if (typeof n === 'string') return Number(n);
    }
    return value;
  }) as CrawlCommand;
}
