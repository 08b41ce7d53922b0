/**
 * The lifecycle of a crawl shared through PostgreSQL: the database server restarted mid-crawl
 * (workers retry and continue, no page is recorded finished twice), the server gone for longer
 * than the retries (a clear error, and a worker started later finishes the crawl), Ctrl-C in a
 * worker (its claims return to the queue at once), and two crawl ids in one database, which do
 * not see each other.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import { openPostgresCrawl } from '../../src/crawler/frontier-postgres-read.js';
import { type Answer, type Route, slow, startServer, type TestServer } from '../support/http-server.js';
import { startPgProxy } from '../support/pg-proxy.js';
import { eventually, type Postgres, pgCtl, serverSettings, usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import {
  pageHits,
  resultOf,
  sitemapUrls,
  siteRoutes,
  startWorker,
  type WorkerRun,
} from './postgres-helpers.js';

const pg = usePostgres();
const servers: TestServer[] = [];
const running: WorkerRun[] = [];
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  // A worker left running by a failed test must not outlive it.
  for (const w of running.splice(0)) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await Promise.all(closing.splice(0).map((close) => close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Pages answered after `ms`, so that a crawl is still running when the test acts. */
function slowSite(n: number, ms: number): Record<string, Route> {
  const routes = siteRoutes(n);
  for (const [path, r] of Object.entries(routes))
    if (path !== '/robots.txt') routes[path] = slow(ms, r as Answer);
  return routes;
}

/**
 * The site of `n` pages, each answered after 40 ms; once `after` pages were answered, the others
 * are held until `release()`, so that a crawl is mid-way, whatever the load, when the test acts.
 */
function heldSite(
  n: number,
  after: number,
): { routes: Record<string, Route>; answered: () => number; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const answered = new Set<string>();
  const routes = siteRoutes(n);
  for (const [path, r] of Object.entries(routes)) {
    if (path === '/robots.txt') continue;
    const a = r as Answer;
    routes[path] = async (_req, res) => {
      if (!answered.has(path) && answered.size >= after) await gate;
      answered.add(path);
      await new Promise((resolve) => setTimeout(resolve, 40));
      res.writeHead(a.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...a.headers });
      res.end(a.body);
    };
  }
  return { routes, answered: () => answered.size, release };
}

/** The workers registered in a crawl (0 while its schema does not exist yet). */
async function registered(server: Postgres, crawlId: string): Promise<number> {
  try {
    const r = await server.query<{ n: number }>(`SELECT count(*)::int AS n FROM "crawl_${crawlId}".workers`);
    return r.rows[0]?.n ?? 0;
  } catch {
    return 0;
  }
}

/** The URLs each worker's commits recorded (its `step pg:after-commit` lines). */
function recorded(lines: readonly string[]): string[] {
  return lines
    .filter((l) => l.startsWith('step pg:after-commit '))
    .flatMap((l) => JSON.parse(l.slice('step pg:after-commit '.length)) as string[]);
}

async function reference(n: number, dir: string): Promise<string[]> {
  const s = await startServer(siteRoutes(n));
  try {
    await crawl({ start: s.url, outDir: dir, retryBaseMs: 1 });
    return sitemapUrls(dir).map((u) => u.replaceAll(s.origin, 'ORIGIN'));
  } finally {
    await s.close();
  }
}

