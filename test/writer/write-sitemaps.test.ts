import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EntryInput } from '../../src/core/entry.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { readManifestEntries, readManifestHeader } from '../../src/writer/manifest.js';
import { untypedRecords, writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, XSD_DIR, xmllint } from '../support/xmllint.js';

const BASE = 'https://example.com/';

function urls(n: number, from = 0): EntryInput[] {
  return Array.from({ length: n }, (_, i) => ({ loc: `${BASE}page/${i + from}` }));
}

function locsIn(path: string): string[] {
  return [...readSitemapText(path).matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
}

function expectValid(path: string): void {
  const r = xmllint(path);
  expect(r.ok, r.output).toBe(true);
}

beforeAll(() => assertXmllint());

describe('writeSitemaps: one file', () => {
  it('writes a single urlset as sitemap.xml that validates', async () => {
    const out = tempDir();
    const r = await writeSitemaps(
      [
        { loc: `${BASE}`, lastmod: '2024-01-02', changefreq: 'Daily', priority: 0.85 },
        { loc: `${BASE}a?x=1&y="2"<3>'`, lastmod: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)) },
      ],
      { outDir: out, baseUrl: BASE },
    );
    expect(r.entry.path).toBe(join(out, 'sitemap.xml'));
    expect(r.files).toHaveLength(1);
    expect(r.urls).toBe(2);
    const xml = readFileSync(r.entry.path, 'utf8');
    expect(xml).toContain('<?xml version="1.0" encoding="UTF-8"?>');
    expect(xml).toContain(
      '<url><loc>https://example.com/</loc><lastmod>2024-01-02</lastmod><changefreq>daily</changefreq><priority>0.9</priority></url>',
    );
    expect(xml).toContain(
      '<loc>https://example.com/a?x=1&amp;y=%222%22%3C3%3E%27</loc><lastmod>2024-01-02T03:04:05Z</lastmod>',
    );
    expect(xml).not.toContain('xmlns:image');
    expectValid(r.entry.path);
    expect(r.entry.bytes).toBe(Buffer.byteLength(xml));
  });

  it('writes UTC one way throughout a set: +00:00 and -00:00 become Z, other offsets stay', async () => {
    const r = await writeSitemaps(
      [
        { loc: `${BASE}a`, lastmod: '2024-01-02T03:04:05Z' },
        { loc: `${BASE}b`, lastmod: '2024-01-02T03:04:05+00:00' },
        { loc: `${BASE}c`, lastmod: '2024-01-02T03:04-00:00' },
        { loc: `${BASE}d`, lastmod: '2024-01-02T03:04:05+02:00' },
      ],
      { output: 'memory', baseUrl: BASE },
    );
    const xml = new TextDecoder().decode(r.memory!.get('sitemap.xml'));
    expect([...xml.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((m) => m[1])).toEqual([
      '2024-01-02T03:04:05Z',
      '2024-01-02T03:04:05Z',
      '2024-01-02T03:04:00Z',
      '2024-01-02T03:04:05+02:00',
    ]);
  });

  it("never modifies the caller's options or entries", async () => {
    const out = tempDir();
    const options = Object.freeze({
      outDir: out,
      baseUrl: BASE,
      allowHosts: Object.freeze(['x.example']) as readonly string[],
    });
    const entry = Object.freeze({ loc: `${BASE}é`, priority: '0.33' });
    await writeSitemaps([entry], options);
    expect(entry).toEqual({ loc: `${BASE}é`, priority: '0.33' });
  });
});

