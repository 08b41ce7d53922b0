/**
 * A shared crawl's host limit (`hostConcurrency`) when the database's answer to taking or giving
 * back a place on the host is lost: the statement took effect, and the worker sees a lost
 * connection instead of its answer (test/support/pg-proxy.ts cuts the connection right there, on
 * purpose). The worker's retry must not take a second place (the host would stall: with a limit
 * of 1 no request could start again), nor give back a place twice (another request's: more
 * requests in flight on the host than the limit allows). A batch of finished pages whose COMMIT
 * answer was lost is recorded once, and still counted in the worker's own page count.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPgProxy } from '../support/pg-proxy.js';
import { eventually, usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { countingSite, pageHits, resultOf, startWorker, type WorkerRun } from './postgres-helpers.js';

const pg = usePostgres();
const running: WorkerRun[] = [];
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  // A worker left running by a failed test must not outlive it.
  for (const w of running.splice(0)) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  await Promise.all(closing.splice(0).map((close) => close()));
});

const TAKE = 'sk_take_place';
const GIVE_BACK = 'sk_give_back';

/** The places on hosts that the crawl's table still counts (none once every worker stopped). */
async function placesLeft(crawlId: string): Promise<number> {
  const r = await pg().query<{ n: number }>(`SELECT count(*)::int AS n FROM "crawl_${crawlId}".places`);
  return r.rows[0]!.n;
}

/**
 * A site whose page requests wait until the test answers them (robots.txt is answered at once):
 * what is in flight on the host is exactly what the test holds, whatever the machine's load. `/`
 * links to `/p/1` … `/p/N`, which link back to `/`. After `auto()`, every request is answered.
 */
