import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { parseSitemapToArray } from '../../src/parser/parse-sitemap.js';
import { openStore, type SiteStore } from '../../src/store/store.js';
import { readManifestHeader } from '../../src/writer/manifest.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';
import { BASE, clock, snapshot } from './helpers.js';
import type { StoreTarget } from './targets.js';

/** Run over each backend (feed.test.ts, feed-pg.test.ts). */
export function feedSuite(target: StoreTarget): void {
  const open: SiteStore[] = [];
  async function store(path: string, options: Parameters<typeof openStore>[1] = {}): Promise<SiteStore> {
    const s = await openStore(path, { baseUrl: BASE, ...options });
    open.push(s);
    return s;
  }
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });
  beforeAll(() => assertXmllint());

  /** The feed's items as the parser reads them back: [loc, time] newest first. */
  async function feedItems(out: string): Promise<Array<[string, string | undefined]>> {
    const parsed = await parseSitemapToArray(join(out, 'feed.xml'), { sitemapUrl: `${BASE}feed.xml` });
    return parsed.items.map((e) => ['loc' in e ? e.loc : '', (e as { lastmod?: string }).lastmod]);
  }

  /** xmllint's verdict on a feed: well-formed (no Atom or RSS schema ships with Debian; test/writer/feed checks the structure of the same document code). */
  function wellFormed(path: string): void {
    const r = spawnSync('xmllint', ['--noout', '--nonet', path], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  }

  const loc = (i: number): string => `${BASE}p/${String(i).padStart(3, '0')}`;
  const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

  describe('the delta feed of a store build', () => {
    it('lists the newest added or changed URLs after any sequence of adds, changes and removals, and keeps its bytes when nothing is new (property)', async () => {
      const root = tempDir('sk-store-feed');
      let run = 0;
      const op = fc.oneof(
        fc.record({
          kind: fc.constant('add' as const),
          n: fc.integer({ min: 0, max: 11 }),
          p: fc.integer({ min: 1, max: 3 }),
        }),
        fc.record({ kind: fc.constant('remove' as const), n: fc.integer({ min: 0, max: 11 }) }),
        fc.record({ kind: fc.constant('build' as const) }),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 11 }), { minLength: 1, maxLength: 8 }),
          fc.array(op, { minLength: 1, maxLength: 14 }),
          fc.integer({ min: 1, max: 4 }),
          async (initial, ops, size) => {
            const dir = join(root, String(run++));
            const out = join(dir, 'out');
            const c = clock(Date.UTC(2026, 10, 1));
            const s = await store(target.fresh(dir), { maxUrlsPerFile: 3, now: c.now, keepRemoved: '365d' });
            // The model: what the feed lists, by the rule docs/store.md gives.
            const live = new Map<string, { p: number; time: number | undefined }>();
            const gone = new Set<string>();
            let built = false;
            const firstSet = [...new Set(initial)].map((i) => ({ loc: loc(i), priority: 0.1 }));
            await s.sync(firstSet);
            for (const e of firstSet) live.set(e.loc, { p: 1, time: undefined });
            const build = async (): Promise<void> => {
              const r = await s.build({ outDir: out, feed: { format: 'atom', size }, force: true });
              built = true;
              const expected = [...live]
                .filter(([, v]) => v.time !== undefined)
                .sort(([la, a], [lb, b]) => b.time! - a.time! || (la < lb ? -1 : 1))
                .slice(0, size)
                .map(([l, v]): [string, string | undefined] => [l, iso(v.time!)]);
              expect(await feedItems(out)).toEqual(expected);
              expect(r.feed?.urls).toBe(expected.length);
              wellFormed(join(out, 'feed.xml'));
              // Nothing new: the same bytes, reported kept.
              const before = readFileSync(join(out, 'feed.xml'));
              c.tick();
              const again = await s.build({ outDir: out, feed: { format: 'atom', size } });
              expect(again.feed?.change).toBe('kept');
              expect(readFileSync(join(out, 'feed.xml')).equals(before)).toBe(true);
            };
            for (const o of ops) {
              c.tick();
              const now = c.now().getTime();
              const l = loc(o.kind === 'build' ? 0 : o.n);
              if (o.kind === 'build') await build();
              else if (o.kind === 'add') {
                if (gone.has(l)) continue; // a URL that comes back is documented apart (see docs/store.md)
                await s.add([{ loc: l, priority: o.p / 10 }]);
                const was = live.get(l);
                if (was === undefined) live.set(l, { p: o.p, time: built ? now : undefined });
                else if (was.p !== o.p) live.set(l, { p: o.p, time: now });
              } else if (live.has(l) && live.size > 1) {
                await s.remove([l]);
                live.delete(l);
                gone.add(l);
              }
            }
            await build();
            for (const name of snapshot(out).keys())
              if (name.endsWith('.xml') && name !== 'feed.xml')
                expect(xmllint(join(out, name)).ok, name).toBe(true);
            await s.close();
          },
        ),
        { numRuns: 25, seed: 12 },
      );
    }, 120_000);

    it('gives input lastmods and titles; is listed in the manifest and robots.txt; is refused over a foreign feed.xml; goes when no longer asked for', async () => {
      const dir = tempDir('sk-store-feed');
      const out = join(dir, 'out');
      const robots = join(dir, 'robots.txt');
      writeFileSync(robots, 'User-agent: *\nDisallow:\n');
      const s = await store(target.fresh(dir), { maxUrlsPerFile: 2 });
      await s.sync([
        { loc: loc(1), lastmod: '2026-11-20', title: 'One & only' },
        { loc: loc(2), lastmod: '2026-11-22T10:00:00+02:00' },
        { loc: loc(3) },
        {
          loc: loc(4),
          news: {
            publication: { name: 'Example', language: 'en' },
            publication_date: '2026-11-21T09:00:00Z',
            title: 'Breaking',
          },
        },
      ]);
      // A feed.xml the store did not write is never replaced.
      writeFileSync(join(dir, 'feed.xml'), 'theirs');
      const foreign = await s.build({ outDir: dir, feed: { format: 'rss' } }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isSitemapkitError(foreign) && foreign.code).toBe('ERR_OUTPUT');
      expect(readFileSync(join(dir, 'feed.xml'), 'utf8')).toBe('theirs');
      expect(existsSync(join(dir, 'sitemap.xml'))).toBe(false);

      const r = await s.build({
        outDir: out,
        feed: { format: 'rss', title: 'Example' },
        updateRobots: robots,
      });
      expect(r.feed).toEqual({ path: 'feed.xml', url: `${BASE}feed.xml`, urls: 3, change: 'added' });
      const text = readFileSync(join(out, 'feed.xml'), 'utf8');
      expect(text).toContain('<title>One &amp; only</title>');
      expect(text).toContain('<title>Breaking</title>');
      expect(await feedItems(out)).toEqual([
        [loc(2), '2026-11-22T08:00:00Z'],
        [loc(4), '2026-11-21T09:00:00Z'],
        [loc(1), '2026-11-20T00:00:00Z'],
      ]);
      const manifest = await readManifestHeader(out);
      expect(manifest?.files.find((f) => f.path === 'feed.xml')).toMatchObject({ kind: 'feed', urls: 3 });
      expect(readFileSync(robots, 'utf8')).toContain(`Sitemap: ${BASE}feed.xml`);

      const without = await s.build({ outDir: out, updateRobots: robots });
      expect(without.feed).toBeUndefined();
      expect(without.deleted).toContain('feed.xml');
      expect(snapshot(out).has('feed.xml')).toBe(false);
      expect(readFileSync(robots, 'utf8')).not.toContain('feed.xml');
      expect(readFileSync(robots, 'utf8')).toContain(`Sitemap: ${BASE}sitemap.xml`);
    });

    it('refuses feed.items and a bad size with one sentence', async () => {
      const dir = tempDir('sk-store-feed');
      const s = await store(target.fresh(dir));
      await s.add([{ loc: loc(1) }]);
      for (const feed of [{ format: 'atom', items: [] }, { format: 'atom', size: 0 }, { format: 'json' }]) {
        const e = await s.build({ outDir: join(dir, 'out'), feed: feed as never }).then(
          () => undefined,
          (x: unknown) => x,
        );
        expect(isSitemapkitError(e) && e.code, JSON.stringify(feed)).toBe('ERR_OPTIONS');
      }
    });
  });
}