describe('splitting', () => {
  it('50,000 URLs stay in one file; the 50,001st opens a second and an index', async () => {
    const a = tempDir();
    const one = await writeSitemaps(urls(50_000), { outDir: a, baseUrl: BASE });
    expect(one.files.map((f) => f.kind)).toEqual(['urlset']);
    expect(one.files[0]!.urls).toBe(50_000);

    const b = tempDir();
    const two = await writeSitemaps(urls(50_001), { outDir: b, baseUrl: BASE });
    expect(two.entry.kind).toBe('index');
    expect(two.files.map((f) => [f.path.slice(b.length + 1), f.urls])).toEqual([
      ['sitemap-00001.xml', 50_000],
      ['sitemap-00002.xml', 1],
      ['sitemap.xml', 2],
    ]);
    expect(locsIn(join(b, 'sitemap.xml'))).toEqual([`${BASE}sitemap-00001.xml`, `${BASE}sitemap-00002.xml`]);
    for (const f of two.files) expectValid(f.path);
  });

  it('splits at the byte limit exactly: every file fits, and the next URL would not have', async () => {
    const out = tempDir();
    const maxBytes = 4096;
    const entries = Array.from({ length: 300 }, (_, i) => ({ loc: `${BASE}p/${'x'.repeat(i % 37)}/${i}` }));
    const r = await writeSitemaps(entries, { outDir: out, baseUrl: BASE, maxBytesPerFile: maxBytes });
    const children = r.files.filter((f) => f.kind === 'urlset');
    expect(children.length).toBeGreaterThan(5);
    let seen = 0;
    for (const [i, f] of children.entries()) {
      const text = readSitemapText(f.path);
      expect(Buffer.byteLength(text)).toBe(f.bytes);
      expect(f.bytes).toBeLessThanOrEqual(maxBytes);
      seen += f.urls;
      const next = entries[seen];
      if (i < children.length - 1 && next !== undefined) {
        const nextBytes = Buffer.byteLength(`<url><loc>${next.loc}</loc></url>\n`);
        expect(f.bytes + nextBytes).toBeGreaterThan(maxBytes);
      }
      expectValid(f.path);
    }
    expect(seen).toBe(300);
  });

  it('counts multi-byte characters as bytes, not as characters', async () => {
    // The multi-byte text is written into the XML (news titles, and image titles kept by legacy),
    // three bytes a character, so a count of characters would overfill every file.
    const out = tempDir();
    const maxBytes = 4096;
    const entries = Array.from({ length: 60 }, (_, i) => ({
      loc: `${BASE}${i}`,
      images: [{ loc: `${BASE}img/${i}.jpg`, title: '写真'.repeat(40) }],
      news: {
        publication: { name: 'Zeitung für Bücher', language: 'de' },
        publication_date: '2024-01-01',
        title: '新闻'.repeat(60 + (i % 7)),
      },
    }));
    const r = await writeSitemaps(entries, {
      outDir: out,
      baseUrl: BASE,
      maxBytesPerFile: maxBytes,
      legacy: true,
      // Pinned inside the news window (written before the window existed).
      now: () => new Date('2024-01-02T00:00:00Z'),
    });
    const children = r.files.filter((f) => f.kind === 'urlset');
    expect(children.length).toBeGreaterThan(10);
    let seen = 0;
    for (const [i, f] of children.entries()) {
      const text = readSitemapText(f.path);
      expect(text).toContain('新闻');
      expect(Buffer.byteLength(text)).toBe(f.bytes);
      expect(f.bytes).toBeLessThanOrEqual(maxBytes);
      expect(text.length).toBeLessThan(f.bytes);
      seen += f.urls;
      // Rotated at the byte budget: the next entry's bytes would not have fitted.
      const next = entries[seen];
      if (i < children.length - 1 && next !== undefined) {
        const nextXml = readSitemapText(children[i + 1]!.path)
          .split('\n')
          .find((l) => l.startsWith('<url>'))!;
        expect(f.bytes + Buffer.byteLength(nextXml) + 1).toBeGreaterThan(maxBytes);
      }
      expectValid(f.path);
    }
    expect(seen).toBe(60);
  });

  it('puts at most 1,000 news entries in a file', async () => {
    const out = tempDir();
    const news = {
      publication: { name: 'The Times', language: 'en' },
      publication_date: '2024-01-01',
      title: 'T',
    };
    const r = await writeSitemaps(
      Array.from({ length: 2_500 }, (_, i) => ({ loc: `${BASE}n/${i}`, news })),
      // Pinned inside the news window (written before the window existed).
      { outDir: out, baseUrl: BASE, now: () => new Date('2024-01-02T00:00:00Z') },
    );
    expect(r.files.filter((f) => f.kind === 'urlset').map((f) => f.urls)).toEqual([1000, 1000, 500]);
    expectValid(r.files[0]!.path);
  });

  it('writes extra indexes past the index limit, and no index lists an index', async () => {
    const out = tempDir();
    const r = await writeSitemaps(urls(7), {
      outDir: out,
      baseUrl: BASE,
      maxUrlsPerFile: 1,
      maxSitemapsPerIndex: 3,
    });
    expect(r.roots.map((f) => f.path.slice(out.length + 1))).toEqual([
      'sitemap.xml',
      'sitemap-index-2.xml',
      'sitemap-index-3.xml',
    ]);
    expect(r.roots.map((f) => f.urls)).toEqual([3, 3, 1]);
    const listed = r.roots.flatMap((f) => locsIn(f.path));
    expect(listed).toHaveLength(7);
    expect(listed.every((l) => /sitemap-\d{5}\.xml$/.test(l))).toBe(true);
    for (const f of r.roots) expect(xmllint(f.path, join(XSD_DIR, 'siteindex.xsd')).ok).toBe(true);
  });
});

