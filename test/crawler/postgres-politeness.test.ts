/**
 * Politeness holds across the workers of a shared crawl: with `rate: 5` and four workers, the send
 * slots claimed in the database for the host are never closer than 200 ms, every request goes out
 * at or after a slot of its own (each worker prints the moment it found its slot due, on the same
 * realtime clock as the database's slots), and robots.txt is fetched once for the whole crawl, not
 * once per worker. The server runs in its own process (test/support/timed-site.mjs) and counts the
 * requests.
 *
 * What is checked is what the workers decide, not when the server reads the requests: a worker
 * found late by a loaded machine between its slot and the socket (or a database answer held up in
 * transit) can deliver two requests close together however right its decisions were, so a count of
 * arrivals per second gave a verdict that depended on the load (seven in one second, once, at load
 * 14). A request sent before its slot, or two workers sharing one slot, fails here on any machine.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openPgDb, pgTarget } from '../../src/crawler/frontier-postgres-db.js';
import { ensureCrawlSchema } from '../../src/crawler/frontier-postgres-schema.js';
import { PostgresSlots } from '../../src/crawler/frontier-postgres-slots.js';
import { usePostgres } from '../support/postgres.js';
import { startTimedSite, type TimedSite } from '../support/timed-site.js';
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
    // Each request went out at or after a slot of its own: sorted, the i-th moment a slot was found
    // due is no earlier than the i-th slot (a matching of requests to distinct earlier slots exists
    // exactly then). The page requests are the arrivals but robots.txt, which takes no slot.
    const due = ends
      .flatMap((e) => e.lines.filter((l) => l.startsWith('due ')))
      .map((l) => Number(l.split(' ')[1]))
      .sort((a, b) => a - b);
    expect(due.length).toBe(arrivals.length - 1);
    const early = due.flatMap((d, i) => (d >= slots[i]! - 1 ? [] : [{ due: d, slot: slots[i] }]));
    expect(early).toEqual([]);
    // The workers shared the pages: more than one of them fetched some.
    expect(ends.filter((e) => e.lines.some((l) => l.startsWith('page '))).length).toBeGreaterThan(1);
  });
});

describe('a worker that wakes up late for its send slot', () => {
  it('sends in none of it and claims the next free one; the late slot stays claimed and is not given back', async () => {
    const db = await openPgDb(pgTarget(pg().url, 'late_slot'), {
      size: 1,
      retryMs: 0,
      sleep: async () => undefined,
      name: 'test',
    });
    try {
      await ensureCrawlSchema(db);
      const DELAY_MS = 200;
      let sleeps = 0;
      const due: number[] = [];
      const slots = new PostgresSlots(db, {
        workerId: 'w1',
        delayMs: DELAY_MS,
        // The first wait overslept by more than half a delay, on purpose (a loaded machine's wake-up).
        sleep: (ms) => new Promise((r) => setTimeout(r, sleeps++ === 0 ? ms + 2 * DELAY_MS : ms)),
        onStep: (step) => {
          if (step === 'pg:slot-due') due.push(sleeps);
        },
      });
      const origin = 'http://late.test';
      // The first slot is due at once; the second one a delay later, which the worker oversleeps.
      await slots.claim(origin);
      await slots.claim(origin);
      // One request let out per claim, never in the overslept slot.
      expect(due).toHaveLength(2);
      const rows = await db.query<{ ms: number }>(
        'read the slots',
        `SELECT (extract(epoch FROM at) * 1000)::float8 AS ms FROM sends WHERE origin = $1 ORDER BY at`,
        [origin],
      );
      // The first slot, the one overslept (still claimed), and one or more after it (a loaded
      // machine may oversleep again): each a delay after the one before.
      expect(rows.length).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < rows.length; i++)
        expect(rows[i]!.ms - rows[i - 1]!.ms).toBeGreaterThanOrEqual(DELAY_MS - 0.001);
      // The host's next slot stays one delay past the last one claimed: nothing was moved back.
      const [host] = await db.query<{ ms: number }>(
        'read the host',
        'SELECT (extract(epoch FROM next_at) * 1000)::float8 AS ms FROM hosts WHERE origin = $1',
        [origin],
      );
      expect(host!.ms - rows.at(-1)!.ms).toBeCloseTo(DELAY_MS, 3);
    } finally {
      await db.close();
    }
  });
});
