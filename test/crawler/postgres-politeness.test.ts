/**
 * Politeness holds across the workers of a shared crawl: with `rate: 5` and four workers, the send
 * slots claimed in the database for the host are never closer than 200 ms, the server sees no more
 * than six requests in any one-second window (one of slack for arrival jitter), and robots.txt is
 * fetched once for the whole crawl, not once per worker. The server runs in its own process
 * (test/support/timed-site.mjs), so that this process's work never bunches the arrivals it stamps;
 * and since a loaded machine can still keep the server itself off the CPU (and have it read
 * requests that arrived far apart at one moment), each arrival is known to lie between the last
 * time the server was seen running and the time it read the request: seven arrivals are a
 * violation only when they fall within one second however they lie in those intervals. On an idle
 * machine the intervals are a millisecond wide and the check is the plain one.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { usePostgres } from '../support/postgres.js';
import { bursts, startTimedSite, type TimedSite } from '../support/timed-site.js';
import { tempDir } from '../support/tmp.js';
import { resultOf, startWorker } from './postgres-helpers.js';

const pg = usePostgres();
const sites: TimedSite[] = [];
afterEach(() => {
  for (const s of sites.splice(0)) s.close();
});

describe('politeness shared by the workers of a crawl', () => {
  it('keeps one host at rate 5 over four workers, and fetches its robots.txt once', async () => {
    const site = await startTimedSite(30);
    sites.push(site);
    const origin = site.origin;
    const dir = tempDir('sk-pgp');
    const workers = [1, 2, 3, 4].map((i) =>
      startWorker({
        start: `${origin}/`,
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
    const arrivals = (await site.arrivals()).sort((a, b) => a.at - b.at);
    const pages = ends.reduce((a, e) => a + e.lines.filter((l) => l.startsWith('page ')).length, 0);
    // One request per finished page but /private/x, which robots.txt refuses, and one robots.txt request.
    expect(arrivals.length).toBe(pages);
    const slots = (
      await pg().query<{ ms: number }>(
        `SELECT (extract(epoch FROM at) * 1000)::float8 AS ms FROM crawl_polite.sends WHERE origin = $1 ORDER BY at`,
        [origin],
      )
    ).rows.map((r) => r.ms);
    // A slot per page request, and one more for each slot a worker woke up too late to use.
    expect(slots.length).toBeGreaterThanOrEqual(arrivals.length - 1);
    const gaps = slots.slice(1).map((t, i) => t - slots[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(199.999);
    // Seven in a row that must lie within one second: the seventh read at most a second after the
    // earliest moment the first can have arrived.
    expect(bursts(arrivals)).toEqual([]);
    // The workers shared the pages: more than one of them fetched some.
    expect(ends.filter((e) => e.lines.some((l) => l.startsWith('page '))).length).toBeGreaterThan(1);
  });
});
