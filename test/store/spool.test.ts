// The first build of an empty store writes its files from the texts its import kept (the spool,
// src/store/spool.ts) instead of reading every row back: the published bytes must be exactly those
// of a build that reads them back, whatever the entries (sections, lastmods, extensions, news
// blocks in and out of the window, text format, gzip, dropped lastmods), and the spool must
// really serve the files it can and leave nothing behind.
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SitemapEntryInput } from '../../src/core/entry.js';
import { BuildSpool } from '../../src/store/spool.js';
import { SqliteBackend } from '../../src/store/sqlite.js';
import { openStore } from '../../src/store/store.js';
import { tempDir } from '../support/tmp.js';
import { BASE, clock, snapshot } from './helpers.js';

const NOW = Date.UTC(2026, 0, 10);
const day = (n: number): string => new Date(NOW - n * 86_400_000).toISOString().slice(0, 10);

const entryArb: fc.Arbitrary<(id: number) => SitemapEntryInput> = fc
  .record({
    section: fc.constantFrom(undefined, 'blog', 'shop'),
    lastmod: fc.constantFrom(undefined, day(3), day(40), '2025-06-01T10:00:00+02:00'),
    priority: fc.constantFrom(undefined, 0.3, 0.8),
    image: fc.boolean(),
    // A news block published a day ago stays; one of five days ago is dropped by the window.
    news: fc.constantFrom(undefined, 1, 5),
    unicode: fc.boolean(),
  })
  .map(
    (r) =>
      (id: number): SitemapEntryInput => ({
        loc: `${BASE}${r.unicode ? 'caf\u00e9/' : 'p/'}${id}`,
        ...(r.section !== undefined && { section: r.section }),
        ...(r.lastmod !== undefined && { lastmod: r.lastmod }),
        ...(r.priority !== undefined && { priority: r.priority }),
        ...(r.image && { images: [`${BASE}img/${id}.png`] }),
        ...(r.news !== undefined && {
          news: {
            publication: { name: 'Example', language: 'en' },
            publication_date: day(r.news),
            title: `Story ${id}`,
          },
        }),
      }),
  );

afterEach(() => {
  vi.restoreAllMocks();
});

function spools(store: string): string[] {
  return readdirSync(dirname(store)).filter((n) => n.includes('.spool-'));
}

