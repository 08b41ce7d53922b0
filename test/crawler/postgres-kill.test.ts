/**
 * kill -9 of one worker of a shared crawl, at each fault-injection point (after a claim, mid-fetch,
 * before and after a batch commit) and at seeded random moments: the other workers finish, nothing
 * is lost once the killed worker's claims expire (every page is recorded and the sitemap is the
 * single-process crawl's), and the pages fetched twice are among those the killed worker had
 * claimed and not committed. The killed worker freezes at its step (it blocks its thread there and
 * says so) and is killed by the test; the others start only after, so every case hits its window
 * on every run, whatever the load.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import { startServer, type TestServer } from '../support/http-server.js';
import { eventually, usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { pageHits, resultOf, sitemapUrls, siteRoutes, startWorker } from './postgres-helpers.js';

const PAGES = 60;
const STEPS = ['pg:claimed', 'pg:mid-fetch', 'pg:before-commit', 'pg:after-commit'] as const;
/**
 * Which time of each step the killed worker freezes at: a commit's first two times are the
 * seeding's (the start URLs), so the fourth is a batch of pages. A worker crawling the site alone
 * reaches each of them (and the seeded ones, up to the fifth) on every run.
 */
const NTH: Record<(typeof STEPS)[number], number> = {
  'pg:claimed': 2,
  'pg:mid-fetch': 3,
  'pg:before-commit': 4,
  'pg:after-commit': 4,
};

const pg = usePostgres();
let reference: string[] = [];
let refServer: TestServer | undefined;
const dir = tempDir('sk-pgk');

beforeAll(async () => {
  refServer = await startServer(siteRoutes(PAGES));
  await crawl({ start: refServer.url, outDir: join(dir, 'reference'), retryBaseMs: 1 });
  reference = sitemapUrls(join(dir, 'reference')).map((u) => u.replaceAll(refServer!.origin, 'ORIGIN'));
});
afterAll(async () => {
  await refServer?.close();
});

/** The URLs of a worker's `step NAME URLS` lines. */
function stepUrls(lines: readonly string[], step: string): Set<string> {
  const urls = new Set<string>();
  for (const l of lines) {
    if (!l.startsWith(`step ${step} `)) continue;
    for (const u of JSON.parse(l.slice(`step ${step} `.length)) as string[]) urls.add(u);
  }
  return urls;
}

async function killCase(id: string, pauseAt: string): Promise<void> {
  const site = await startServer(siteRoutes(PAGES));
  try {
    const common = {
      start: site.url,
      outDir: join(dir, id),
      state: pg().url,
      crawlId: id,
      concurrency: 2,
      retryBaseMs: 1,
    };
    // The killed worker crawls alone until it reaches its step, where it freezes and says so: the
    // window is hit on every run, however the machine schedules the processes. Only then is it
    // killed and are the others started, so what it had claimed and not committed is still to do.
    // Its claims expire soon; the others' never within the test, however loaded the machine.
    const killed = startWorker({ ...common, workerId: 'killed', leaseSeconds: 2 }, { PAUSE_AT: pauseAt });
    await eventually(
      () =>
        killed.lines.includes(`paused ${pauseAt}`) ||
        killed.child.exitCode !== null ||
        killed.child.signalCode !== null,
      120_000,
    );
    if (killed.lines.includes(`paused ${pauseAt}`)) killed.child.kill('SIGKILL');
    const k = await killed.done;
    expect(
      k.signal,
      `${pauseAt}: ${k.lines.filter((l) => !l.startsWith('page')).join('\n')}${k.stderr}`,
    ).toBe('SIGKILL');
    const others = [1, 2, 3].map((i) => startWorker({ ...common, workerId: `w${i}`, leaseSeconds: 120 }));
    const ends = await Promise.all(others.map((w) => w.done));
    for (const e of ends) expect(e.code, e.stderr).toBe(0);
    expect(ends.map((e) => resultOf(e.lines)).filter((r) => r.worker.wroteOutput)).toHaveLength(1);
    // Nothing lost: the same sitemap as the crawl of one process, every URL recorded.
    expect(sitemapUrls(join(dir, id)).map((u) => u.replaceAll(site.origin, 'ORIGIN'))).toEqual(reference);
    const left = await pg().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "crawl_${id}".urls WHERE state < 2`,
    );
    expect(left.rows[0]!.n).toBe(0);
    // Fetched twice only what the killed worker claimed and had not committed.
    const claimed = stepUrls(k.lines, 'pg:claimed');
    const committed = stepUrls(k.lines, 'pg:after-commit');
    const twice = [...pageHits(site)].filter(([, n]) => n > 1).map(([p]) => `${site.origin}${p}`);
    for (const url of twice) {
      expect(claimed.has(url) && !committed.has(url), `${pauseAt}: ${url} fetched twice`).toBe(true);
    }
    // Every fetched page was fetched once more at most.
    expect(Math.max(...pageHits(site).values())).toBeLessThanOrEqual(2);
  } finally {
    await site.close();
  }
}

/** A small seeded generator (mulberry32): the random moments are the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('kill -9 of one worker of a shared crawl', () => {
  for (const step of STEPS) {
    it(`at ${step}: the others finish, nothing is lost, only its uncommitted claims are fetched twice`, async () => {
      await killCase(`kill_${step.slice(3).replace('-', '_')}`, `${step}:${NTH[step]}`);
    });
  }
  const random = seeded(42);
  for (let i = 0; i < 2; i++) {
    const step = STEPS[Math.floor(random() * STEPS.length)]!;
    const n = 1 + Math.floor(random() * 5);
    it(`at a seeded random moment (${step} #${n})`, async () => {
      await killCase(`kill_random_${i}`, `${step}:${n}`);
    });
  }
});
