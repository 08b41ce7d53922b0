/**
 * The per-host limit is shared by the workers of a crawl: with `hostConcurrency: 2` and four
 * workers of concurrency 2 each, the server never has more than two requests in flight, and every
 * page is still fetched. The server counts the requests it holds (each answered after a short
 * pause, so that requests overlap when nothing stops them). A dead worker's places (its heartbeat
 * older than its lease) do not count: a killed worker does not hold a host forever.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPgDb, pgTarget } from '../../src/crawler/frontier-postgres-db.js';
import { ensureCrawlSchema } from '../../src/crawler/frontier-postgres-schema.js';
import { usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { resultOf, startWorker } from './postgres-helpers.js';

const PAGES = 40;
const pg = usePostgres();
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** A site of PAGES pages whose server records the most requests it held at once. */
async function countingSite(): Promise<{ origin: string; most: () => number; hits: Map<string, number> }> {
  let now = 0;
  let most = 0;
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    now++;
    most = Math.max(most, now);
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    setTimeout(() => {
      // Counted out before the answer leaves: the client frees its place only after it has it.
      now--;
      if (path === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
        return;
      }
      const i = path === '/' ? 0 : Number(path.slice(3));
      const links = [(i * 7 + 1) % PAGES, (i + 1) % PAGES].map((j) => `<a href="/p/${j}">${j}</a>`).join(' ');
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><title>Page ${i}</title>${links}`);
    }, 15);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, most: () => most, hits };
}

describe('per-host concurrency shared by the workers of a crawl', () => {
  it('keeps one host at two requests in flight over four workers of concurrency 2', async () => {
    const site = await countingSite();
    const dir = tempDir('sk-pgc');
    const workers = [1, 2, 3, 4].map((i) =>
      startWorker({
        start: `${site.origin}/`,
        outDir: join(dir, 'out'),
        state: pg().url,
        crawlId: 'hostlimit',
        workerId: `w${i}`,
        concurrency: 2,
        hostConcurrency: 2,
        retryBaseMs: 1,
      }),
    );
    const ends = await Promise.all(workers.map((w) => w.done));
    for (const e of ends)
      expect(e.code, e.stderr + e.lines.filter((l) => !l.startsWith('page')).join('\n')).toBe(0);
    expect(ends.map((e) => resultOf(e.lines)).filter((r) => r.worker.wroteOutput)).toHaveLength(1);
    expect(site.most()).toBeLessThanOrEqual(2);
    // Every page fetched: /p/0 is not linked to as `/`, so it is a page of its own.
    expect([...site.hits.keys()].filter((p) => p.startsWith('/p/') || p === '/').length).toBe(PAGES + 1);
    const left = await pg().query<{ n: number }>('SELECT count(*)::int AS n FROM "crawl_hostlimit".places');
    expect(left.rows[0]!.n).toBe(0);
  }, 180_000);

  it("does not count the places of a worker whose lease expired (a killed worker's)", async () => {
    const site = await countingSite();
    const dir = tempDir('sk-pgc-dead');
    const db = await openPgDb(pgTarget(pg().url, 'hostdead'), {
      size: 1,
      retryMs: 0,
      sleep: async () => undefined,
      name: 'test',
    });
    try {
      await ensureCrawlSchema(db);
    } finally {
      await db.close();
    }
    // A worker killed while it held both places of the host, its heartbeat a minute old.
    await pg().query(
      `INSERT INTO "crawl_hostdead".workers (id, host, pid, lease_seconds, heartbeat)
       VALUES ('dead', 'gone', 1, 2, now() - interval '1 minute')`,
    );
    await pg().query(`INSERT INTO "crawl_hostdead".places VALUES ('dead', 1, $1), ('dead', 2, $1)`, [
      site.origin,
    ]);
    const w = await startWorker({
      start: `${site.origin}/`,
      outDir: join(dir, 'out'),
      state: pg().url,
      crawlId: 'hostdead',
      workerId: 'alive',
      concurrency: 2,
      hostConcurrency: 2,
      retryBaseMs: 1,
    }).done;
    expect(w.code, w.stderr).toBe(0);
    expect(resultOf(w.lines)).toMatchObject({ complete: true, worker: { wroteOutput: true } });
    expect(site.hits.size).toBeGreaterThan(PAGES);
    expect(site.most()).toBeLessThanOrEqual(2);
  }, 180_000);
});
