/**
 * The version of a shared crawl's schema (a row of its `meta`): a worker joins only a crawl of its
 * own version, or upgrades one of an earlier version when no worker of that version is alive
 * (workers of two versions would not share the hosts' limits: the release before counted places in
 * `flights`, this one in `places`). The earlier layout is kept here as its SQL, as that release
 * created it, with the `flights` table a crawl begun by the release before it keeps.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PG_VERSION } from '../../src/crawler/frontier-postgres-db.js';
import { runBin } from '../support/cli.js';
import { usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { countingSite, pageHits, resultOf, startWorker, type WorkerRun } from './postgres-helpers.js';

const pg = usePostgres();
const running: WorkerRun[] = [];
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const w of running.splice(0)) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** The crawl's schema as version 2 created it (frontier-postgres-schema.ts before version 3). */
const VERSION_2 = `
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
CREATE UNIQUE INDEX urls_seen ON urls (h, (CASE WHEN octet_length(url) <= 2000 THEN url ELSE left(url, 1000) || md5(substr(url, 1001)) END));
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
  stopped_at timestamptz,
  ended text
);
CREATE TABLE progress (at timestamptz NOT NULL DEFAULT now(), worker text NOT NULL, pages integer NOT NULL);
CREATE INDEX progress_at ON progress (at);
CREATE TABLE hosts (
  origin text PRIMARY KEY,
  next_at timestamptz NOT NULL DEFAULT '-infinity',
  delay_ms integer NOT NULL,
  crawl_delay_ms integer
);
CREATE TABLE sends (origin text NOT NULL, at timestamptz NOT NULL, worker text NOT NULL);
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
CREATE TABLE flights (origin text NOT NULL, worker text NOT NULL, n integer NOT NULL, PRIMARY KEY (origin, worker));
INSERT INTO meta (key, value) VALUES ('format', 'sitemapkit-crawl-postgres'), ('version', '2');
`;

/** Creates crawl `id` in the version-2 layout, with one worker of that version alive. */
async function oldCrawl(id: string, origin: string): Promise<void> {
  await pg().query(`CREATE SCHEMA crawl_${id}; SET search_path = crawl_${id}; ${VERSION_2}`);
  await pg().query(
    `SET search_path = crawl_${id};
     INSERT INTO workers (id, host, pid, lease_seconds) VALUES ('old-1', 'old-host', 4242, 60);
     INSERT INTO flights (origin, worker, n) VALUES ('${origin}', 'old-1', 1);
     SET search_path = public`,
  );
}

async function meta(id: string): Promise<Record<string, string>> {
  const r = await pg().query<{ key: string; value: string }>(`SELECT key, value FROM crawl_${id}.meta`);
  return Object.fromEntries(r.rows.map((m) => [m.key, m.value]));
}

async function exists(name: string): Promise<boolean> {
  const r = await pg().query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [name]);
  return r.rows[0]!.ok;
}

describe('the version of a shared crawl', () => {
  it('an earlier version’s crawl is refused while a worker of it is alive, then upgraded by workers starting together', async () => {
    const site = await countingSite(20);
    closing.push(() => site.close());
    const origin = new URL(site.url).origin;
    await oldCrawl('older', origin);
    const dir = tempDir('sk-pg-version');
    // The CLI joins the crawl (it is unfinished): refused, exit 2, with who made it and what to do.
    const refused = await runBin(
      ['crawl', site.url, '--out', join(dir, 'out'), '--no-report'].concat([
        '--state',
        pg().url,
        '--crawl-id',
        'older',
        '--resume',
        '--quiet',
      ]),
      { limitMs: 60_000 },
    );
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain(
      `the crawl "older" was made by a sitemapkit that did not record its version (crawl schema version 2) and one of its workers still runs (old-1 on old-host, pid 4242); this is sitemapkit`,
    );
    expect(refused.stderr).toContain(
      `(crawl schema version ${PG_VERSION}), and workers of two versions would not share the hosts' limits`,
    );
    expect(refused.stderr).toContain('stop those workers or let them finish, then start this one again');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    // Nothing was changed, nothing fetched.
    expect((await meta('older'))['version']).toBe('2');
    expect(await exists('crawl_older.flights')).toBe(true);
    expect(pageHits(site).size).toBe(0);
    // The old worker ends: two workers of this version start together; one upgrades, both crawl.
    await pg().query("UPDATE crawl_older.workers SET stopped_at = now(), ended = 'done'");
    const common = {
      start: site.url,
      outDir: join(dir, 'out'),
      state: pg().url,
      crawlId: 'older',
      concurrency: 2,
      retryBaseMs: 1,
      rate: 200,
    };
    const ws = ['w1', 'w2'].map((workerId) => startWorker({ ...common, workerId }));
    running.push(...ws);
    const ends = await Promise.all(ws.map((w) => w.done));
    for (const e of ends)
      expect(e.code, e.lines.filter((l) => !l.startsWith('page')).join('\n') + e.stderr).toBe(0);
    expect(ends.map((e) => resultOf(e.lines)).filter((r) => r.worker.wroteOutput)).toHaveLength(1);
    expect(await meta('older')).toMatchObject({
      version: PG_VERSION,
      made_by: expect.stringMatching(/^sitemapkit \d/),
    });
    expect(await exists('crawl_older.flights')).toBe(false);
    // The upgraded tables in use: every send slot claimed with its token.
    const sends = await pg().query<{ n: number; tokens: number }>(
      'SELECT count(*)::int AS n, count(token)::int AS tokens FROM crawl_older.sends',
    );
    expect(sends.rows[0]!.n).toBeGreaterThan(0);
    expect(sends.rows[0]!.tokens).toBe(sends.rows[0]!.n);
    expect([...pageHits(site).values()].filter((n) => n > 1)).toEqual([]);
  }, 180_000);

  it('a crawl of another version than this one (a newer release’s) is refused with both versions, exit 2', async () => {
    const site = await countingSite(5);
    closing.push(() => site.close());
    const dir = tempDir('sk-pg-newer');
    const args = ['--state', pg().url, '--crawl-id', 'newer'];
    // A crawl of this version, recorded for crawl-worker, then marked as a newer release's.
    const first = await runBin(
      ['crawl', site.url, '--out', join(dir, 'out'), '--no-report', ...args, '--quiet'],
      {
        limitMs: 120_000,
      },
    );
    expect(first.code, first.stderr).toBe(0);
    await pg().query(
      "UPDATE crawl_newer.meta SET value = CASE key WHEN 'version' THEN '99' ELSE 'sitemapkit 99.0.0' END WHERE key IN ('version', 'made_by')",
    );
    const hits = site.requests.length;
    const joined = await runBin(['crawl-worker', ...args, '--quiet'], { limitMs: 60_000 });
    expect(joined.code, joined.stderr).toBe(2);
    expect(joined.stderr).toMatch(
      new RegExp(
        `the crawl "newer" was made by sitemapkit 99\\.0\\.0 \\(crawl schema version 99\\); this is sitemapkit \\S+ \\(crawl schema version ${PG_VERSION}\\), which cannot join it`,
      ),
    );
    expect(joined.stderr).toContain('run every worker of the crawl with the release that made it');
    expect(site.requests.length).toBe(hits);
    expect((await meta('newer'))['version']).toBe('99');
  }, 180_000);
});