describe('extensions and formats', () => {
  const rich: EntryInput[] = [
    {
      loc: `${BASE}en/page`,
      lastmod: '2024-03-04T05:06:07+02:00',
      images: [`${BASE}a.jpg`, { loc: 'https://cdn.example.net/b.png' }],
      alternates: [
        { hreflang: 'en', href: `${BASE}en/page` },
        { hreflang: 'de', href: `${BASE}de/page` },
        { hreflang: 'x-default', href: `${BASE}en/page` },
      ],
      videos: [
        {
          thumbnail_loc: `${BASE}t.jpg`,
          title: 'Grilling & <steaks>',
          description: 'How to',
          content_loc: `${BASE}v.mp4`,
          player_loc: `${BASE}player?v=1`,
          duration: 600,
          rating: 4.2,
          view_count: 12,
          publication_date: '2024-01-01',
          family_friendly: 'YES',
          restriction: { relationship: 'allow', countries: 'ie gb' },
          platform: { relationship: 'deny', platforms: 'tv' },
          requires_subscription: 'no',
          uploader: { name: 'Grilly', info: `${BASE}users/grilly` },
          live: 'no',
          tag: ['a', 'b'],
        },
      ],
      news: {
        publication: { name: 'The Example Times', language: 'en' },
        publication_date: '2024-01-01T10:00:00Z',
        title: 'Merger',
      },
      mobile: true,
    },
    {
      loc: `${BASE}de/page`,
      alternates: [
        { hreflang: 'en', href: `${BASE}en/page` },
        { hreflang: 'de', href: `${BASE}de/page` },
        { hreflang: 'x-default', href: `${BASE}en/page` },
      ],
    },
  ];

  it('image, video, news, hreflang and mobile output validates against the XSDs, gzip or not', async () => {
    for (const gzip of [false, true]) {
      const out = tempDir();
      // The clock pinned inside the news window (written before the window existed).
      const now = (): Date => new Date('2024-01-02T00:00:00Z');
      const r = await writeSitemaps(rich, { outDir: out, baseUrl: BASE, gzip, now });
      expect(r.entry.path.endsWith(gzip ? 'sitemap.xml.gz' : 'sitemap.xml')).toBe(true);
      const xml = readSitemapText(r.entry.path);
      for (const ns of ['image', 'video', 'news', 'xhtml', 'mobile']) expect(xml).toContain(`xmlns:${ns}=`);
      expect(xml).toContain('<video:title>Grilling &amp; &lt;steaks&gt;</video:title>');
      expect(xml).toContain('<video:restriction relationship="allow">IE GB</video:restriction>');
      expectValid(r.entry.path);
    }
  });

  it('an extension first seen after the look-ahead is declared on its element, and still validates', async () => {
    const out = tempDir();
    const entries: EntryInput[] = [...urls(1500), { loc: `${BASE}late`, images: [`${BASE}late.jpg`] }];
    const r = await writeSitemaps(entries, { outDir: out, baseUrl: BASE });
    const xml = readSitemapText(r.entry.path);
    expect(xml).not.toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image');
    expect(xml).toContain('<image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">');
    expectValid(r.entry.path);
  });

  it('drops the 2022 legacy tags with a warning unless asked to keep them', async () => {
    const entry = { loc: `${BASE}x`, images: [{ loc: `${BASE}x.jpg`, caption: 'Cap', title: 'T' }] };
    const warned: string[] = [];
    const a = tempDir();
    const r1 = await writeSitemaps([entry], {
      outDir: a,
      baseUrl: BASE,
      onDiagnostic: (d) => warned.push(`${d.code}:${d.field}`),
    });
    expect(readSitemapText(r1.entry.path)).not.toContain('image:caption');
    expect(warned).toEqual(['legacy-tag:images[0].caption', 'legacy-tag:images[0].title']);
    const b = tempDir();
    const r2 = await writeSitemaps([entry], { outDir: b, baseUrl: BASE, legacy: true });
    expect(readSitemapText(r2.entry.path)).toContain('<image:caption>Cap</image:caption>');
    expectValid(r2.entry.path);
  });

  it('sections get their own files, all listed in the index', async () => {
    const out = tempDir();
    const entries: EntryInput[] = [
      { loc: `${BASE}` },
      { loc: `${BASE}p/1`, section: 'products' },
      { loc: `${BASE}b/1`, section: 'Blog' },
      { loc: `${BASE}p/2`, section: 'products' },
      { loc: `${BASE}p/3`, section: 'products' },
    ];
    const r = await writeSitemaps(entries, { outDir: out, baseUrl: BASE, maxUrlsPerFile: 2 });
    expect(r.files.map((f) => f.path.slice(out.length + 1))).toEqual([
      'sitemap-00001.xml',
      'sitemap-blog-00001.xml',
      'sitemap-products-00001.xml',
      'sitemap-products-00002.xml',
      'sitemap.xml',
    ]);
    expect(locsIn(join(out, 'sitemap-products-00002.xml'))).toEqual([`${BASE}p/3`]);
  });

  it('text format: sitemap.txt, or an XML index over .txt files', async () => {
    const a = tempDir();
    const r1 = await writeSitemaps(urls(3), { outDir: a, baseUrl: BASE, format: 'txt' });
    expect(readFileSync(r1.entry.path, 'utf8')).toBe(`${BASE}page/0\n${BASE}page/1\n${BASE}page/2\n`);
    expect(r1.entry.path.endsWith('sitemap.txt')).toBe(true);
    const b = tempDir();
    const r2 = await writeSitemaps(urls(3), {
      outDir: b,
      baseUrl: BASE,
      format: 'txt',
      maxUrlsPerFile: 2,
      gzip: true,
    });
    expect(r2.files.map((f) => f.path.slice(b.length + 1))).toEqual([
      'sitemap-00001.txt.gz',
      'sitemap-00002.txt.gz',
      'sitemap.xml.gz',
    ]);
    expect(locsIn(r2.entry.path)).toEqual([`${BASE}sitemap-00001.txt.gz`, `${BASE}sitemap-00002.txt.gz`]);
    expectValid(r2.entry.path);
  });
});