describe('the first build from the spool', () => {
  it('publishes the bytes of a build that reads the rows back (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entryArb, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 2, max: 9 }),
        fc.constantFrom('xml', 'txt'),
        fc.boolean(),
        fc.constantFrom('warn', 'drop'),
        fc.boolean(),
        async (makers, perFile, format, gzip, lastmodPolicy, sameLastmods) => {
          // 20 or more lastmods of one value make the policy drop them (the build decides that).
          const entries = makers.map((make, i) => {
            const e = make(i);
            return sameLastmods ? { ...e, lastmod: day(2) } : e;
          });
          const c = clock(NOW);
          const options = { baseUrl: BASE, maxUrlsPerFile: perFile, now: c.now, format } as const;
          const build = { gzip, lastmodPolicy } as const;
          const dirA = tempDir('sk-spool');
          const a = await openStore(join(dirA, 'site.db'), options);
          const ra = await a.syncAndBuild(entries, { ...build, outDir: join(dirA, 'out') });
          await a.close();
          const dirB = tempDir('sk-spool');
          // In thread: a first build through the worker thread publishes the bytes of one without it.
          const b = await openStore(join(dirB, 'site.db'), { ...options, worker: false });
          await b.sync(entries);
          const rb = await b.build({ ...build, outDir: join(dirB, 'out') });
          await b.close();
          const { import: _counts, ...rest } = ra;
          expect(rest).toEqual(rb);
          expect(snapshot(join(dirA, 'out'))).toEqual(snapshot(join(dirB, 'out')));
          expect(spools(join(dirA, 'site.db'))).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('serves every file of a plain first build: no row is read back', async () => {
    const fragments = vi.spyOn(SqliteBackend.prototype, 'fragments');
    const dir = tempDir('sk-spool');
    // In thread, where the spy sees the backend's calls.
    const s = await openStore(join(dir, 'site.db'), { baseUrl: BASE, maxUrlsPerFile: 10, worker: false });
    const r = await s.syncAndBuild(
      Array.from({ length: 45 }, (_, i) => ({ loc: `${BASE}p/${i}`, ...(i % 2 === 0 && { priority: 0.5 }) })),
      { outDir: join(dir, 'out') },
    );
    expect(r.files.filter((f) => f.kind === 'urlset')).toHaveLength(5);
    expect(fragments).not.toHaveBeenCalled();
    // The layouts it recorded let the next build splice the changed files from their bytes.
    const next = await s.syncAndBuild(
      Array.from({ length: 46 }, (_, i) => ({ loc: `${BASE}p/${i}` })),
      { outDir: join(dir, 'out') },
    );
    expect(next.files.filter((f) => f.change === 'rewritten').length).toBeGreaterThan(0);
    expect(fragments).not.toHaveBeenCalled();
    // A gzipped set records no layouts: a later sync of a store that holds rows reads them back.
    await s.syncAndBuild(
      Array.from({ length: 45 }, (_, i) => ({ loc: `${BASE}p/${i}` })),
      { outDir: join(dir, 'out'), gzip: true },
    );
    expect(fragments).toHaveBeenCalled();
    await s.close();
    expect(spools(join(dir, 'site.db'))).toEqual([]);
  });

  it('reads back a file whose news blocks the window decides', async () => {
    const fragments = vi.spyOn(SqliteBackend.prototype, 'fragments');
    const dir = tempDir('sk-spool');
    const s = await openStore(join(dir, 'site.db'), {
      baseUrl: BASE,
      now: () => new Date(NOW),
      worker: false,
    });
    await s.syncAndBuild(
      [
        { loc: `${BASE}a` },
        {
          loc: `${BASE}b`,
          news: { publication: { name: 'N', language: 'en' }, publication_date: day(5), title: 'Old' },
        },
      ],
      { outDir: join(dir, 'out') },
    );
    expect(fragments).toHaveBeenCalledTimes(2);
    await s.close();
  });

  it("gives back each file's texts in order, whatever their sizes (past a chunk) and characters (property)", () => {
    const textArb = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.integer({ min: 60_000, max: 140_000 }).map((n) => `<url>${'\u00e9x'.repeat(n / 2)}</url>\n`),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 3 }), textArb), { maxLength: 60 }), (adds) => {
        const spool = BuildSpool.create(join(tempDir('sk-spool'), 'site.db'), true);
        try {
          const want = new Map<number, string[]>();
          for (const [file, text] of adds) {
            spool.add(file, 0, text, Buffer.byteLength(text));
            want.set(file, [...(want.get(file) ?? []), text]);
          }
          for (const [id, texts] of want) {
            const got = spool.texts({ id, urls: texts.length, bytes: Buffer.byteLength(texts.join('')) });
            expect([...got!].join('')).toBe(texts.join(''));
          }
        } finally {
          spool.dispose();
        }
      }),
      { numRuns: 30 },
    );
  });

  it('stands aside when it cannot be made: nothing kept, every file read from the store', () => {
    const spool = BuildSpool.create(join(tempDir('sk-spool'), 'missing', 'site.db'), true);
    spool.add(1, 1, '<url><loc>x</loc></url>\n', 24);
    expect(spool.texts({ id: 1, urls: 1, bytes: 24 })).toBeUndefined();
    spool.dispose();
  });

  it('leaves no spool behind when the build fails, and removes those of dead runs', async () => {
    const dir = tempDir('sk-spool');
    const store = join(dir, 'site.db');
    // A run killed with its spool still there (pid 2^22+1 is above Linux's pid_max).
    writeFileSync(join(dir, `.site.db.spool-${2 ** 22 + 1}-abcd.tmp`), 'stale');
    const s = await openStore(store, { baseUrl: BASE });
    const error = await s
      .syncAndBuild([{ loc: `${BASE}a` }], { outDir: join(dir, 'out'), xsl: 'x'.repeat(4000) })
      .catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/too long/);
    expect(spools(store)).toEqual([]);
    expect(await s.stats().then((st) => st.live)).toBe(0);
    await s.close();
  });
});
