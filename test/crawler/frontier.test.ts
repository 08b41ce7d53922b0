// The SQLite frontier on its own: an in-memory state for the queue rules, a file for resume.
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Admission, Admit, Found, Lease } from '../../src/crawler/frontier.js';
import { SqliteFrontier } from '../../src/crawler/frontier-sqlite.js';
import { SEED_DEPTH } from '../../src/crawler/records.js';
import { CrawlState } from '../../src/crawler/state.js';
import { tempDir } from '../support/tmp.js';

const open: CrawlState[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

async function memory(maxDepth = 10): Promise<{ state: CrawlState; frontier: SqliteFrontier }> {
  const state = await CrawlState.open(':memory:', 'new');
  open.push(state);
  return { state, frontier: new SqliteFrontier(state, { maxDepth }) };
}

const queue: Admit = () => ({ kind: 'queued' });
const link = (url: string, depth: number): Found => ({ url, depth, source: 'link' });
const u = (path: string): string => `https://example.com${path}`;

describe('SqliteFrontier', () => {
  it('leases nearest to the start first, never twice, and counts what a commit queued', async () => {
    const { frontier } = await memory();
    frontier.add([link(u('/deep'), 3), link(u('/a'), 1), link(u('/b'), 1), link(u('/'), 0)], queue);
    expect(await frontier.commit()).toMatchObject({ queued: 4, finished: 0, requeued: 0, external: 0 });
    const first = await frontier.lease(3);
    expect(first.map((l) => l.url)).toEqual([u('/'), u('/a'), u('/b')]);
    expect((await frontier.lease(10)).map((l) => l.url)).toEqual([u('/deep')]);
    expect(await frontier.lease(10)).toEqual([]);
    expect(await frontier.counts()).toMatchObject({ queued: 0, done: 0, total: 4 });
  });

  it('finishing a page records its outcome and the URLs it leads to, each once', async () => {
    const { state, frontier } = await memory();
    frontier.add([link(u('/'), 0)], queue);
    await frontier.commit();
    const [home] = await frontier.lease(1);
    const admit: Admit = (f) =>
      f.url.includes('elsewhere')
        ? { kind: 'external' }
        : f.url.endsWith('/private')
          ? { kind: 'finished', outcome: { verdict: 'excluded', reason: 'excluded by --exclude' } }
          : { kind: 'queued' };
    frontier.finish(
      home!,
      { verdict: 'listed', status: 200, attempts: 1 },
      [
        link(u('/a'), 1),
        link(u('/a'), 1),
        link(u('/private'), 1),
        link('https://elsewhere.example/x', 1),
        link(u('/'), 1),
      ],
      admit,
    );
    expect(await frontier.commit()).toMatchObject({ queued: 1, finished: 1, external: 1, requeued: 0 });
    expect(state.find(u('/'))).toMatchObject({ verdict: 'listed', state: 2, attempts: 1 });
    expect(state.find(u('/private'))).toMatchObject({ verdict: 'excluded', state: 2 });
    expect(state.find('https://elsewhere.example/x')).toBeUndefined();
    const a = state.find(u('/a'))!;
    expect(a).toMatchObject({ state: 0, depth: 1, via: home!.id, source: 'link' });
    expect(state.inlinkCount(a.id)).toBe(1);
    // A page linking to itself records no link.
    expect(state.inlinkCount(home!.id)).toBe(0);
    // Nothing to commit: an empty summary.
    expect(await frontier.commit()).toMatchObject({ queued: 0, finished: 0, external: 0, trapped: [] });
  });

  it('an external URL named several times by a page counts that many external links', async () => {
    const { state, frontier } = await memory();
    const admit: Admit = (f) => (f.url.includes('elsewhere') ? { kind: 'external' } : { kind: 'queued' });
    frontier.add(
      [
        { ...link('https://elsewhere.example/x', 1), times: 3 },
        { ...link(u('/a'), 1), times: 2 },
      ],
      admit,
    );
    expect(await frontier.commit()).toMatchObject({ external: 3, queued: 1 });
    expect(state.find(u('/a'))).toMatchObject({ state: 0 });
  });

  it('a pattern cap turns the URLs over it into traps, and says which', async () => {
    const { state, frontier } = await memory();
    const capped: Admit = () => ({
      kind: 'queued',
      cap: { key: '/list?page', max: 2, over: { verdict: 'trap', reason: 'over the cap' } },
    });
    frontier.add(
      [1, 2, 3, 4].map((n) => link(u(`/list?page=${n}`), 1)),
      capped,
    );
    const c = await frontier.commit();
    expect(c).toMatchObject({ queued: 2, finished: 2 });
    expect(c.trapped).toEqual([
      { key: '/list?page', url: u('/list?page=3') },
      { key: '/list?page', url: u('/list?page=4') },
    ]);
    expect(state.find(u('/list?page=4'))).toMatchObject({ verdict: 'trap', reason: 'over the cap' });
  });

  it('a URL left out as too deep and found again within the limit is queued again, at the smaller depth', async () => {
    const { state, frontier } = await memory(1);
    const tooDeep: Admit = (f) =>
      f.depth > 1
        ? { kind: 'finished', outcome: { verdict: 'too-deep', reason: 'too deep' } }
        : { kind: 'queued' };
    frontier.add([link(u('/x'), 2)], tooDeep);
    expect(await frontier.commit()).toMatchObject({ finished: 1 });
    frontier.add([link(u('/x'), 1)], tooDeep);
    expect(await frontier.commit()).toMatchObject({ requeued: 1, queued: 0 });
    expect(state.find(u('/x'))).toMatchObject({ state: 0, depth: 1, verdict: null });
    expect((await frontier.lease(5)).map((l) => [l.url, l.depth])).toEqual([[u('/x'), 1]]);
  });

  it('a queued URL found closer to the start takes the smaller depth', async () => {
    const { frontier } = await memory();
    frontier.add([link(u('/far'), 5)], queue);
    frontier.add([link(u('/near'), 2), link(u('/far'), 1)], queue);
    await frontier.commit();
    expect((await frontier.lease(5)).map((l) => [l.url, l.depth])).toEqual([
      [u('/far'), 1],
      [u('/near'), 2],
    ]);
  });

  it('sitemap seeds wait behind every link-found URL and are leased as entry points (depth 0)', async () => {
    const { frontier } = await memory();
    const seed = (url: string): Found => ({ url, depth: SEED_DEPTH, source: 'sitemap' });
    frontier.add([seed(u('/orphan')), seed(u('/linked'))], queue);
    frontier.add([link(u('/'), 0)], queue);
    await frontier.commit();
    const [home] = await frontier.lease(10);
    expect(home!.url).toBe(u('/'));
    expect(await frontier.lease(10)).toEqual([]);
    frontier.finish(home!, { verdict: 'listed' }, [link(u('/linked'), 1)], queue);
    await frontier.commit();
    expect((await frontier.lease(10)).map((l) => [l.url, l.depth])).toEqual([[u('/linked'), 1]]);
    expect((await frontier.leaseSeeds(10)).map((l) => [l.url, l.depth])).toEqual([[u('/orphan'), 0]]);
    expect(await frontier.leaseSeeds(10)).toEqual([]);
  });

  it('requeue puts what was leased and not finished back', async () => {
    const { frontier } = await memory();
    frontier.add([link(u('/a'), 1), link(u('/b'), 1)], queue);
    await frontier.commit();
    const [a, b] = await frontier.lease(2);
    frontier.finish(a!, { verdict: 'listed' }, [], queue);
    await frontier.commit();
    await frontier.requeue();
    expect(await frontier.counts()).toMatchObject({ queued: 1, done: 1 });
    expect((await frontier.lease(5)).map((l) => l.url)).toEqual([b!.url]);
  });

  it('resume: what was finished and committed stays done; what was leased is queued again', async () => {
    const path = join(tempDir('sk-frontier'), 'state.db');
    const state = await CrawlState.open(path, 'new');
    const frontier = new SqliteFrontier(state, { maxDepth: 10 });
    await frontier.setMeta('start', '["x"]');
    frontier.add([link(u('/a'), 1), link(u('/b'), 1), link(u('/c'), 1)], queue);
    await frontier.commit();
    const [a] = await frontier.lease(2);
    frontier.finish(a!, { verdict: 'listed', attempts: 1 }, [], queue);
    await frontier.commit();
    state.close();
    const again = await CrawlState.open(path, 'resume');
    open.push(again);
    const resumed = new SqliteFrontier(again, { maxDepth: 10 });
    expect(await resumed.getMeta('start')).toBe('["x"]');
    expect(await resumed.counts()).toMatchObject({ queued: 2, done: 1, fetched: 1, listed: 1 });
    expect((await resumed.lease(5)).map((l) => l.url)).toEqual([u('/b'), u('/c')]);
  });

  it('whatever order links arrive in: one row per URL, at its smallest depth, leased nearest first (property)', async () => {
    const paths = fc.constantFrom('/a', '/b', '/c', '/d', '/e', '/f');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(paths, fc.integer({ min: 0, max: 5 })), { minLength: 1, maxLength: 30 }),
        async (links) => {
          const state = await CrawlState.open(':memory:', 'new');
          try {
            const frontier = new SqliteFrontier(state, { maxDepth: 10 });
            const seen: Admission[] = [];
            const admit: Admit = () => {
              const a: Admission = { kind: 'queued' };
              seen.push(a);
              return a;
            };
            for (const [p, d] of links) frontier.add([link(u(p), d)], admit);
            const c = await frontier.commit();
            const expected = new Map<string, number>();
            for (const [p, d] of links) expected.set(u(p), Math.min(d, expected.get(u(p)) ?? d));
            // admit is asked once per new URL, and only for those.
            expect(seen).toHaveLength(expected.size);
            expect(c.queued).toBe(expected.size);
            const leased: Lease[] = await frontier.lease(100);
            expect(new Map(leased.map((l) => [l.url, l.depth]))).toEqual(expected);
            const depths = leased.map((l) => l.depth);
            expect(depths).toEqual([...depths].sort((x, y) => x - y));
          } finally {
            state.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