describe('bad input', () => {
  const bad: Array<[string, EntryInput | unknown, string, string]> = [
    ['relative URL', { loc: '/x' }, 'url-invalid', 'loc'],
    ['other scheme', { loc: 'ftp://example.com/x' }, 'url-scheme', 'loc'],
    ['other host', { loc: 'https://other.example/x' }, 'url-outside-location', 'loc'],
    ['bad date', { loc: `${BASE}x`, lastmod: '31/12/2024' }, 'lastmod-invalid', 'lastmod'],
    ['NaN priority', { loc: `${BASE}x`, priority: Number.NaN }, 'priority-invalid', 'priority'],
    ['string priority', { loc: `${BASE}x`, priority: 'high' }, 'priority-invalid', 'priority'],
    ['priority 1.5', { loc: `${BASE}x`, priority: 1.5 }, 'priority-invalid', 'priority'],
    ['bad changefreq', { loc: `${BASE}x`, changefreq: 'sometimes' }, 'changefreq-invalid', 'changefreq'],
    [
      'video without title',
      { loc: `${BASE}x`, videos: [{ thumbnail_loc: `${BASE}t`, description: 'd', content_loc: `${BASE}v` }] },
      'video-missing-field',
      'videos[0].title',
    ],
    [
      'hreflang without self',
      { loc: `${BASE}x`, alternates: [{ hreflang: 'de', href: `${BASE}de` }] },
      'hreflang-missing-self',
      'alternates',
    ],
    ['not an object', 'https://example.com/x', 'entry-invalid', ''],
  ];

  it.each(bad)('%s: fail writes nothing, names the record and field', async (_name, entry, code, field) => {
    const out = tempDir();
    await writeSitemaps(urls(2), { outDir: out, baseUrl: BASE });
    const before = readFileSync(join(out, 'sitemap.xml'));
    const diags: Array<{ code: string; record?: number; field?: string }> = [];
    const err = await writeSitemaps(untypedRecords([...urls(3, 100), entry]), {
      outDir: out,
      baseUrl: BASE,
      onDiagnostic: (d) => diags.push(d),
    }).catch((e) => e);
    expect(isSitemapkitError(err, 'ERR_INVALID_ENTRY')).toBe(true);
    expect(diags).toContainEqual(expect.objectContaining({ code, record: 4, field }));
    expect(readFileSync(join(out, 'sitemap.xml'))).toEqual(before);
    expect(readdirSync(out).filter((n) => n.startsWith('.sitemapkit-tmp'))).toEqual([]);
  });

  it('skip leaves bad and duplicate records out and counts them', async () => {
    const out = tempDir();
    const r = await writeSitemaps([...urls(3), { loc: '/rel' }, { loc: `${BASE}page/1` }], {
      outDir: out,
      baseUrl: BASE,
      onInvalid: 'skip',
    });
    expect(r.urls).toBe(3);
    expect(r.skipped).toBe(2);
    expect(r.counts.error).toBe(2);
  });

  it('allowHosts lets cross-submitted hosts through the location rule', async () => {
    const out = tempDir();
    const r = await writeSitemaps([{ loc: 'https://shop.example.net/a' }], {
      outDir: out,
      baseUrl: BASE,
      allowHosts: ['shop.example.net'],
    });
    expect(r.urls).toBe(1);
  });

  it('zero entries: ERR_NO_URLS and the previous set stays', async () => {
    const out = tempDir();
    await writeSitemaps(urls(2), { outDir: out, baseUrl: BASE });
    const err = await writeSitemaps([], { outDir: out, baseUrl: BASE }).catch((e) => e);
    expect(isSitemapkitError(err, 'ERR_NO_URLS')).toBe(true);
    expect(locsIn(join(out, 'sitemap.xml'))).toHaveLength(2);
  });

  it('refuses contradictory or out-of-range options up front', async () => {
    const out = tempDir();
    for (const o of [
      { maxUrlsPerFile: 50_001 },
      { maxBytesPerFile: 52_428_801 },
      { baseUrl: 'ftp://example.com/' },
      { format: 'txt' as const, extensions: ['image' as const] },
    ]) {
      const err = await writeSitemaps(urls(1), { outDir: out, baseUrl: BASE, ...o }).catch((e) => e);
      expect(isSitemapkitError(err, 'ERR_OPTIONS'), JSON.stringify(o)).toBe(true);
    }
  });

  it('an abort leaves the previous set and no temp folder', async () => {
    const out = tempDir();
    await writeSitemaps(urls(2), { outDir: out, baseUrl: BASE });
    const ac = new AbortController();
    async function* slow(): AsyncGenerator<EntryInput> {
      for (let i = 0; i < 5000; i++) {
        if (i === 3000) ac.abort();
        yield { loc: `${BASE}q/${i}` };
      }
    }
    const err = await writeSitemaps(slow(), { outDir: out, baseUrl: BASE, signal: ac.signal }).catch(
      (e) => e,
    );
    expect(isSitemapkitError(err, 'ERR_ABORTED')).toBe(true);
    expect(locsIn(join(out, 'sitemap.xml'))).toHaveLength(2);
    expect(readdirSync(out).sort()).toEqual(['.sitemapkit-manifest.json', 'sitemap.xml']);
  });
});

