/**
 * Politeness holds across the workers of a shared crawl: with `rate: 5` and four workers, the send
 * slots claimed in the database for the host are never closer than 200 ms, the server sees no more
 * than six requests in any one-second window (one of slack for arrival jitter), and robots.txt is
 * fetched once for the whole crawl, not once per worker.
 */
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type Answer, type Route, startServer, type TestServer } from '../support/http-server.js';
import { usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { resultOf, siteRoutes, startWorker } from './postgres-helpers.js';

const pg = usePostgres();
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The routes, answered by handlers that note when each request arrived. */
function timed(routes: Record<string, Route>, arrivals: number[]): Record<string, Route> {
  const out: Record<string, Route> = {};
  for (const [path, route] of Object.entries(routes)) {
    const a = route as Answer;
    out[path] = (_req, res: ServerResponse) => {
      arrivals.push(performance.now());
      res.writeHead(a.status ?? 200, a.headers ?? {});
      res.end(a.body);
    };
  }
  return out;
}

describe('politeness shared by the workers of a crawl', () => {
  it('keeps one host at rate 5 over four workers, and fetches its robots.txt once', async () => {
    const arrivals: number[] = [];
    const site = await startServer(timed(siteRoutes(30), arrivals));
    servers.push(site);
    const dir = tempDir('sk-pgp');
    const workers = [1, 2, 3, 4].map((i) =>
      startWorker({
        start: site.url,
        outDir: join(dir, 'out'),
        state: pg().url,
        crawlId: 'polite',
        workerId: `w${i}`,
        rate: 5,
        concurrency: 2,
        retryBaseMs: 1,
      }),
    );
    const ends = await Promise.all(workers.map((w) => w.done));
    for (const e of ends) expect(e.code, e.stderr).toBe(0);
    expect(ends.map((e) => resultOf(e.lines)).filter((r) => r.worker.wroteOutput)).toHaveLength(1);
    expect(site.hits('/robots.txt')).toBe(1);
    const slots = (
      await pg().query<{ ms: number }>(
        `SELECT (extract(epoch FROM at) * 1000)::float8 AS ms FROM crawl_polite.sends WHERE origin = $1 ORDER BY at`,
        [site.origin],
      )
    ).rows.map((r) => r.ms);
    // A slot per page request (robots.txt takes none), and one more for each slot a worker woke up
    // too late to use.
    expect(slots.length).toBeGreaterThanOrEqual(site.requests.length - 1);
    const gaps = slots.slice(1).map((t, i) => t - slots[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(199.999);
    arrivals.sort((a, b) => a - b);
    let most = 0;
    for (let i = 0; i < arrivals.length; i++) {
      let j = i;
      while (j + 1 < arrivals.length && arrivals[j + 1]! - arrivals[i]! < 1000) j++;
      most = Math.max(most, j - i + 1);
    }
    expect(most).toBeLessThanOrEqual(6);
    // The workers shared the pages: more than one of them fetched some.
    expect(ends.filter((e) => e.lines.some((l) => l.startsWith('page '))).length).toBeGreaterThan(1);
  });
});