describe('a shared crawl when its database goes away', () => {
  it('retries through a server restart and continues; no page is recorded finished twice', async () => {
    // The restart lands at the same point of the crawl on every run, whatever the load: both
    // workers started (a worker's first connection waits for a server that is not up, so a restart
    // while one is still connecting is another case: postgres-first-connect.test.ts), 12 pages answered, the others held until the server is
    // back: fetches in flight, batches to commit and claims to make on connections that are gone.
    const site = heldSite(50, 12);
    const server = await startServer(site.routes);
    servers.push(server);
    const dir = tempDir('sk-pgr');
    const common = {
      start: server.url,
      outDir: join(dir, 'out'),
      state: pg().url,
      crawlId: 'restart',
      concurrency: 2,
      retryBaseMs: 1,
    };
    const workers = [1, 2].map((i) => startWorker({ ...common, workerId: `w${i}`, leaseSeconds: 120 }));
    running.push(...workers);
    await eventually(async () => site.answered() >= 12 && (await registered(pg(), 'restart')) === 2);
    pgCtl(pg(), '-m', 'immediate', '-w', 'restart');
    site.release();
    const ends = await Promise.all(workers.map((w) => w.done));
    for (const e of ends)
      expect(e.code, e.lines.filter((l) => !l.startsWith('page')).join('\n') + e.stderr).toBe(0);
    expect(ends.map((e) => resultOf(e.lines)).filter((r) => r.worker.wroteOutput)).toHaveLength(1);
    const all = ends.flatMap((e) => recorded(e.lines));
    expect(all.length).toBe(new Set(all).size);
    expect(sitemapUrls(join(dir, 'out')).map((u) => u.replaceAll(server.origin, 'ORIGIN'))).toEqual(
      await reference(50, join(dir, 'reference')),
    );
  });

  // The window a server restart may hit and the test above cannot aim at: a statement took effect
  // and the worker sees a lost connection instead of its answer. A claim's rows stay leased to the
  // worker until its loop ends a round and returns its claims; a batch's pages, recorded by the
  // lost statement, are not recorded again by its retry.
  it.each([
    ['a claim', 'sk_claim', 3],
    ['a batch of pages', 'sk_finish_all', 2],
  ])(
    '%s that committed but whose answer was lost: the crawl finishes, each page fetched once (%s)',
    async (_what, statement, nth) => {
      const site = await startServer(siteRoutes(50));
      servers.push(site);
      const proxy = await startPgProxy(pg());
      closing.push(() => proxy.close());
      proxy.cutAfter(statement, nth);
      const dir = tempDir('sk-pgl');
      const w = startWorker({
        start: site.url,
        outDir: join(dir, 'out'),
        state: proxy.url,
        crawlId: `lost-${statement}`.replaceAll('_', '-'),
        workerId: 'w1',
        concurrency: 2,
        retryBaseMs: 1,
        leaseSeconds: 120,
      });
      running.push(w);
      const end = await w.done;
      expect(end.code, end.lines.filter((l) => !l.startsWith('page')).join('\n') + end.stderr).toBe(0);
      expect(proxy.cuts).toBe(1);
      expect(resultOf(end.lines).worker.wroteOutput).toBe(true);
      expect([...pageHits(site).values()].filter((n) => n > 1)).toEqual([]);
      expect(sitemapUrls(join(dir, 'out')).map((u) => u.replaceAll(site.origin, 'ORIGIN'))).toEqual(
        await reference(50, join(dir, 'reference')),
      );
    },
  );

  it('gives up with a clear error when the server stays away, and a later worker finishes the crawl', async () => {
    const site = await startServer(slowSite(40, 40));
    servers.push(site);
    const dir = tempDir('sk-pgd');
    const common = {
      start: site.url,
      outDir: join(dir, 'out'),
      state: pg().url,
      crawlId: 'down',
      concurrency: 2,
      retryBaseMs: 1,
    };
    const w = startWorker({ ...common, workerId: 'w1', leaseSeconds: 1, retrySeconds: 1 });
    await eventually(() => pageHits(site).size >= 8);
    pgCtl(pg(), '-m', 'immediate', '-w', 'stop');
    const end = await w.done;
    // The settings the harness started it with (postgres-cluster.mjs): `start` does not reuse them.
    const server = pg();
    pgCtl(server, '-w', '-o', serverSettings(server.port, server.dir), 'start');
    expect(end.code, end.lines.filter((l) => !l.startsWith('page')).join('\n') + end.stderr).toBe(2);
    const error = end.lines.find((l) => l.startsWith('error '));
    expect(error).toMatch(/^error ERR_STATE lost the connection to the crawl's database while trying to /);
    const again = await startWorker({ ...common, workerId: 'w2', resume: true, leaseSeconds: 30 }).done;
    expect(again.code, again.stderr).toBe(0);
    expect(resultOf(again.lines).worker.wroteOutput).toBe(true);
    expect(sitemapUrls(join(dir, 'out')).map((u) => u.replaceAll(site.origin, 'ORIGIN'))).toEqual(
      await reference(40, join(dir, 'reference')),
    );
  });
});

describe('a shared crawl and its workers', () => {
  it('Ctrl-C in a worker returns its claims at once (exit 130); another worker finishes the crawl', async () => {
    const site = await startServer(slowSite(30, 100));
    servers.push(site);
    const dir = tempDir('sk-pgc');
    const common = {
      start: site.url,
      outDir: join(dir, 'out'),
      state: pg().url,
      crawlId: 'ctrlc',
      concurrency: 2,
      retryBaseMs: 1,
    };
    const w = startWorker({ ...common, workerId: 'w1', leaseSeconds: 600 });
    await eventually(() => w.lines.filter((l) => l.startsWith('step pg:claimed')).length >= 2);
    w.child.kill('SIGINT');
    const end = await w.done;
    expect(end.code).toBe(130);
    const held = await pg().query<{ n: number }>(
      "SELECT count(*)::int AS n FROM crawl_ctrlc.urls WHERE state = 1 AND lease_owner = 'w1'",
    );
    expect(held.rows[0]!.n).toBe(0);
    const c = await openPostgresCrawl(pg().url, 'ctrlc');
    try {
      const s = await c.status();
      expect(s.queued).toBeGreaterThan(0);
      expect(s.workers).toEqual([expect.objectContaining({ id: 'w1', alive: false, ended: 'aborted' })]);
    } finally {
      await c.close();
    }
    const other = await startWorker({ ...common, workerId: 'w2', leaseSeconds: 600 }).done;
    expect(other.code, other.stderr).toBe(0);
    expect(resultOf(other.lines)).toMatchObject({ complete: true, worker: { wroteOutput: true } });
  });

  it('two crawl ids in one database do not see each other; dropping one leaves the other', async () => {
    const [a, b] = [await startServer(siteRoutes(20)), await startServer(siteRoutes(30))];
    servers.push(a, b);
    const dir = tempDir('sk-pg2');
    const [ra, rb] = await Promise.all([
      crawl({ start: a.url, outDir: join(dir, 'a'), state: pg().url, crawlId: 'site-a', retryBaseMs: 1 }),
      crawl({ start: b.url, outDir: join(dir, 'b'), state: pg().url, crawlId: 'site-b', retryBaseMs: 1 }),
    ]);
    expect(ra.worker?.wroteOutput && rb.worker?.wroteOutput).toBe(true);
    expect(sitemapUrls(join(dir, 'a')).every((u) => u.includes(a.origin))).toBe(true);
    expect(sitemapUrls(join(dir, 'b')).every((u) => u.includes(b.origin))).toBe(true);
    expect(ra.stats.found).toBeLessThan(rb.stats.found);
    const ca = await openPostgresCrawl(pg().url, 'site-a');
    const cb = await openPostgresCrawl(pg().url, 'site-b');
    try {
      expect((await ca.status()).total).toBe(ra.stats.found);
      expect((await cb.status()).total).toBe(rb.stats.found);
      await ca.drop();
      expect((await ca.status()).exists).toBe(false);
      expect((await cb.status()).total).toBe(rb.stats.found);
    } finally {
      await ca.close();
      await cb.close();
    }
  });

  it('says what to check when the server cannot be reached or the user may not create the schema', async () => {
    const site = await startServer(siteRoutes(3));
    servers.push(site);
    const dir = tempDir('sk-pge');
    const base = { start: site.url, outDir: join(dir, 'out'), crawlId: 'refused' };
    const server = pg();
    // A port nothing listens on: the one of a server just stopped would do, a closed one is simpler.
    const closed = await startServer({});
    const port = closed.port;
    await closed.close();
    // A server that is not up is waited for (a second here), then the same sentence.
    const unreachable = await crawl({
      ...base,
      state: `postgres://u:p@127.0.0.1:${port}/db`,
      connectSeconds: 1,
    }).catch((e: unknown) => e);
    expect(unreachable).toMatchObject({
      code: 'ERR_STATE',
      message: expect.stringMatching(/cannot connect to the database: the connection was refused/),
      where: expect.stringContaining(`127.0.0.1:${port}/db`),
      hint: expect.stringMatching(/host and port in --state/),
    });
    expect(
      String((unreachable as Error).message) + String((unreachable as { where: string }).where),
    ).not.toContain(':p@');
    await server.query("CREATE ROLE plain LOGIN PASSWORD 'plain'");
    const url = `postgres://plain:plain@${server.host}:${server.port}/${server.database}`;
    const denied = await crawl({ ...base, state: url }).catch((e: unknown) => e);
    expect(denied).toMatchObject({
      code: 'ERR_STATE',
      message: expect.stringMatching(/the database user may not create the crawl schema/),
      hint: expect.stringMatching(/GRANT CREATE ON DATABASE/),
    });
  });

  it('refuses options a shared crawl cannot take, naming them, before any connection', async () => {
    const base = { start: 'http://127.0.0.1:9/', outDir: join(tempDir('sk-pgo'), 'out') };
    const state = 'postgres://u@127.0.0.1:9/db';
    const refused = (o: Record<string, unknown>) => crawl({ ...base, ...o }).catch((e: unknown) => e);
    expect(await refused({ state })).toMatchObject({
      code: 'ERR_OPTIONS',
      message: expect.stringMatching(/needs crawlId/),
    });
    expect(await refused({ crawlId: 'x' })).toMatchObject({
      code: 'ERR_OPTIONS',
      message: expect.stringMatching(/crawlId needs state: a postgres:\/\/ URL/),
    });
    expect(await refused({ state, crawlId: 'no spaces' })).toMatchObject({
      code: 'ERR_OPTIONS',
      message: expect.stringMatching(/^crawlId must be/),
    });
    expect(await refused({ state, crawlId: 'x', leaseSeconds: 0 })).toMatchObject({
      code: 'ERR_OPTIONS',
      message: expect.stringMatching(/^leaseSeconds must be/),
    });
    expect(await refused({ state, crawlId: 'x', connectSeconds: -1 })).toMatchObject({
      code: 'ERR_OPTIONS',
      message: expect.stringMatching(/^connectSeconds must be 0 or more/),
    });
    expect(await refused({ connectSeconds: 5 })).toMatchObject({
      code: 'ERR_OPTIONS',
      message: expect.stringMatching(/connectSeconds needs state: a postgres:\/\/ URL/),
    });
    expect(await refused({ state, crawlId: 'x', recrawl: true })).toMatchObject({
      code: 'ERR_OPTIONS',
      message: expect.stringMatching(/^recrawl is not available/),
    });
  });
});