describe('rebuilds, manifest and robots.txt', () => {
  it('carries a child lastmod over when its bytes did not change, and stamps changed ones', async () => {
    const out = tempDir();
    const t1 = new Date('2024-01-01T00:00:00Z');
    const t2 = new Date('2024-02-01T00:00:00Z');
    await writeSitemaps(urls(5), { outDir: out, baseUrl: BASE, maxUrlsPerFile: 2, now: () => t1 });
    const changed = urls(5);
    changed[4] = { loc: `${BASE}page/4`, lastmod: '2024-01-31' };
    await writeSitemaps(changed, { outDir: out, baseUrl: BASE, maxUrlsPerFile: 2, now: () => t2 });
    const index = readFileSync(join(out, 'sitemap.xml'), 'utf8');
    expect(index).toContain(
      '<loc>https://example.com/sitemap-00001.xml</loc><lastmod>2024-01-01T00:00:00Z</lastmod>',
    );
    expect(index).toContain(
      '<loc>https://example.com/sitemap-00003.xml</loc><lastmod>2024-02-01T00:00:00Z</lastmod>',
    );
  });

  it('SOURCE_DATE_EPOCH makes the output byte-identical', async () => {
    const prev = process.env['SOURCE_DATE_EPOCH'];
    process.env['SOURCE_DATE_EPOCH'] = '1700000000';
    try {
      const dirs = [tempDir(), tempDir()];
      for (const d of dirs)
        await writeSitemaps(urls(5), { outDir: d, baseUrl: BASE, maxUrlsPerFile: 2, gzip: true });
      for (const name of readdirSync(dirs[0]!)) {
        expect(readFileSync(join(dirs[1]!, name)), name).toEqual(readFileSync(join(dirs[0]!, name)));
      }
      expect(readFileSync(join(dirs[0]!, 'sitemap.xml.gz')).length).toBeGreaterThan(0);
    } finally {
      if (prev === undefined) delete process.env['SOURCE_DATE_EPOCH'];
      else process.env['SOURCE_DATE_EPOCH'] = prev;
    }
  });

  it("removes its own stale files and never touches anyone else's", async () => {
    const out = tempDir();
    writeFileSync(join(out, 'sitemap-00009.xml'), 'not ours');
    writeFileSync(join(out, 'index.html'), '<p>site</p>');
    await writeSitemaps(urls(6), { outDir: out, baseUrl: BASE, maxUrlsPerFile: 2 });
    await writeSitemaps(urls(3), { outDir: out, baseUrl: BASE, maxUrlsPerFile: 2 });
    expect(readdirSync(out).sort()).toEqual([
      '.sitemapkit-manifest.json',
      'index.html',
      'sitemap-00001.xml',
      'sitemap-00002.xml',
      'sitemap-00009.xml',
      'sitemap.xml',
    ]);
  });

  it('the manifest lists every file with its hash and every entry with a change hash', async () => {
    const out = tempDir();
    await writeSitemaps([{ loc: `${BASE}a`, lastmod: '2024-01-01' }, { loc: `${BASE}b` }], {
      outDir: out,
      baseUrl: BASE,
    });
    const header = await readManifestHeader(out);
    expect(header).toMatchObject({
      format: 'sitemapkit-manifest',
      version: 1,
      roots: ['sitemap.xml'],
      entryCount: 2,
    });
    const entries = [];
    for await (const e of readManifestEntries(out)) entries.push(e);
    expect(entries).toEqual([
      { loc: `${BASE}a`, lastmod: '2024-01-01', hash: expect.stringMatching(/^[0-9a-f]{16}$/) },
      { loc: `${BASE}b`, hash: expect.stringMatching(/^[0-9a-f]{16}$/) },
    ]);
    // The whole file is one JSON document too.
    expect(JSON.parse(readFileSync(join(out, '.sitemapkit-manifest.json'), 'utf8')).entries).toHaveLength(2);
  });

  it('updates robots.txt Sitemap: lines and leaves every other line alone', async () => {
    const out = tempDir();
    const robots = join(out, 'robots.txt');
    writeFileSync(
      robots,
      'User-agent: *\r\nDisallow: /private\r\nSitemap: https://other.example/sitemap.xml\r\n',
    );
    await writeSitemaps(urls(5), {
      outDir: out,
      baseUrl: BASE,
      maxUrlsPerFile: 1,
      maxSitemapsPerIndex: 3,
      updateRobots: robots,
    });
    expect(readFileSync(robots, 'utf8')).toBe(
      'User-agent: *\r\nDisallow: /private\r\nSitemap: https://other.example/sitemap.xml\r\n\r\nSitemap: https://example.com/sitemap.xml\r\nSitemap: https://example.com/sitemap-index-2.xml\r\n',
    );
    await writeSitemaps(urls(2), { outDir: out, baseUrl: BASE, updateRobots: robots });
    expect(readFileSync(robots, 'utf8')).toBe(
      'User-agent: *\r\nDisallow: /private\r\nSitemap: https://other.example/sitemap.xml\r\n\r\nSitemap: https://example.com/sitemap.xml\r\n',
    );
    expect(existsSync(join(out, 'sitemap-index-2.xml'))).toBe(false);
  });
});

