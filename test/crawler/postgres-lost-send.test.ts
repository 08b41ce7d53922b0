/**
 * A shared crawl's send slot whose claim's answer was lost: the claim committed (the host's next
 * slot moved one delay on), and the worker sees a lost connection instead of its answer
 * (test/support/pg-proxy.ts cuts the connection right there, on purpose). The retry must wait for
 * the slot its lost try claimed, not claim a second one: a second claim leaves the first slot
 * unused and the host waits twice the configured delay. The spacing is measured by the site in
 * its own process (test/support/timed-site.ts); the delay is long (2 s) beside what a loaded
 * machine adds, and a double claim adds a whole delay.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startPgProxy } from '../support/pg-proxy.js';
import { usePostgres } from '../support/postgres.js';
import { startTimedSite, type TimedSite } from '../support/timed-site.js';
import { tempDir } from '../support/tmp.js';
import { resultOf, startWorker, type WorkerRun } from './postgres-helpers.js';

const pg = usePostgres();
const running: WorkerRun[] = [];
const sites: TimedSite[] = [];
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const w of running.splice(0)) if (w.child.exitCode === null) w.child.kill('SIGKILL');
  for (const s of sites.splice(0)) s.close();
  await Promise.all(closing.splice(0).map((close) => close()));
});

const DELAY_MS = 2000;
/** What a loaded machine may add to one spacing; a double claim adds a whole delay. */
const SLACK_MS = 1500;

describe('a lost answer to a send slot’s claim', () => {
  it('the retry waits for the slot its lost try claimed: the host never waits two delays', async () => {
    // Three pages: `/` (whose slot is the first claim), then /p/1 and /p/2.
    const site = await startTimedSite(3);
    sites.push(site);
    const proxy = await startPgProxy(pg());
    closing.push(() => proxy.close());
    // The second claim (for the second page): committed, its answer lost.
    proxy.cutAfter('sk_claim_send', 2);
    const dir = tempDir('sk-pg-send');
    const w = startWorker({
      start: `${site.origin}/`,
      outDir: join(dir, 'out'),
      state: proxy.url,
      crawlId: 'lostsend',
      workerId: 'w1',
      concurrency: 1,
      rate: 1000 / DELAY_MS,
      retryBaseMs: 1,
      leaseSeconds: 60,
    });
    running.push(w);
    const end = await w.done;
    expect(end.code, end.lines.filter((l) => !l.startsWith('page')).join('\n') + end.stderr).toBe(0);
    expect(resultOf(end.lines)).toMatchObject({ complete: true, worker: { wroteOutput: true } });
    expect(proxy.cuts).toBe(1);
    // The retry found the slot its lost try had claimed.
    expect(proxy.answers.filter((a) => a.name === 'sk_send_held').map((a) => a.count)).toEqual([1]);
    // robots.txt first (no slot), then the three pages, one slot each.
    const arrivals = (await site.arrivals()).sort((a, b) => a.at - b.at).slice(1);
    expect(arrivals).toHaveLength(3);
    // The shortest each spacing can have been, however the arrivals lie in their intervals.
    const gaps = arrivals.slice(1).map((a, i) => a.after - arrivals[i]!.at);
    expect(Math.max(...gaps), `spacings ${gaps.map(Math.round).join(', ')} ms`).toBeLessThanOrEqual(
      DELAY_MS + SLACK_MS,
    );
    // A slot per page, none claimed twice.
    const slots = await pg().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM crawl_lostsend.sends WHERE token IS NOT NULL',
    );
    expect(slots.rows[0]!.n).toBeGreaterThanOrEqual(3);
  }, 120_000);
});
