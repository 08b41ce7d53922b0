/**
 * The schema of a crawl shared through PostgreSQL: created by the first worker (under an advisory
 * lock, so that workers started together do not race), checked and migrated by every other, and
 * dropped by `drop()`. The `urls` columns are the SQLite state's (state-open.ts), so that a finished
 * crawl is copied into a local state and written by the same code; the rest is what workers share:
 * leases, the seen-set's 128-bit hash, hosts' send slots, robots.txt, workers and their heartbeats.
 */
import { readFileSync } from 'node:fs';
import type { PoolClient } from 'pg';
import { SitemapkitError } from '../core/errors.js';
import { PG_FORMAT, PG_VERSION, type PgDb, quoteIdent } from './frontier-postgres-db.js';

/**
 * The seen-set's key beside the hash: the URL itself, or for a URL too long for a btree entry
 * (PostgreSQL refuses index rows over 2,704 bytes; a crawled URL is ASCII, percent-encoded) its
 * first 1,000 characters and the md5 of the rest, so that a crawl never fails on a pathological
 * link (two such URLs are then told apart by both hashes, not by every character). The statements
 * that insert name it verbatim. Index expressions must be immutable: md5 of text is.
 */
export const SEEN_KEY = `(CASE WHEN octet_length(url) <= 2000 THEN url
  ELSE left(url, 1000) || md5(substr(url, 1001)) END)`;

/**
 * `h` is md5 of the normalised URL as a uuid (128 bits); the seen-set is unique on `(h, url)` (see
 * {@link SEEN_KEY}), so a collision of the hash never drops a URL, and lookups go by the
 * fixed-size hash first.
 */
const TABLES = `
CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL);
CREATE SEQUENCE urls_id;
CREATE TABLE urls (
  id bigint PRIMARY KEY,
  h uuid NOT NULL,
  url text NOT NULL,
  depth integer NOT NULL,
  state smallint NOT NULL DEFAULT 0,
  via bigint,
  source text NOT NULL,
  status integer,
  verdict text,
  reason text,
  target text,
  content_type text,
  title text,
  lastmod text,
  extra text,
  bytes bigint,
  ms integer,
  attempts integer NOT NULL DEFAULT 0,
  etag text,
  last_modified text,
  fingerprint text,
  changed_at text,
  prev_verdict text,
  change text,
  change_at text,
  canonical text,
  description_length integer,
  rendered text,
  lease_owner text,
  lease_until timestamptz,
  finished_by text
);
CREATE UNIQUE INDEX urls_seen ON urls (h, ${SEEN_KEY});
CREATE INDEX urls_queue ON urls (depth, id) WHERE state = 0;
CREATE INDEX urls_leased ON urls (lease_until) WHERE state = 1;
CREATE TABLE page_links (source bigint PRIMARY KEY, targets bigint[] NOT NULL);
CREATE TABLE patterns (key text PRIMARY KEY, n bigint NOT NULL);
CREATE TABLE workers (
  id text PRIMARY KEY,
  host text NOT NULL,
  pid integer NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat timestamptz NOT NULL DEFAULT now(),
  lease_seconds integer NOT NULL,
  fetched bigint NOT NULL DEFAULT 0,
  without_fetch bigint NOT NULL DEFAULT 0,
  stopped_at timestamptz,
  ended text
);
-- A row per batch: the pages it fetched (a URL finished without a fetch is not counted), for the rate.
CREATE TABLE progress (at timestamptz NOT NULL DEFAULT now(), worker text NOT NULL, pages integer NOT NULL);
CREATE INDEX progress_at ON progress (at);
CREATE TABLE hosts (
  origin text PRIMARY KEY,
  next_at timestamptz NOT NULL DEFAULT '-infinity',
  delay_ms integer NOT NULL,
  crawl_delay_ms integer
);
CREATE TABLE sends (origin text NOT NULL, at timestamptz NOT NULL, worker text NOT NULL, token uuid);
CREATE UNIQUE INDEX sends_token ON sends (token);
CREATE TABLE places (worker text NOT NULL, token bigint NOT NULL, origin text NOT NULL, PRIMARY KEY (worker, token));
CREATE INDEX places_origin ON places (origin);
CREATE TABLE robots (
  origin text PRIMARY KEY,
  fetched_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  status text NOT NULL,
  http_status integer,
  body text,
  final_url text NOT NULL,
  redirects text NOT NULL,
  error text,
  fetching_by text,
  fetching_until timestamptz
);
`;