describe('the HTML site map beside the set', () => {
  it('a section named Pages or PAGES and entries without a section get two different headings', async () => {
    const r = await writeSitemaps(
      [{ loc: `${BASE}a`, section: 'Pages' }, { loc: `${BASE}b` }, { loc: `${BASE}c`, section: 'PAGES' }],
      { output: 'memory', baseUrl: BASE, html: true },
    );
    const html = new TextDecoder().decode(r.memory!.get('sitemap.html'));
    expect([...html.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1])).toEqual(['Other pages', 'Pages']);
  });
});

describe('hreflang groups across records', () => {
  const group = (langs: Record<string, string>) =>
    Object.entries(langs).map(([hreflang, href]) => ({ hreflang, href }));
  const en = `${BASE}en/`;
  const de = `${BASE}de/`;
  const fr = `${BASE}fr/`;

  it('a reciprocal group is written', async () => {
    const g = group({ en, de, 'x-default': en });
    const r = await writeSitemaps(
      [
        { loc: en, alternates: g },
        { loc: de, alternates: g },
      ],
      { outDir: tempDir(), baseUrl: BASE },
    );
    expect(r.urls).toBe(2);
    expectValid(r.entry.path);
  });

  it('a member that lists a different set, or none, fails the build under fail', async () => {
    const diags: Array<{ code: string; url?: string }> = [];
    const err = await writeSitemaps(
      [
        { loc: en, alternates: group({ en, de, fr }) },
        { loc: de, alternates: group({ en, de }) },
        { loc: fr },
      ],
      { outDir: tempDir(), baseUrl: BASE, onDiagnostic: (d) => diags.push(d) },
    ).catch((e) => e);
    expect(isSitemapkitError(err, 'ERR_INVALID_ENTRY')).toBe(true);
    expect(
      diags
        .filter((d) => d.code === 'hreflang-not-reciprocal')
        .map((d) => d.url)
        .sort(),
    ).toEqual([de, en, fr]);
  });

  it('under skip the build is written without the one-sided group, with a warning', async () => {
    const r = await writeSitemaps([{ loc: en, alternates: group({ en, de }) }, { loc: de }], {
      outDir: tempDir(),
      baseUrl: BASE,
      onInvalid: 'skip',
    });
    expect(r.urls).toBe(2);
    expect(r.counts.warning).toBe(1);
    // The group used to be written as it was, which `validate` then failed (issue 11, defect 3).
    expect(readSitemapText(r.entry.path)).not.toContain('xhtml:link');
  });

  it('alternates on other hosts cannot be checked here and are not flagged', async () => {
    const other = 'https://example.de/';
    const g = group({ en, de: other });
    const r = await writeSitemaps([{ loc: en, alternates: g }], { outDir: tempDir(), baseUrl: BASE });
    expect(r.counts.error + r.counts.warning).toBe(0);
  });
});

