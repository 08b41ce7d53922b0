import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { openStore, type SiteStore } from '../../src/store/store.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, xmllint } from '../support/xmllint.js';
import { BASE, snapshot } from './helpers.js';
import type { StoreTarget } from './targets.js';

/** Run over each backend (lastmod.test.ts, lastmod-pg.test.ts). */
export function lastmodSuite(target: StoreTarget): void {
  const open: SiteStore[] = [];
  afterEach(async () => {
    for (const s of open.splice(0)) await s.close();
  });
  beforeAll(() => assertXmllint());

  const T0 = Date.UTC(2026, 10, 26, 12);
  const page = (i: number, lastmod?: string, priority?: number) => ({
    loc: `${BASE}p/${String(i).padStart(3, '0')}`,
    ...(lastmod !== undefined && { lastmod }),
    ...(priority !== undefined && { priority }),
  });
  const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z');

  async function fresh(name: string, now: () => Date = () => new Date(T0)) {
    const dir = tempDir(`sk-store-lastmod-${name}`);
    const s = await openStore(target.fresh(dir), { baseUrl: BASE, maxUrlsPerFile: 10, now });
    open.push(s);
    return { s, out: join(dir, 'out') };
  }

  /** The urlset children of a folder and whether each lists a lastmod. */
  function lastmodsIn(out: string): Map<string, boolean> {
    const m = new Map<string, boolean>();
    for (const name of snapshot(out).keys())
      if (/^sitemap-\d+\.xml$/.test(name))
        m.set(name, readSitemapText(join(out, name)).includes('<lastmod>'));
    return m;
  }

  describe('the lastmod policy in a store build', () => {
    it('warns (by default) when the input lastmods are all one value, or all near the build time; keep says nothing', async () => {
      const { s, out } = await fresh('warn');
      await s.sync(Array.from({ length: 25 }, (_, i) => page(i, '2026-11-01')));
      const found: Diagnostic[] = [];
      await s.build({ outDir: out, onDiagnostic: (d) => found.push(d) });
      expect(found.map((d) => [d.code, d.severity])).toEqual([['lastmod-untrustworthy', 'warning']]);
      expect(found[0]!.message).toContain('all 25 lastmod values are the same (2026-11-01)');
      expect([...lastmodsIn(out).values()].every(Boolean)).toBe(true);
      const quiet: Diagnostic[] = [];
      await s.build({ outDir: out, lastmodPolicy: 'keep', onDiagnostic: (d) => quiet.push(d) });
      expect(quiet).toEqual([]);

      const near = await fresh('near');
      await near.s.sync(Array.from({ length: 25 }, (_, i) => page(i, iso(T0 - 60_000 * (i % 14)))));
      const seen: Diagnostic[] = [];
      await near.s.build({ outDir: near.out, onDiagnostic: (d) => seen.push(d) });
      expect(seen.map((d) => d.code)).toEqual(['lastmod-untrustworthy']);
      expect(seen[0]!.message).toContain('within 15 minutes of the build time');
    });

    it("never judges the store's own change times: one import that changes 30 pages is no warning", async () => {
      let now = T0;
      const { s, out } = await fresh('own', () => new Date(now));
      await s.sync(Array.from({ length: 30 }, (_, i) => page(i)));
      await s.build({ outDir: out });
      now += 3_600_000;
      await s.sync(Array.from({ length: 30 }, (_, i) => page(i, undefined, 0.8)));
      const found: Diagnostic[] = [];
      await s.build({ outDir: out, onDiagnostic: (d) => found.push(d) });
      expect(found).toEqual([]);
      expect(readSitemapText(join(out, 'sitemap-00001.xml'))).toContain(`<lastmod>${iso(now)}</lastmod>`);
    });

    it('drop publishes every file without lastmod while the verdict holds; kept files stay consistent; when it flips every file is written again with them', async () => {
      let now = T0;
      const { s, out } = await fresh('drop', () => new Date(now));
      await s.sync(Array.from({ length: 30 }, (_, i) => page(i, '2026-11-01')));
      const found: Diagnostic[] = [];
      const first = await s.build({ outDir: out, lastmodPolicy: 'drop', onDiagnostic: (d) => found.push(d) });
      expect(found[0]!.message).toContain('so the sitemaps were written without lastmod');
      expect([...lastmodsIn(out).values()]).toEqual([false, false, false]);
      for (const n of lastmodsIn(out).keys()) expect(xmllint(join(out, n)).ok, n).toBe(true);
      expect(first.files.filter((f) => f.kind === 'urlset').every((f) => f.change === 'added')).toBe(true);

      // One page more, with the same lastmod: only its file changes, and no file has a lastmod.
      now += 60_000;
      const before = snapshot(out);
      await s.add([page(40, '2026-11-01')]);
      const second = await s.build({ outDir: out, lastmodPolicy: 'drop' });
      expect(
        second.files.filter((f) => f.kind === 'urlset' && f.change !== 'kept').map((f) => f.path),
      ).toEqual(['sitemap-00004.xml']);
      expect(snapshot(out).get('sitemap-00001.xml')!.equals(before.get('sitemap-00001.xml')!)).toBe(true);
      expect([...lastmodsIn(out).values()]).toEqual([false, false, false, false]);

      // Real dates arrive for one file's pages: the verdict flips, and every file gets its lastmods back.
      now += 60_000;
      await s.add(Array.from({ length: 10 }, (_, i) => page(i, `2026-10-${String(i + 10)}`)));
      const third = await s.build({ outDir: out, lastmodPolicy: 'drop' });
      expect(third.files.filter((f) => f.kind === 'urlset' && f.change === 'kept')).toEqual([]);
      expect([...lastmodsIn(out).values()]).toEqual([true, true, true, true]);
      for (const n of lastmodsIn(out).keys()) expect(xmllint(join(out, n)).ok, n).toBe(true);
    });
  });
}
