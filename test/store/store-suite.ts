import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import type { BuildOptions } from '../../src/store/build.js';
import { openStore, type SiteStore } from '../../src/store/store.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, xmllint } from '../support/xmllint.js';
import { BASE, clock, indexChildren, locsOf, publishedUrls, snapshot, urls } from './helpers.js';
import type { StoreTarget } from './targets.js';

/** The store's behaviour, run over each backend (store.test.ts, store-pg.test.ts). */
export function storeSuite(target: StoreTarget): void {
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

  describe('the seed scenario: four full files and one partly full, then one URL more', () => {
    it('rewrites exactly one child and the index (and the manifest); the other children keep their bytes and lastmods', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const c = clock();
      const s = await store(target.fresh(dir), { maxUrlsPerFile: 10, now: c.now });
      await s.sync(urls(0, 45));
      const first = await s.build({ outDir: out });
      expect(first.files.filter((f) => f.kind === 'urlset').map((f) => f.urls)).toEqual([10, 10, 10, 10, 5]);
      const before = snapshot(out);
      const lastmodsBefore = indexChildren(out);
      c.tick();
      await s.add([{ loc: `${BASE}a-new-page-near-the-start-of-the-alphabet` }]);
      const second = await s.build({ outDir: out });
      const after = snapshot(out);
      const changed = [...after.keys()].filter((k) => !before.get(k)?.equals(after.get(k)!)).sort();
      expect(changed).toEqual(['.sitemapkit-manifest.json', 'sitemap-00005.xml', 'sitemap.xml']);
      expect(second.files.filter((f) => f.change !== 'kept').map((f) => f.path)).toEqual([
        'sitemap-00005.xml',
        'sitemap.xml',
      ]);
      const lastmodsAfter = indexChildren(out);
      for (const name of ['sitemap-00001.xml', 'sitemap-00002.xml', 'sitemap-00003.xml', 'sitemap-00004.xml'])
        expect(lastmodsAfter.get(name), name).toBe(lastmodsBefore.get(name));
      expect(lastmodsAfter.get('sitemap-00005.xml')).not.toBe(lastmodsBefore.get('sitemap-00005.xml'));
      expect(locsOf(readSitemapText(join(out, 'sitemap-00005.xml')))).toContain(
        `${BASE}a-new-page-near-the-start-of-the-alphabet`,
      );
      for (const name of after.keys())
        if (name.endsWith('.xml')) expect(xmllint(join(out, name)).ok, name).toBe(true);
    });

    it('a build with no change rewrites no child', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const s = await store(target.fresh(dir), { maxUrlsPerFile: 10 });
      await s.syncAndBuild(urls(0, 35), { outDir: out });
      const r = await s.syncAndBuild(urls(0, 35), { outDir: out });
      expect(r.files.filter((f) => f.kind === 'urlset' && f.change !== 'kept')).toEqual([]);
      expect(r.import).toMatchObject({ added: 0, changed: 0, removed: 0, unchanged: 35 });
    });

    it('a kept child that was altered or deleted on disk is written again', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const s = await store(target.fresh(dir), { maxUrlsPerFile: 10 });
      await s.syncAndBuild(urls(0, 25), { outDir: out });
      const good = readFileSync(join(out, 'sitemap-00002.xml'));
      const { writeFileSync, rmSync } = await import('node:fs');
      writeFileSync(join(out, 'sitemap-00002.xml'), 'tampered');
      rmSync(join(out, 'sitemap-00003.xml'));
      const r = await s.build({ outDir: out });
      expect(r.files.find((f) => f.path === 'sitemap-00002.xml')?.change).toBe('kept');
      expect(readFileSync(join(out, 'sitemap-00002.xml')).equals(good)).toBe(true);
      expect(existsSync(join(out, 'sitemap-00003.xml'))).toBe(true);
    });
  });

  describe('honest lastmod', () => {
    it('a first import stamps nothing; an observed change gets the time of its import; an input lastmod wins', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const c = clock(Date.UTC(2026, 4, 1, 12));
      const s = await store(target.fresh(dir), { now: c.now });
      const set = [{ loc: `${BASE}a` }, { loc: `${BASE}b` }, { loc: `${BASE}c`, lastmod: '2020-01-02' }];
      await s.syncAndBuild(set, { outDir: out });
      const text = () => readSitemapText(join(out, 'sitemap.xml'));
      expect(text()).toContain(`<url><loc>${BASE}a</loc></url>`);
      expect(text()).toContain(`<url><loc>${BASE}b</loc></url>`);
      expect(text()).toContain('<lastmod>2020-01-02</lastmod>');
      c.tick();
      // b's content changes (a priority): its lastmod is the time of this observation.
      await s.syncAndBuild([set[0]!, { loc: `${BASE}b`, priority: 0.8 }, set[2]!], { outDir: out });
      expect(text()).toContain(
        `<url><loc>${BASE}b</loc><lastmod>2026-05-01T12:01:00Z</lastmod><priority>0.8</priority></url>`,
      );
      expect(text()).toContain(`<url><loc>${BASE}a</loc></url>`);
      c.tick();
      // Seen again unchanged: the lastmod stays the time of the change, not of this import.
      await s.syncAndBuild([set[0]!, { loc: `${BASE}b`, priority: 0.8 }, set[2]!], { outDir: out });
      expect(text()).toContain(`<lastmod>2026-05-01T12:01:00Z</lastmod>`);
      const listed = [];
      for await (const u of s.list()) listed.push(u);
      expect(listed.find((u) => u.loc === `${BASE}b`)?.lastmod).toBe('2026-05-01T12:01:00Z');
      expect(listed.find((u) => u.loc === `${BASE}a`)?.lastmod).toBeUndefined();
    });
  });

  describe('the publish gate', () => {
    it('refuses a build that removes more than 10% of the published URLs, leaving the store and the folder as they were', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const s = await store(target.fresh(dir), { maxUrlsPerFile: 5 });
      await s.syncAndBuild(urls(0, 20), { outDir: out });
      const before = snapshot(out);
      const error = await s.syncAndBuild(urls(0, 17), { outDir: out }).catch((e: unknown) => e);
      expect(isSitemapkitError(error, 'ERR_GATE')).toBe(true);
      expect((error as Error).message).toMatch(/remove 3 of the 20 published URLs \(15\.0%\)/);
      expect(snapshot(out)).toEqual(before);
      expect((await s.stats()).live).toBe(20);
      // An empty export never empties the site.
      const empty = await s.syncAndBuild([], { outDir: out }).catch((e: unknown) => e);
      expect(isSitemapkitError(empty, 'ERR_GATE')).toBe(true);
      expect(snapshot(out)).toEqual(before);
      // A count, and --force.
      expect((await s.syncAndBuild(urls(0, 17), { outDir: out, maxDrop: '3' })).removed).toBe(3);
      const forced = await s.syncAndBuild(urls(0, 5), { outDir: out, force: true });
      expect(forced.removed).toBe(12);
      expect(publishedUrls(out)).toHaveLength(5);
    });
  });

  describe('stable shards', () => {
    it('a file never passes its byte budget, also when an entry grows; it moves to a file with room', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const s = await store(target.fresh(dir), { maxBytesPerFile: 4096, maxUrlsPerFile: 1000 });
      const big = (i: number, images: number) => ({
        loc: `${BASE}g/${i}`,
        images: Array.from({ length: images }, (_, k) => ({
          loc: `${BASE}img/${i}-${k}-${'x'.repeat(40)}.jpg`,
        })),
      });
      await s.syncAndBuild(
        Array.from({ length: 30 }, (_, i) => big(i, 1)),
        { outDir: out },
      );
      const grown = Array.from({ length: 30 }, (_, i) => big(i, i === 3 ? 12 : 1));
      const r = await s.syncAndBuild(grown, { outDir: out });
      for (const f of r.files) {
        expect(readFileSync(join(out, f.path)).length, f.path).toBeLessThanOrEqual(4096);
        expect(xmllint(join(out, f.path)).ok, f.path).toBe(true);
      }
      expect(publishedUrls(out).sort()).toEqual(grown.map((g) => g.loc).sort());
    });

    it('at most 1,000 news entries a file (here 3), and the merge keeps the file count within twice the minimum', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const s = await store(target.fresh(dir), { maxUrlsPerFile: 10, maxNewsPerFile: 3 });
      const news = (i: number) => ({
        loc: `${BASE}n/${i}`,
        news: {
          publication: { name: 'Die Zeitung', language: 'de' },
          publication_date: '2024-01-01',
          title: `T ${i}`,
        },
      });
      await s.syncAndBuild([...Array.from({ length: 7 }, (_, i) => news(i)), ...urls(0, 13)], {
        outDir: out,
      });
      for (const f of (await s.stats()).files) expect(f.news).toBeLessThanOrEqual(3);
      await s.syncAndBuild(urls(0, 100), { outDir: out, force: true });
      // Remove 80 spread over the files: 10 files at 20 URLs need 2; merging keeps at most 4.
      const kept = urls(0, 100).filter((_, i) => i % 5 === 0);
      await s.syncAndBuild(kept, { outDir: out, force: true });
      const st = await s.stats();
      expect(st.live).toBe(20);
      expect(st.files.length).toBeLessThanOrEqual(4);
      expect(publishedUrls(out).sort()).toEqual(kept.map((k) => k.loc).sort());
    });

    it('a set that shrinks to one file publishes it as sitemap.xml, never keeping the old index in its place', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const s = await store(target.fresh(dir), { maxUrlsPerFile: 2 });
      await s.syncAndBuild(urls(0, 3), { outDir: out });
      expect(readSitemapText(join(out, 'sitemap.xml'))).toContain('<sitemapindex');
      // The remaining file is unchanged and lists as many URLs as the index listed children.
      await s.syncAndBuild(urls(0, 2), { outDir: out, force: true });
      const text = readSitemapText(join(out, 'sitemap.xml'));
      expect(text).toContain('<urlset');
      expect(locsOf(text)).toEqual(urls(0, 2).map((u) => u.loc));
      expect(xmllint(join(out, 'sitemap.xml')).ok).toBe(true);
    });

    it('sections keep the writer file names, so switching to --store keeps the URLs search engines know', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const s = await store(target.fresh(dir), { maxUrlsPerFile: 2 });
      const r = await s.syncAndBuild(
        [
          { loc: `${BASE}1` },
          { loc: `${BASE}2` },
          { loc: `${BASE}3` },
          { loc: `${BASE}b1`, section: 'blog' },
        ],
        { outDir: out, gzip: true },
      );
      expect(r.files.map((f) => f.path)).toEqual([
        'sitemap-00001.xml.gz',
        'sitemap-00002.xml.gz',
        'sitemap-blog-00001.xml.gz',
        'sitemap.xml.gz',
      ]);
    });
  });

  describe('splicing a touched file from its previous bytes', () => {
    /** A store whose steps are recorded; `probe` makes a build publish and then fail (store untouched). */
    async function recorded(dir: string, options: Parameters<typeof openStore>[1] = {}) {
      const steps: string[] = [];
      const flag = { probe: false };
      const s = await store(target.fresh(dir), {
        maxUrlsPerFile: 10,
        ...options,
        onStep: (step) => {
          steps.push(step);
          if (flag.probe && step === 'build:published') throw new Error('probe');
        },
      });
      /** The children a build into an empty folder writes (in full), beside those of `out`. */
      const scratch = async (out: string, options: Partial<BuildOptions> = {}): Promise<void> => {
        const dirOut = join(dir, 'scratch');
        rmSync(dirOut, { recursive: true, force: true });
        flag.probe = true;
        await expect(s.build({ ...options, outDir: dirOut })).rejects.toThrow('probe');
        flag.probe = false;
        const fresh = snapshot(dirOut);
        const mine = snapshot(out);
        for (const [name, bytes] of fresh)
          if (name.startsWith('sitemap-')) expect(mine.get(name)?.equals(bytes), name).toBe(true);
      };
      const took = (kind: string) =>
        steps.filter((x) => x.startsWith(`build:${kind}:`)).map((x) => x.slice(`build:${kind}:`.length));
      const reset = (): void => {
        steps.length = 0;
      };
      return { s, took, reset, scratch };
    }

    it('copies the unchanged entries and serialises only the changed ones: the same bytes as a full build', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const c = clock();
      const { s, took, reset, scratch } = await recorded(dir, { now: c.now });
      await s.sync(urls(0, 30));
      await s.build({ outDir: out });
      expect(took('written')).toHaveLength(3);
      reset();
      c.tick();
      // A change in every file, a removal in the second, and a URL that fills the room it leaves.
      await s.add([0, 14, 29].map((i) => ({ ...urls(i, 1)[0]!, priority: 0.8 })));
      await s.remove([urls(15, 1)[0]!.loc]);
      await s.add([{ loc: `${BASE}late-arrival` }]);
      await s.build({ outDir: out });
      expect(took('spliced')).toEqual(['sitemap-00001.xml', 'sitemap-00002.xml', 'sitemap-00003.xml']);
      expect(locsOf(readSitemapText(join(out, 'sitemap-00002.xml')))).toEqual([
        ...urls(10, 5).map((u) => u.loc),
        ...urls(16, 4).map((u) => u.loc),
        `${BASE}late-arrival`,
      ]);
      await scratch(out);
      for (const name of ['sitemap-00001.xml', 'sitemap-00002.xml', 'sitemap-00003.xml'])
        expect(xmllint(join(out, name)).ok, name).toBe(true);
    });

    it('writes a file in full when its previous bytes were edited on disk; a touched but intact file is still spliced', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const c = clock();
      const { s, took, reset, scratch } = await recorded(dir, { now: c.now });
      await s.sync(urls(0, 20));
      await s.build({ outDir: out });
      reset();
      c.tick();
      await s.add([3, 13].map((i) => ({ ...urls(i, 1)[0]!, priority: 0.5 })));
      // The first file edited in place (same size: only its hash tells); the second one touched.
      const first = join(out, 'sitemap-00001.xml');
      writeFileSync(first, readFileSync(first, 'utf8').replace('/p/0001', '/P/0001'));
      const later = new Date(Date.now() + 5000);
      utimesSync(join(out, 'sitemap-00002.xml'), later, later);
      await s.build({ outDir: out });
      expect(took('written')).toEqual(['sitemap-00001.xml']);
      expect(took('spliced')).toEqual(['sitemap-00002.xml']);
      expect(publishedUrls(out).sort()).toEqual(urls(0, 20).map((u) => u.loc));
      await scratch(out);
    });

    it('trusts a kept file by its stamp (device, inode, size, mtime) and hashes it only when that moved', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const c = clock();
      const { s, took, reset } = await recorded(dir, { now: c.now });
      await s.sync(urls(0, 20));
      await s.build({ outDir: out });
      reset();
      const first = join(out, 'sitemap-00001.xml');
      // A time of whole seconds, which utimes can set back exactly: the file is hashed once, found
      // intact, kept, and its new stamp recorded.
      const round = new Date(Date.UTC(2026, 0, 1));
      utimesSync(first, round, round);
      c.tick();
      await s.add([{ ...urls(12, 1)[0]!, priority: 0.5 }]);
      await s.build({ outDir: out });
      expect(took('kept')).toEqual(['sitemap-00001.xml']);
      reset();
      // An edit that puts the time back is not seen (as rsync and make do not see it)…
      const size = statSync(first).size;
      writeFileSync(first, readFileSync(first, 'utf8').replace('/p/0001', '/P/0001'));
      utimesSync(first, round, round);
      expect(statSync(first).size).toBe(size);
      c.tick();
      await s.add([{ ...urls(13, 1)[0]!, priority: 0.5 }]);
      await s.build({ outDir: out });
      expect(took('kept')).toEqual(['sitemap-00001.xml']);
      reset();
      // …one that moves it is: the file is hashed, found changed, and written again.
      const later = new Date(Date.now() + 5000);
      utimesSync(first, later, later);
      c.tick();
      await s.add([{ ...urls(14, 1)[0]!, priority: 0.5 }]);
      await s.build({ outDir: out });
      expect(took('written')).toEqual(['sitemap-00001.xml']);
      expect(publishedUrls(out).sort()).toEqual(urls(0, 20).map((u) => u.loc));
    });

    it('--lastmod-policy drop: touched files are spliced too, and every file reports its own size', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const c = clock();
      const { s, took, reset, scratch } = await recorded(dir, { now: c.now });
      const o = { outDir: out, lastmodPolicy: 'drop' as const, onDiagnostic: () => undefined };
      // Twenty and more input lastmods of one value: the policy drops them all.
      await s.sync(urls(0, 25).map((u) => ({ ...u, lastmod: '2024-01-01' })));
      await s.build(o);
      reset();
      c.tick();
      await s.add([3, 13].map((i) => ({ ...urls(i, 1)[0]!, lastmod: '2024-01-01', priority: 0.5 })));
      const r = await s.build(o);
      expect(took('spliced')).toEqual(['sitemap-00001.xml', 'sitemap-00002.xml']);
      for (const f of r.files) expect(f.bytes, f.path).toBe(statSync(join(out, f.path)).size);
      expect(readFileSync(join(out, 'sitemap-00001.xml'), 'utf8')).not.toContain('<lastmod>');
      await scratch(out, o);
    });

    it('writes every touched file in full with --gzip (a gzip stream cannot be cut at entry boundaries)', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const c = clock();
      const { s, took, reset } = await recorded(dir, { now: c.now });
      await s.sync(urls(0, 20));
      await s.build({ outDir: out, gzip: true });
      reset();
      c.tick();
      await s.add([3, 13].map((i) => ({ ...urls(i, 1)[0]!, priority: 0.5 })));
      await s.build({ outDir: out, gzip: true });
      expect(took('written')).toEqual(['sitemap-00001.xml.gz', 'sitemap-00002.xml.gz']);
      expect(took('spliced')).toEqual([]);
    });
  });

  describe('the change set', () => {
    it('lists the URLs added, changed and removed, and every file', async () => {
      const dir = tempDir('sk-store');
      const out = join(dir, 'out');
      const c = clock();
      const s = await store(target.fresh(dir), { maxUrlsPerFile: 5, now: c.now });
      await s.syncAndBuild(urls(0, 12), { outDir: out });
      c.tick();
      await s.add([{ loc: `${BASE}new` }, { loc: urls(3, 1)[0]!.loc, changefreq: 'daily' }]);
      await s.remove([urls(7, 1)[0]!.loc]);
      const changes = join(dir, 'changes.jsonl');
      const r = await s.build({ outDir: out, changes });
      const lines = readFileSync(changes, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      const byChange = (k: string) =>
        lines.filter((l) => l.kind === 'url' && l.change === k).map((l) => l.loc);
      expect(byChange('added')).toEqual([`${BASE}new`]);
      expect(byChange('changed')).toEqual([urls(3, 1)[0]!.loc]);
      expect(byChange('removed')).toEqual([urls(7, 1)[0]!.loc]);
      expect(r).toMatchObject({ added: 1, changed: 1, removed: 1 });
      const files = lines.filter((l) => l.kind === 'file');
      expect(files.map((f) => `${f.path}:${f.change}`)).toEqual([
        'sitemap-00001.xml:rewritten',
        'sitemap-00002.xml:rewritten',
        'sitemap-00003.xml:rewritten',
        'sitemap.xml:rewritten',
      ]);
      // Published once: the next build reports nothing.
      expect(await s.build({ outDir: out })).toMatchObject({ added: 0, changed: 0, removed: 0 });
      const removed = [];
      for await (const u of s.list({ removed: true })) removed.push(u.loc);
      expect(removed).toEqual([urls(7, 1)[0]!.loc]);
    });
  });

  describe('opening a store', () => {
    it('refuses other settings than those the store was made with, and a second process', async () => {
      const dir = tempDir('sk-store');
      const path = target.fresh(dir);
      const s = await store(path, { maxUrlsPerFile: 10 });
      await s.add(urls(0, 3));
      await s.close();
      const other = await openStore(path, { maxUrlsPerFile: 20 }).catch((e: unknown) => e);
      expect(isSitemapkitError(other, 'ERR_OPTIONS')).toBe(true);
      expect((other as Error).message).toMatch(/made with maxUrlsPerFile 10, not 20/);
      const again = await store(path);
      expect(again.settings.maxUrlsPerFile).toBe(10);
      const locked = await openStore(path).catch((e: unknown) => e);
      expect(isSitemapkitError(locked, 'ERR_STATE')).toBe(true);
      expect((locked as Error).message).toMatch(/in use by another sitemapkit process/);
    });

    it('invalid records under fail import nothing; under skip they are left out and counted', async () => {
      const dir = tempDir('sk-store');
      const s = await store(target.fresh(dir));
      const bad = [{ loc: `${BASE}ok` }, { loc: 'https://elsewhere.org/x' }];
      const e = await s.add(bad).catch((x: unknown) => x);
      expect(isSitemapkitError(e, 'ERR_INVALID_ENTRY')).toBe(true);
      expect((await s.stats()).live).toBe(0);
      expect(await s.add(bad, { onInvalid: 'skip' })).toMatchObject({ added: 1, skipped: 1 });
    });
  });
}