async function heldSite(n: number): Promise<{
  origin: string;
  held: Array<{ path: string; res: ServerResponse }>;
  answerOldest(): void;
  auto(): void;
  most(): number;
  hits: Map<string, number>;
}> {
  const held: Array<{ path: string; res: ServerResponse }> = [];
  const hits = new Map<string, number>();
  let most = 0;
  let automatic = false;
  const answer = (path: string, res: ServerResponse): void => {
    const links =
      path === '/'
        ? Array.from({ length: n }, (_, i) => `<a href="/p/${i + 1}">${i + 1}</a>`).join(' ')
        : '<a href="/">home</a>';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>${links}`);
  };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
      return;
    }
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (automatic) {
      answer(path, res);
      return;
    }
    held.push({ path, res });
    most = Math.max(most, held.length);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closing.push(() => new Promise((r) => server.close(() => r())));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    held,
    answerOldest() {
      const h = held.shift()!;
      answer(h.path, h.res);
    },
    auto() {
      automatic = true;
      for (const h of held.splice(0)) answer(h.path, h.res);
    },
    most: () => most,
    hits,
  };
}

describe('a lost answer to taking or giving back a place on a host', () => {
  it('a take whose COMMIT answer was lost holds one place, not two: a limit of 1 does not stall', async () => {
    const site = await countingSite(30);
    closing.push(() => site.close());
    const proxy = await startPgProxy(pg());
    closing.push(() => proxy.close());
    // The second place taken (the first page's was given back): durable, its answer lost.
    proxy.cutAfterCommit(TAKE, 2);
    const dir = tempDir('sk-pg-take');
    const w = startWorker({
      start: site.url,
      outDir: join(dir, 'out'),
      state: proxy.url,
      crawlId: 'losttake',
      workerId: 'w1',
      concurrency: 1,
      hostConcurrency: 1,
      retryBaseMs: 1,
      leaseSeconds: 60,
    });
    running.push(w);
    // One worker of concurrency 1 has no one to wait for: a take refused for a full host means
    // the worker waits for a place it holds itself, forever (the crawl would never end).
    const refused = (): boolean => proxy.answers.some((a) => a.name === TAKE && a.count === 0);
    await eventually(() => w.child.exitCode !== null || refused(), 120_000);
    expect(refused(), 'the worker was refused a place that only it holds: the host stalls').toBe(false);
    const end = await w.done;
    expect(end.code, end.lines.filter((l) => !l.startsWith('page')).join('\n') + end.stderr).toBe(0);
    expect(proxy.cuts).toBe(1);
    // The retry found the place its lost try had taken.
    expect(proxy.answers.filter((a) => a.name === 'sk_place_held').map((a) => a.count)).toEqual([1]);
    expect(resultOf(end.lines)).toMatchObject({ complete: true, worker: { wroteOutput: true } });
    expect([...pageHits(site).values()].filter((n) => n > 1)).toEqual([]);
    expect(await placesLeft('losttake')).toBe(0);
  }, 180_000);

  it('a give-back whose answer was lost frees one place, not another request’s: the limit holds', async () => {
    const N = 30;
    const site = await heldSite(N);
    const proxy = await startPgProxy(pg());
    closing.push(() => proxy.close());
    const dir = tempDir('sk-pg-give');
    const common = {
      start: `${site.origin}/`,
      outDir: join(dir, 'out'),
      state: proxy.url,
      crawlId: 'lostgive',
      concurrency: 2,
      hostConcurrency: 2,
      retryBaseMs: 1,
      leaseSeconds: 60,
      timeoutMs: 120_000,
    };
    const w1 = startWorker({ ...common, workerId: 'w1' });
    running.push(w1);
    await eventually(() => site.held.length === 1, 60_000);
    site.answerOldest();
    // Both places are w1's: two pages held by the server.
    await eventually(() => site.held.length === 2, 60_000);
    const w2 = startWorker({ ...common, workerId: 'w2' });
    running.push(w2);
    // w2 waits for a place (w1 has no third request to make).
    await eventually(() => proxy.answers.some((a) => a.name === TAKE && a.count === 0), 60_000);
    proxy.cutAfter(GIVE_BACK, 1, 'changed');
    const mark = proxy.answers.length;
    site.answerOldest();
    // The give-back is cut and run again; then places are taken until the host is full, each
    // such request reaches the server, and a take is refused: the host is full in the database.
    const settled = (): boolean => {
      const after = proxy.answers.slice(mark);
      const cut = after.findIndex((a) => a.cut);
      const retry = after.findIndex((a, i) => i > cut && a.name === GIVE_BACK);
      const refusedAfter = after.some((a, i) => i > retry && a.name === TAKE && a.count === 0);
      const taken = after.filter((a) => a.name === TAKE && a.count > 0).length;
      return cut >= 0 && retry >= 0 && refusedAfter && site.held.length >= 1 + taken;
    };
    await eventually(settled, 60_000);
    expect(site.most(), 'requests in flight on the host at once').toBeLessThanOrEqual(2);
    site.auto();
    const ends = await Promise.all([w1.done, w2.done]);
    for (const e of ends)
      expect(e.code, e.lines.filter((l) => !l.startsWith('page')).join('\n') + e.stderr).toBe(0);
    expect(ends.map((e) => resultOf(e.lines)).filter((r) => r.worker.wroteOutput)).toHaveLength(1);
    expect(proxy.cuts).toBe(1);
    expect(site.most()).toBeLessThanOrEqual(2);
    expect([...site.hits.keys()].length).toBe(N + 1);
    expect(await placesLeft('lostgive')).toBe(0);
  }, 180_000);
});

describe('a lost answer to a batch of finished pages', () => {
  it("the retry records nothing again, and the worker's own page count still counts the batch", async () => {
    const site = await countingSite(50);
    closing.push(() => site.close());
    const proxy = await startPgProxy(pg());
    closing.push(() => proxy.close());
    // The second batch written in a transaction (the first is the start page alone): durable, its
    // COMMIT's answer lost.
    proxy.cutAfterCommit('sk_finish', 2);
    const dir = tempDir('sk-pg-batch');
    const w = startWorker({
      start: site.url,
      outDir: join(dir, 'out'),
      state: proxy.url,
      crawlId: 'lostbatch',
      workerId: 'w1',
      concurrency: 2,
      retryBaseMs: 1,
      leaseSeconds: 60,
    });
    running.push(w);
    const end = await w.done;
    expect(end.code, end.lines.filter((l) => !l.startsWith('page')).join('\n') + end.stderr).toBe(0);
    expect(proxy.cuts).toBe(1);
    // The lost COMMIT's batch was found recorded by its retry, which recorded nothing again.
    expect(proxy.answers.filter((a) => a.name === 'sk_finished_mine')).toHaveLength(1);
    // Every URL the worker finished is an event of its own (`page URL`), and in the database: the
    // pages it fetched (each a request the site saw), and apart the one robots.txt refused.
    const events = end.lines.filter((l) => l.startsWith('page ')).length;
    const { worker } = resultOf(end.lines);
    expect(worker.pages).toBe(pageHits(site).size);
    expect(worker.withoutFetch).toBe(
      end.lines.filter((l) => l.startsWith('page ') && l.includes('/private/')).length,
    );
    expect(worker.withoutFetch).toBeGreaterThan(0);
    expect(worker.pages + worker.withoutFetch).toBe(events);
    const db = await pg().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "crawl_lostbatch".urls WHERE state = 2 AND finished_by = 'w1'`,
    );
    expect(db.rows[0]!.n).toBe(events);
    expect([...pageHits(site).values()].filter((n) => n > 1)).toEqual([]);
  }, 180_000);
});
