// The link graph's staged writes (src/crawler/state-links.ts): rows go to an append-only log and
// are merged into `links` in bulk. Whatever the order of pages, commits and merges, what the state
// reads (inlink counts, referrers, the report's column) is the set of (target, source) pairs the
// pages named; and links committed but never merged (the process killed with SIGKILL) are there
// when the state is opened again.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Admit, Lease } from '../../src/crawler/frontier.js';
import { SqliteFrontier } from '../../src/crawler/frontier-sqlite.js';
import { CrawlState } from '../../src/crawler/state.js';
import { tempDir } from '../support/tmp.js';

const open: CrawlState[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const queue: Admit = () => ({ kind: 'queued' });
const u = (i: number): string => `https://example.com/p${i}`;
const CHILD = join(import.meta.dirname, 'fixtures/links-crash-child.mjs');

/** Inlink counts and referrers of every URL, as the state reads them. */
function graph(state: CrawlState): Map<string, { inlinks: number; from: string[] }> {
  const out = new Map<string, { inlinks: number; from: string[] }>();
  for (const r of state.reportRows()) out.set(r.url, { inlinks: r.inlinks, from: [] });
  for (const [url, g] of out) {
    const id = state.find(url)!.id;
    g.from = state.referrers(id, 1000).urls.sort();
    expect(state.inlinkCount(id)).toBe(g.inlinks);
  }
  return out;
}

describe('staged link writes', () => {
  it('read back the pairs the pages named, whatever the pages, commits and merges', async () => {
    // Each page names a few of 12 URLs (itself included: no link); commits come after some pages.
    const pages = fc.array(fc.tuple(fc.array(fc.nat(11), { maxLength: 8 }), fc.boolean()), {
      minLength: 1,
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(pages, fc.boolean(), async (list, midRead) => {
        const state = await CrawlState.open(':memory:', 'new');
        open.push(state);
        const frontier = new SqliteFrontier(state, { maxDepth: 100 });
        frontier.add([{ url: u(0), depth: 0, source: 'start' }], queue);
        await frontier.commit();
        const model = new Map<string, Set<string>>();
        let leases: Lease[] = [];
        for (const [names, commit] of list) {
          if (leases.length === 0) leases = await frontier.lease(100);
          const page = leases.shift();
          if (page === undefined) break;
          const found = [...new Set(names.map(u))].map((url) => ({ url, depth: 1, source: 'link' as const }));
          frontier.finish(page, { verdict: 'listed', status: 200, attempts: 1 }, found, queue);
          for (const f of found) {
            if (f.url === page.url) continue;
            const from = model.get(f.url) ?? new Set();
            from.add(page.url);
            model.set(f.url, from);
          }
          if (commit) await frontier.commit();
          // A read in the middle of the crawl merges what is staged; the crawl goes on after it.
          if (midRead && commit) graph(state);
        }
        await frontier.commit();
        for (const [url, g] of graph(state)) {
          const want = [...(model.get(url) ?? [])].sort();
          expect(g.from, url).toEqual(want);
          expect(g.inlinks, url).toBe(want.length);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('merges in bulk once enough rows are staged: tens of thousands of links read back whole', async () => {
    const state = await CrawlState.open(':memory:', 'new');
    open.push(state);
    const frontier = new SqliteFrontier(state, { maxDepth: 100 });
    frontier.add([{ url: u(0), depth: 0, source: 'start' }], queue);
    await frontier.commit();
    // 2,500 pages of 31 links: several merges during the crawl, one when it is read.
    for (let n = 0; n < 2500; n++) {
      const [page] = await frontier.lease(1);
      const i = Number(page!.url.slice(page!.url.lastIndexOf('p') + 1));
      const names = [
        ...Array.from({ length: 21 }, (_, k) => k + 1),
        ...Array.from({ length: 10 }, (_, k) => 10 * i + k + 30),
      ];
      const found = names.map((j) => ({ url: u(j), depth: 1, source: 'link' as const }));
      frontier.finish(page!, { verdict: 'listed', status: 200, attempts: 1 }, found, queue);
      await frontier.commit();
    }
    // Each of the first 21 pages is named by every page but itself.
    for (let k = 1; k <= 21; k++) expect(state.inlinkCount(state.find(u(k))!.id)).toBe(2499);
    let total = 0;
    for (const r of state.reportRows()) total += r.inlinks;
    expect(total).toBe(2500 * 31 - 21);
  });

  it('links committed and never merged (kill -9) are read after the state is opened again', async () => {
    const path = join(tempDir('sk-links-crash'), 'state.db');
    let out = '';
    try {
      execFileSync(process.execPath, [CHILD, path, '40'], { encoding: 'utf8' });
    } catch (e) {
      out = (e as { stdout: string; signal: string }).stdout;
      expect((e as { signal: string }).signal).toBe('SIGKILL');
    }
    expect(out).toBe('committed\n');
    const state = await CrawlState.open(path, 'resume');
    open.push(state);
    // Page 0 named 1, 2 and 1…9; pages 1…39 name their children and 0…9: pages 0…9 are named by
    // every one of the 40 pages but themselves.
    for (let k = 0; k < 10; k++) expect(state.inlinkCount(state.find(u(k))!.id), `p${k}`).toBe(39);
    expect(state.referrers(state.find(u(41))!.id, 10).urls).toEqual([u(20)]);
  });
});

describe('a reader of the state (the report thread)', () => {
  it('writes nothing, even with links staged and not merged', async () => {
    const file = join(tempDir('sk-reader-'), 'state.db');
    const state = await CrawlState.open(file, 'new');
    const frontier = new SqliteFrontier(state, { maxDepth: 10 });
    frontier.add([{ url: u(0), depth: 0, source: 'start' }], queue);
    await frontier.commit();
    const [page] = await frontier.lease(1);
    frontier.finish(
      page!,
      { verdict: 'listed', status: 200, attempts: 1 },
      [{ url: u(1), depth: 1, source: 'link' }],
      queue,
    );
    await frontier.commit();
    state.close();
    // A row left in the log (as a run killed before its merge leaves it), the file in the
    // rollback mode the crawl shares it in for its report's thread.
    const raw = new Database(file);
    raw.pragma('journal_mode = DELETE');
    raw.prepare('INSERT INTO link_log (target, source) VALUES (2, 1)').run();
    raw.close();
    const reader = await CrawlState.reader(file);
    expect(reader.find(u(1))).toBeDefined();
    // What the report reads: the merged links only (before, each of these merged and threw).
    expect([...reader.reportCells()]).toHaveLength(2);
    expect(reader.referrers(reader.find(u(1))!.id, 10)).toEqual({ urls: [u(0)], total: 1 });
    // Before: "attempt to write a readonly database" (the reader merged the staged row).
    expect(() => reader.close()).not.toThrow();
    const again = new Database(file, { readonly: true });
    expect(again.prepare('SELECT COUNT(*) AS n FROM link_log').get()).toEqual({ n: 1 });
    again.close();
  });
});
