import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SitemapEntryInput } from '../../src/core/entry.js';
import { openStore, type SiteStore } from '../../src/store/store.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, xmllint } from '../support/xmllint.js';
import { BASE, indexChildren, snapshot } from './helpers.js';
import type { StoreTarget } from './targets.js';

/** Run over each backend (news.test.ts, news-pg.test.ts). */
export function newsSuite(target: StoreTarget): void {
  const open: SiteStore[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });
  beforeAll(() => assertXmllint());

  const HOUR = 3_600_000;
  const T0 = Date.UTC(2026, 10, 26, 12);
  const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');
  function article(n: number, published: number): SitemapEntryInput {
    return {
      loc: `${BASE}news/${n}`,
      news: {
        publication: { name: 'The Example Times', language: 'en' },
        publication_date: iso(published),
        title: `Article ${n}`,
      },
    };
  }

  /** The files whose bytes differ between two snapshots of an output folder. */
  function changed(a: Map<string, Buffer>, b: Map<string, Buffer>): string[] {
    return [...new Set([...a.keys(), ...b.keys()])]
      .filter((k) => !a.get(k)?.equals(b.get(k) ?? Buffer.alloc(0)))
      .sort();
  }

  describe('the news window in a store build', () => {
    it('a news entry that falls out of the window since the last build loses its block: exactly its file is rewritten, with no import', async () => {
      const dir = tempDir('sk-store-news');
      const out = join(dir, 'out');
      let now = T0;
      const s = await openStore(target.fresh(dir), {
        baseUrl: BASE,
        maxUrlsPerFile: 2,
        now: () => new Date(now),
      });
      open.push(s);
      // Three files: two articles of yesterday, two of three hours ago, two plain pages.
      await s.sync([
        article(1, T0 - 24 * HOUR),
        article(2, T0 - 20 * HOUR),
        article(3, T0 - 3 * HOUR),
        article(4, T0 - 3 * HOUR),
        { loc: `${BASE}about` },
        { loc: `${BASE}contact` },
      ]);
      const first = await s.build({ outDir: out });
      expect(first.newsDropped).toBe(0);
      const names = ['sitemap-00001.xml', 'sitemap-00002.xml', 'sitemap-00003.xml'];
      for (const n of names) expect(xmllint(join(out, n)).ok, n).toBe(true);
      expect(readSitemapText(join(out, names[0]!))).toContain('<news:news>');
      const s1 = snapshot(out);
      const lastmods1 = indexChildren(out);

      // A day later: nothing crossed yet (article 1 is 48 h old only at T0 + 24 h: not before the cutoff).
      now = T0 + 24 * HOUR;
      const same = await s.build({ outDir: out });
      expect(same.files.every((f) => f.change === 'kept' || f.path === 'sitemap.xml')).toBe(true);
      expect(changed(s1, snapshot(out)).filter((n) => n.startsWith('sitemap-'))).toEqual([]);

      // An hour later article 1 is past the window: file 1 is rewritten, the others keep their bytes.
      now = T0 + 25 * HOUR;
      const crossed = await s.build({ outDir: out });
      const s2 = snapshot(out);
      expect(changed(s1, s2)).toEqual(['.sitemapkit-manifest.json', 'sitemap-00001.xml', 'sitemap.xml']);
      expect(crossed.newsDropped).toBe(1);
      expect(crossed.added + crossed.changed + crossed.removed).toBe(0);
      const one = readSitemapText(join(out, names[0]!));
      expect(one.match(/<news:news>/g)).toHaveLength(1);
      expect(one).toContain(`<url><loc>${BASE}news/1</loc></url>`);
      expect(xmllint(join(out, names[0]!)).ok).toBe(true);
      const lastmods2 = indexChildren(out);
      expect(lastmods2.get(names[0]!)).toBe(iso(now));
      expect(lastmods2.get(names[1]!)).toBe(lastmods1.get(names[1]!));

      // Past article 2 as well: file 1 again, and only it; then file 2 when its articles cross.
      now = T0 + 29 * HOUR;
      await s.build({ outDir: out });
      const s3 = snapshot(out);
      expect(changed(s2, s3)).toEqual(['.sitemapkit-manifest.json', 'sitemap-00001.xml', 'sitemap.xml']);
      expect(readSitemapText(join(out, names[0]!))).not.toContain('<news:news>');
      now = T0 + 46 * HOUR;
      await s.build({ outDir: out });
      expect(changed(s3, snapshot(out))).toEqual([
        '.sitemapkit-manifest.json',
        'sitemap-00002.xml',
        'sitemap.xml',
      ]);
      expect(readSitemapText(join(out, names[1]!))).not.toContain('<news:news>');
      for (const n of names) expect(xmllint(join(out, n)).ok, n).toBe(true);
      // Nothing left to expire: the next build keeps every child.
      now = T0 + 100 * HOUR;
      const quiet = await s.build({ outDir: out });
      expect(quiet.files.filter((f) => f.kind === 'urlset' && f.change !== 'kept')).toEqual([]);
    });

    it('takes the window as generate does: a shorter one, or off (which rewrites every file once, and gives the blocks back)', async () => {
      const dir = tempDir('sk-store-news');
      const out = join(dir, 'out');
      const s = await openStore(target.fresh(dir), { baseUrl: BASE, now: () => new Date(T0) });
      open.push(s);
      await s.sync([article(1, T0 - 10 * HOUR), article(2, T0 - 1 * HOUR)]);
      const short = await s.build({ outDir: out, newsWindow: '6h' });
      expect(short.newsDropped).toBe(1);
      expect(readSitemapText(join(out, 'sitemap.xml')).match(/<news:news>/g)).toHaveLength(1);
      const off = await s.build({ outDir: out, newsWindow: 'off' });
      expect(off.newsDropped).toBe(0);
      expect(readSitemapText(join(out, 'sitemap.xml')).match(/<news:news>/g)).toHaveLength(2);
      await expect(s.build({ outDir: out, newsWindow: 'soon' })).rejects.toThrow(/newsWindow/);
    });
  });
}
