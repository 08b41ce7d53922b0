import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SitemapEntry } from '../../src/core/entry.js';
import { type ClosedFile, SitemapEngine } from '../../src/writer/engine.js';
import { urlXml } from '../../src/writer/serialize.js';

const BASE = 'https://example.com/';

/** Runs the engine over entries and keeps its events: each file's text and what the engine reported. */
function collect(
  entries: ReadonlyArray<{ e: SitemapEntry; file?: string }>,
  options: ConstructorParameters<typeof SitemapEngine>[1] = {},
) {
  const texts = new Map<string, string>();
  const events: string[] = [];
  const closed: ClosedFile[] = [];
  const engine = new SitemapEngine<string>(
    {
      open(f) {
        events.push(`open ${f.name}`);
        texts.set(f.name, '');
        return f.name;
      },
      chunk(name, text, bytes) {
        expect(bytes).toBe(Buffer.byteLength(text));
        texts.set(name, texts.get(name)! + text);
      },
      close(name, f) {
        events.push(`close ${name} ${f.urls}`);
        closed.push(f);
      },
    },
    options,
  );
  const problems = entries.map(({ e, file }) => engine.add(e, file));
  const files = engine.finish();
  return { texts, events, closed, files, problems };
}

const multiByte = ['é', 'ü', '中', '文', '😀', 'ß', 'a', ' '];
const titleArb = fc
  .array(fc.constantFrom(...multiByte), { minLength: 1, maxLength: 60 })
  .map((a) => a.join('').trim() || 'é');

const newsOf = (title: string) => ({
  publication: { name: 'Zeitung für Bücher', language: 'de' },
  publication_date: '2024-01-01',
  title,
});