/**
 * What each earlier version lacks, in order. Version 1 kept a row per link in `links (target,
 * source)`; version 2 keeps a page's links in one row of `page_links` (a page is recorded finished
 * once, its links with it): about 30 rows and index entries fewer a page on a site with a menu.
 * A migrated crawl keeps its `links` rows, read with the new ones (frontier-postgres-read.ts).
 * Version 3 names each send slot's claim by a token (frontier-postgres-slots.ts), so that the retry
 * of a claim whose answer was lost finds it (the slots claimed before keep no token), and creates
 * the `places` of the host limit with the schema; a version-2 crawl may have them already (a
 * worker created them on first use), or the `flights` of the release before, which no version-3
 * worker reads: they are dropped. A crawl is migrated only while no worker of its older version is
 * alive (see {@link ensureCrawlSchema}).
 * Version 4 counts a worker's URLs finished without a fetch (refused by robots.txt or the address
 * policy) in `workers.without_fetch`, apart from its pages fetched (`fetched`), and `progress` rows
 * count fetched pages only, as the worker's result does (`worker.pages`, `worker.withoutFetch`);
 * the workers of a migrated crawl keep the counts they had, both together in `fetched`.
 */
const MIGRATIONS: ReadonlyArray<{ from: string; sql: string }> = [
  { from: '1', sql: 'CREATE TABLE page_links (source bigint PRIMARY KEY, targets bigint[] NOT NULL)' },
  {
    from: '2',
    sql: `ALTER TABLE sends ADD COLUMN IF NOT EXISTS token uuid;
      CREATE UNIQUE INDEX IF NOT EXISTS sends_token ON sends (token);
      CREATE TABLE IF NOT EXISTS places (worker text NOT NULL, token bigint NOT NULL, origin text NOT NULL, PRIMARY KEY (worker, token));
      CREATE INDEX IF NOT EXISTS places_origin ON places (origin);
      DROP TABLE IF EXISTS flights`,
  },
  { from: '3', sql: 'ALTER TABLE workers ADD COLUMN IF NOT EXISTS without_fetch bigint NOT NULL DEFAULT 0' },
];

/** This release, as the crawl's meta names the one that made it (`made_by`). */
function release(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return `sitemapkit ${typeof pkg.version === 'string' ? pkg.version : 'of unknown version'}`;
  } catch {
    return 'sitemapkit of unknown version';
  }
}

/** The live workers of a crawl (signed off or without a heartbeat within their lease: dead). */
const LIVE = `SELECT id, host, pid, lease_seconds FROM workers WHERE stopped_at IS NULL
  AND heartbeat > clock_timestamp() - make_interval(secs => lease_seconds) ORDER BY id`;

/** A crawl made by another version of the schema, which this worker cannot join: why, and what to do. */
function otherVersion(
  db: PgDb,
  version: string | undefined,
  madeBy: string | undefined,
  live: ReadonlyArray<{ id: string; host: string; pid: number; lease_seconds: number }>,
): SitemapkitError {
  const { crawlId, shown } = db.target;
  const by = `${madeBy ?? 'a sitemapkit that did not record its version'} (crawl schema version ${version ?? 'unknown'})`;
  const me = `this is ${release()} (crawl schema version ${PG_VERSION})`;
  if (live.length > 0) {
    const names = live.map((w) => `${w.id} on ${w.host}, pid ${w.pid}`);
    const lease = Math.max(...live.map((w) => w.lease_seconds));
    return new SitemapkitError(
      'ERR_STATE',
      `the crawl "${crawlId}" was made by ${by} and ${live.length === 1 ? 'one of its workers still runs' : `${live.length} of its workers still run`} (${names.slice(0, 3).join('; ')}${names.length > 3 ? '; …' : ''}); ${me}, and workers of two versions would not share the hosts' limits`,
      {
        where: shown,
        hint: `stop those workers or let them finish, then start this one again (it then upgrades the crawl); a worker that died stops counting ${lease} s after its last heartbeat`,
      },
    );
  }
  return new SitemapkitError(
    'ERR_STATE',
    `the crawl "${crawlId}" was made by ${by}; ${me}, which cannot join it`,
    {
      where: shown,
      hint: `run every worker of the crawl with the release that made it, or drop it (crawl-status --drop, or crawl --fresh) and crawl again with this one`,
    },
  );
}

