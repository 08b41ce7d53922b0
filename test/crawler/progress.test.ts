import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { progressText, resumeCommand } from '../../src/cli/crawl-lines.js';
import { estimateRate, formatEta, type RateSample, RateWindow } from '../../src/cli/progress.js';
import { crawl } from '../../src/crawler/crawl.js';
import type { CrawlProgress } from '../../src/crawler/options.js';
import { html, type Route, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Samples in time order with non-decreasing counts: steps of (ms, items). */
const stepsArb = fc.array(fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 0, max: 500 })), {
  minLength: 1,
  maxLength: 60,
});

function samplesOf(steps: ReadonlyArray<readonly [number, number]>, offset = 0, t0 = 0): RateSample[] {
  const out: RateSample[] = [{ at: t0, done: offset }];
  let at = t0;
  let done = offset;
  for (const [dt, dn] of steps) {
    at += dt;
    done += dn;
    out.push({ at, done });
  }
  return out;
}

describe('crawl progress: the rate over a sliding window (defect 4)', () => {
  it('a resumed run (thousands done before it started) shows the rate of this run, not an inflated one', () => {
    fc.assert(
      fc.property(stepsArb, fc.integer({ min: 1, max: 10_000_000 }), fc.nat(1000), (steps, offset, left) => {
        const fresh = estimateRate(samplesOf(steps), left);
        const resumed = estimateRate(samplesOf(steps, offset), left);
        expect(resumed.rate).toBeCloseTo(fresh.rate, 6);
        expect(resumed.etaSeconds === undefined).toBe(fresh.etaSeconds === undefined);
      }),
    );
    // The first progress event of a resumed run: no rate yet, rather than 10,000 pages in 1 ms.
    expect(estimateRate([{ at: 1, done: 10_000 }], 50)).toEqual({ rate: 0, etaSeconds: undefined });
  });

  it('a steady rate is measured as that rate, and the ETA is what is left at that rate', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 10, max: 2000 }),
        fc.integer({ min: 2, max: 100 }),
        fc.nat(100_000),
        (perSecond, stepMs, n, left) => {
          const samples = Array.from({ length: n }, (_, i) => ({
            at: i * stepMs,
            done: (i * stepMs * perSecond) / 1000,
          }));
          const e = estimateRate(samples, left);
          expect(e.rate).toBeCloseTo(perSecond, 6);
          expect(e.etaSeconds).toBeCloseTo(left / perSecond, 6);
        },
      ),
    );
  });

  it('only the window counts: a fast start does not hide a slowdown, and the ETA follows the queue', () => {
    fc.assert(
      fc.property(
        stepsArb,
        stepsArb,
        fc.integer({ min: 1, max: 30_000 }),
        fc.nat(1000),
        (old, recent, stallMs, left) => {
          const before = samplesOf(old);
          const t0 = before.at(-1)!.at;
          const done = before.at(-1)!.done;
          // A stall longer than the window: nothing finished in it, whatever the start was like.
          const stalled = [...before, { at: t0 + 10_000 + stallMs, done }];
          expect(estimateRate(stalled, left, 10_000)).toEqual({ rate: 0, etaSeconds: undefined });
          // Once a sample lies at or before the window's start, what came before it is forgotten.
          const tail = samplesOf(recent, done + 1, t0 + 1);
          const lastAt = tail.at(-1)!.at;
          const k = tail.findLastIndex((x) => x.at <= lastAt - 10_000);
          if (k >= 0) {
            const a = estimateRate([...before, ...tail], left, 10_000);
            const b = estimateRate(tail.slice(k), left, 10_000);
            expect(a.rate).toBeCloseTo(b.rate, 9);
          }
        },
      ),
    );
    fc.assert(
      fc.property(stepsArb, fc.nat(1000), fc.nat(1000), (steps, a, b) => {
        const s = samplesOf(steps);
        const e1 = estimateRate(s, Math.min(a, b));
        const e2 = estimateRate(s, Math.max(a, b));
        expect(e1.rate).toBe(e2.rate);
        if (e1.etaSeconds !== undefined) expect(e1.etaSeconds).toBeLessThanOrEqual(e2.etaSeconds!);
      }),
    );
  });

  it('the RateWindow keeps only what the estimate needs and gives the same answer as the full history', () => {
    fc.assert(
      fc.property(stepsArb, fc.integer({ min: 100, max: 20_000 }), fc.nat(1000), (steps, windowMs, left) => {
        const all = samplesOf(steps);
        const w = new RateWindow(windowMs);
        for (const s of all) w.add(s);
        const a = w.estimate(left);
        const b = estimateRate(all, left, windowMs);
        expect(a.rate).toBeCloseTo(b.rate, 9);
        expect(a.etaSeconds === undefined ? undefined : Math.round(a.etaSeconds * 1e6)).toBe(
          b.etaSeconds === undefined ? undefined : Math.round(b.etaSeconds * 1e6),
        );
      }),
    );
  });

  it('the terminal line and the log line carry the same fields: done, queued now, rate, errors, ETA', () => {
    const p: CrawlProgress = {
      done: 812,
      queued: 358,
      requests: 815,
      listed: 790,
      errors: 2,
      inFlight: 4,
      elapsedMs: 2000,
    };
    const est = { rate: 179, etaSeconds: 2 };
    expect(progressText(p, est, 'tty')).toBe(
      '812 done · 358 queued · 790 listed · 2 errors · 179/s · ETA 2s',
    );
    expect(progressText(p, est, 'log')).toBe(
      'crawl progress done=812 queued=358 listed=790 errors=2 requests=815 rate=179.0/s eta=2s',
    );
    expect(progressText(p, { rate: 0, etaSeconds: undefined }, 'log')).toMatch(/rate=0\.0\/s eta=\?$/);
    // A shared crawl's queue beyond its counted bound is an estimate, and says so.
    expect(progressText({ ...p, queued: 2_500_000 }, est, 'tty', true)).toContain('· ~2,500,000 queued ·');
    expect(progressText({ ...p, queued: 2_500_000 }, est, 'log', true)).toContain(' queued=~2500000 ');
    expect(formatEta(125)).toBe('2m 05s');
    expect(formatEta(3725)).toBe('1h 02m');
  });

  it('"queued" is the queue now: it falls as pages finish and is 0 when the crawl is done', async () => {
    const routes: Record<string, Route> = { '/robots.txt': { status: 404 } };
    routes['/'] = html('Home', Array.from({ length: 12 }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
    for (let i = 0; i < 12; i++) routes[`/p${i}`] = html(`P${i}`, '<a href="/">home</a>');
    const s = await startServer(routes);
    servers.push(s);
    const dir = tempDir('sk-crawl-progress');
    const seen: CrawlProgress[] = [];
    let t = 0;
    await crawl({
      start: `${s.origin}/`,
      outDir: join(dir, 'out'),
      state: join(dir, 'state.db'),
      report: false,
      concurrency: 1,
      now: () => (t += 10),
      onProgress: (p) => seen.push({ ...p }),
    });
    expect(seen.at(-1)).toMatchObject({ done: 13, queued: 0 });
    // The home page's twelve links are queued when its page is committed, after its own event;
    // from then on, with one request at a time, every finished page takes one off the queue.
    expect(seen.map((p) => p.queued)).toEqual([0, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
  });
});

describe('the resume command printed on Ctrl-C', () => {
  it('repeats the arguments with --resume, hiding header values and URL passwords', () => {
    expect(
      resumeCommand([
        'crawl',
        'https://user:s3cret@staging.example.com/',
        '--out',
        'dist/',
        '--header',
        'Authorization: Bearer abc',
        '--header=X-Preview: 1',
        '--fresh',
      ]),
    ).toBe(
      "sitemapkit crawl 'https://user:<hidden>@staging.example.com/' --out dist/ --header 'Authorization: <hidden>' '--header=X-Preview: <hidden>' --resume",
    );
    expect(resumeCommand(['crawl', 'https://example.com/', '--out', 'dist/'])).toBe(
      'sitemapkit crawl https://example.com/ --out dist/ --resume',
    );
  });

  it('hides the password of a PostgreSQL store, given apart or with =', () => {
    const printed = resumeCommand([
      'crawl',
      'https://example.com/',
      '--store',
      'postgres://u:s3cret@db.example.com/site?schema=s',
      '--store=postgresql://u:s3cret@db/site',
      '--fresh',
    ]);
    expect(printed).not.toContain('s3cret');
    expect(printed).toBe(
      "sitemapkit crawl https://example.com/ --store 'postgres://u:<hidden>@db.example.com/site?schema=s' '--store=postgresql://u:<hidden>@db/site' --resume",
    );
  });
});