describe('SitemapEngine', () => {
  it('emits open, chunks and close, and closes each file with its count and exact bytes', () => {
    const r = collect(
      [0, 1, 2].map((i) => ({ e: { loc: `${BASE}${i}` } })),
      { maxUrlsPerFile: 2 },
    );
    expect(r.events).toEqual([
      'open sitemap-00001.xml',
      'close sitemap-00001.xml 2',
      'open sitemap-00002.xml',
      'close sitemap-00002.xml 1',
    ]);
    for (const f of r.files) expect(f.bytes).toBe(Buffer.byteLength(r.texts.get(f.name)!));
    expect(r.texts.get('sitemap-00002.xml')).toMatch(
      /^<\?xml[\s\S]*<url><loc>https:\/\/example\.com\/2<\/loc><\/url>\n<\/urlset>\n$/,
    );
  });

  it('hits the byte budget exactly with multi-byte text in the XML', () => {
    // Each entry carries a 3-byte character 300 times in its news title: characters and bytes differ 3x.
    const entries = Array.from({ length: 40 }, (_, i) => ({
      e: { loc: `${BASE}n/${i}`, news: newsOf('中'.repeat(300)) } as SitemapEntry,
    }));
    const budget = 4096;
    const r = collect(entries, { maxBytesPerFile: budget });
    expect(r.files.length).toBeGreaterThan(4);
    let written = 0;
    for (const [i, f] of r.files.entries()) {
      const text = r.texts.get(f.name)!;
      expect(f.bytes).toBe(Buffer.byteLength(text));
      expect(f.bytes).toBeLessThanOrEqual(budget);
      // The file was closed because the next entry would not have fit (counting bytes, not characters).
      written += f.urls;
      if (i < r.files.length - 1) {
        const next = entries[written]!.e;
        expect(f.bytes + Buffer.byteLength(urlXml(next, new Set()))).toBeGreaterThan(budget);
        expect(text.length).toBeLessThan(f.bytes);
      }
    }
    expect(written).toBe(40);
  });

  it('rotates after 1,000 news entries, and at the URL budget', () => {
    const entries = Array.from({ length: 2_300 }, (_, i) => ({
      e: (i % 2 === 0 ? { loc: `${BASE}${i}`, news: newsOf('T') } : { loc: `${BASE}${i}` }) as SitemapEntry,
    }));
    expect(collect(entries).files.map((f) => [f.urls, f.news])).toEqual([
      [2000, 1000],
      [300, 150],
    ]);
    expect(collect(entries, { maxUrlsPerFile: 1000 }).files.map((f) => f.urls)).toEqual([1000, 1000, 300]);
  });

  it('sections rotate on their own; files come back in index order', () => {
    const r = collect(
      [
        { e: { loc: `${BASE}b1`, section: 'blog' } },
        { e: { loc: `${BASE}1` } },
        { e: { loc: `${BASE}a1`, section: 'archive' } },
        { e: { loc: `${BASE}b2`, section: 'blog' } },
        { e: { loc: `${BASE}p1` }, file: 'products' },
      ],
      { maxUrlsPerFile: 1, suffix: '.gz' },
    );
    expect(r.files.map((f) => f.name)).toEqual([
      'sitemap-00001.xml.gz',
      'sitemap-archive-00001.xml.gz',
      'sitemap-blog-00001.xml.gz',
      'sitemap-blog-00002.xml.gz',
      'products.xml.gz',
    ]);
  });

  it('named files take entries already assigned to them, never rotate, and refuse the writer’s own names', () => {
    const r = collect(
      [
        { e: { loc: `${BASE}a` }, file: 'shard-a' },
        { e: { loc: `${BASE}b` }, file: 'shard-b' },
        { e: { loc: `${BASE}c` }, file: 'shard-a' },
        { e: { loc: `${BASE}d` }, file: 'shard-a' },
        { e: { loc: `${BASE}e` }, file: 'sitemap-00001' },
        { e: { loc: `${BASE}f` }, file: 'sitemap' },
        { e: { loc: `${BASE}g` }, file: 'sitemap-index-2' },
        { e: { loc: `${BASE}h` }, file: '../up' },
      ],
      { maxUrlsPerFile: 2, format: 'txt' },
    );
    expect(r.files.map((f) => [f.name, f.urls])).toEqual([
      ['shard-a.txt', 2],
      ['shard-b.txt', 1],
    ]);
    expect(r.texts.get('shard-a.txt')).toBe(`${BASE}a\n${BASE}c\n`);
    expect(r.problems.map((p) => p?.code)).toEqual([
      undefined,
      undefined,
      undefined,
      'file-full',
      'file-name-invalid',
      'file-name-invalid',
      'file-name-invalid',
      'file-name-invalid',
    ]);
    expect(r.problems[3]!.message).toContain('shard-a.txt already lists 2 URLs');
  });

  it('refuses an entry larger than a file, and emits nothing for it', () => {
    const r = collect([{ e: { loc: `${BASE}${'x'.repeat(1200)}` } }, { e: { loc: `${BASE}ok` } }], {
      maxBytesPerFile: 1024,
    });
    expect(r.problems[0]?.code).toBe('entry-too-large');
    expect(r.files.map((f) => f.urls)).toEqual([1]);
  });

  it('property: every file’s reported bytes are its real UTF-8 length, within the budget', () => {
    const entryArb = fc.record({
      path: fc
        .array(fc.constantFrom('a', 'é', '中', '😀', '/', '-'), { maxLength: 30 })
        .map((a) => a.join('')),
      title: titleArb,
      kind: fc.constantFrom('news', 'image', 'video', 'plain'),
      section: fc.constantFrom(undefined, 'blog'),
    });
    fc.assert(
      fc.property(
        fc.array(entryArb, { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 1024, max: 6000 }),
        fc.integer({ min: 1, max: 30 }),
        (specs, budget, perFile) => {
          const entries = specs.map((s, i) => {
            const loc = `${BASE}${encodeURI(s.path)}/${i}`;
            const e: SitemapEntry =
              s.kind === 'news'
                ? { loc, news: newsOf(s.title) }
                : s.kind === 'image'
                  ? { loc, images: [{ loc: `${BASE}i.jpg`, title: s.title, caption: s.title }] }
                  : s.kind === 'video'
                    ? {
                        loc,
                        videos: [
                          {
                            thumbnail_loc: `${BASE}t.jpg`,
                            title: s.title,
                            description: s.title,
                            content_loc: `${BASE}v.mp4`,
                          },
                        ],
                      }
                    : { loc };
            if (s.section !== undefined) e.section = s.section;
            return { e };
          });
          const r = collect(entries, { maxBytesPerFile: budget, maxUrlsPerFile: perFile });
          let urls = 0;
          for (const f of r.files) {
            const real = Buffer.byteLength(r.texts.get(f.name)!);
            expect(f.bytes).toBe(real);
            expect(real).toBeLessThanOrEqual(budget);
            expect(f.urls).toBeLessThanOrEqual(perFile);
            urls += f.urls;
          }
          const refused = r.problems.filter((p) => p !== undefined);
          expect(refused.every((p) => p.code === 'entry-too-large')).toBe(true);
          expect(urls + refused.length).toBe(entries.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});