/** Whether the crawl's schema exists (and holds a crawl). */
export async function crawlExists(db: PgDb): Promise<boolean> {
  const rows = await db.query<{ ok: boolean }>(
    'check the crawl',
    "SELECT to_regclass(format('%I.meta', $1::text)) IS NOT NULL AS ok",
    [db.target.schema],
  );
  return rows[0]?.ok === true;
}

async function lockSchema(c: PoolClient, schema: string): Promise<void> {
  await c.query("SELECT pg_advisory_xact_lock(hashtextextended('sitemapkit-crawl:' || $1, 0))", [schema]);
}

/**
 * Creates the crawl's schema when it is missing, or checks (and migrates) the one there. Returns
 * whether this call created it. Throws `ERR_STATE` for a schema that holds something else.
 */
export async function ensureCrawlSchema(db: PgDb): Promise<boolean> {
  const { schema, shown } = db.target;
  return db.transaction('create the crawl schema', async (c) => {
    await lockSchema(c, schema);
    const got = await c.query(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE table_name = $2)::int AS meta FROM information_schema.tables WHERE table_schema = $1',
      [schema, 'meta'],
    );
    const { n, meta } = got.rows[0] as { n: number; meta: number };
    if (meta === 0 && n > 0) {
      throw new SitemapkitError(
        'ERR_STATE',
        `the schema "${schema}" holds other tables and is not a sitemapkit crawl`,
        {
          where: shown,
          hint: 'give another crawl id (its schema is crawl_ID)',
        },
      );
    }
    if (meta === 0) {
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await c.query(`SET LOCAL search_path = ${quoteIdent(schema)}`);
      await c.query(TABLES);
      await c.query('INSERT INTO meta (key, value) VALUES ($1, $2), ($3, $4), ($5, $6)', [
        'format',
        PG_FORMAT,
        'version',
        PG_VERSION,
        'made_by',
        release(),
      ]);
      return true;
    }
    const m = new Map(
      (await c.query("SELECT key, value FROM meta WHERE key IN ('format', 'version', 'made_by')")).rows.map(
        (r: { key: string; value: string }) => [r.key, r.value],
      ),
    );
    if (m.get('format') !== PG_FORMAT) {
      throw new SitemapkitError('ERR_STATE', `the schema "${schema}" does not hold a sitemapkit crawl`, {
        where: shown,
        hint: 'drop it (crawl-status --drop, or fresh) or give another crawl id',
      });
    }
    const version = m.get('version');
    if (version === PG_VERSION) return false;
    const start = MIGRATIONS.findIndex((x) => x.from === version);
    if (start < 0) throw otherVersion(db, version, m.get('made_by'), []);
    // Under the schema's lock, so a worker of this version that starts meanwhile waits and finds
    // the crawl migrated; a worker of the older one still alive keeps its layout: refused.
    const live = (await c.query(LIVE)).rows as Array<{
      id: string;
      host: string;
      pid: number;
      lease_seconds: number;
    }>;
    if (live.length > 0) throw otherVersion(db, version, m.get('made_by'), live);
    for (const x of MIGRATIONS.slice(start)) await c.query(x.sql);
    await c.query(
      `INSERT INTO meta (key, value) VALUES ('version', $1), ('made_by', $2)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [PG_VERSION, release()],
    );
    return false;
  });
}

/** Drops the crawl's schema and everything in it (nothing when there is none). */
export async function dropCrawlSchema(db: PgDb): Promise<void> {
  await db.transaction('drop the crawl schema', async (c) => {
    await lockSchema(c, db.target.schema);
    await c.query(`DROP SCHEMA IF EXISTS ${quoteIdent(db.target.schema)} CASCADE`);
  });
}