describe('legacy video fields', () => {
  const video = { thumbnail_loc: `${BASE}t.jpg`, title: 'T', description: 'D', content_loc: `${BASE}v.mp4` };

  it('are checked and written in the XSD order with --legacy, and validate', async () => {
    const r = await writeSitemaps(
      [
        {
          loc: `${BASE}v`,
          videos: [
            {
              ...video,
              content_segment_loc: [`${BASE}seg1.mp4`],
              id: [{ type: 'url', value: ' https://example.com/id ' }],
              tvshow: {
                show_title: ' The Show ',
                video_type: 'full',
                season_number: '2',
                premier_date: '2024-01-01',
              },
              category: 'Food',
            },
          ],
        },
      ],
      { outDir: tempDir(), baseUrl: BASE, legacy: true },
    );
    const xml = readSitemapText(r.entry.path);
    expect(xml).toContain(
      '<video:tvshow><video:show_title>The Show</video:show_title><video:video_type>full</video:video_type><video:season_number>2</video:season_number><video:premier_date>2024-01-01</video:premier_date></video:tvshow>',
    );
    expectValid(r.entry.path);
  });

  it('bad ones are errors naming the field', async () => {
    const diags: Array<{ field?: string }> = [];
    const err = await writeSitemaps(
      untypedRecords([
        {
          loc: `${BASE}v`,
          videos: [
            { ...video, tvshow: { season_number: 1 }, id: [{ value: 'x' }], content_segment_loc: ['/rel'] },
          ],
        },
      ]),
      { outDir: tempDir(), baseUrl: BASE, legacy: true, onDiagnostic: (d) => diags.push(d) },
    ).catch((e) => e);
    expect(isSitemapkitError(err, 'ERR_INVALID_ENTRY')).toBe(true);
    expect(diags.map((d) => d.field).sort()).toEqual([
      'videos[0].content_segment_loc[0]',
      'videos[0].id',
      'videos[0].tvshow.show_title',
    ]);
  });
});
