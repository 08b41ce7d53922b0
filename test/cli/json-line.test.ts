import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryLine, jsonLine, jsonString, jsonValue } from '../../src/cli/json-line.js';
import type { SitemapEntry } from '../../src/core/entry.js';
import { parseSitemapToArray } from '../../src/parser/parse-sitemap.js';
import { CORPUS } from '../parser/corpus.js';
import { SAMPLES, sampleFiles } from '../parser/helpers.js';

/** What `sitemapkit parse --format jsonl` wrote before the one-pass writer: the slow path. */
function slowLine(row: object, sitemapJson: string): string {
  const json = JSON.stringify(row);
  return (row as { sitemap?: unknown }).sitemap === undefined
    ? `${json.slice(0, -1)},"sitemap":${sitemapJson}}\n`
    : `${json}\n`;
}

/** Every UTF-16 code unit, lone surrogates, controls, quotes and backslashes included. */
const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.constantFrom('"', '\\', '\u2028', '\ud83d\ude00', '\ud800', '\udfff', '\u007f', '\u0000'),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constantFrom(undefined, null, -0, Number.NaN, Number.POSITIVE_INFINITY),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(text, fc.constantFrom('0', '10', 'loc', 'sitemap')), tie('value'), {
      maxKeys: 5,
      noNullPrototype: true,
    }),
  ),
}));

describe('the one-pass JSON line writer', () => {
  it('writes what JSON.stringify writes, for any value (property)', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(jsonValue(v)).toBe(JSON.stringify(v));
      }),
      { numRuns: 3000 },
    );
  });

  it('quotes any string as JSON.stringify does (property)', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(jsonString(s)).toBe(JSON.stringify(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes the line the JSON.stringify path wrote, "sitemap" last, for any row (property)', () => {
    const row = fc.tuple(
      fc.record({ loc: text }),
      fc.dictionary(text, value, { maxKeys: 6, noNullPrototype: true }),
      fc.option(text, { nil: undefined }),
    );
    fc.assert(
      fc.property(row, text, ([head, rest, sitemap], name) => {
        const r: Record<string, unknown> = { ...head, ...rest };
        if (sitemap !== undefined) r['sitemap'] = sitemap;
        expect(jsonLine(r, JSON.stringify(name))).toBe(slowLine(r, JSON.stringify(name)));
      }),
      { numRuns: 3000 },
    );
  });

  it('writes the same lines as the JSON.stringify path for every item of every sample file', async () => {
    let items = 0;
    for (const name of sampleFiles()) {
      if (name.includes('MiB')) continue; // megabytes of padding, no entries of interest
      const parsed = await parseSitemapToArray(`${SAMPLES}${name}`);
      for (const item of parsed.items) {
        items++;
        expect(jsonLine(item, JSON.stringify(name))).toBe(slowLine(item, JSON.stringify(name)));
      }
    }
    expect(items).toBeGreaterThan(50_000);
  });
});

/** Text as it may sit in an element: entities, odd characters, blanks around it. */
const xmlText = fc
  .array(
    fc.constantFrom(
      'a',
      'Z',
      '0',
      ' ',
      '\n',
      '&amp;',
      '&lt;',
      '&quot;',
      '&#233;',
      '&#x1F600;',
      '"',
      "'",
      '\\',
      'é',
      '中',
      '\t',
    ),
    { maxLength: 12 },
  )
  .map((a) => a.join(''));
const urlText = fc
  .tuple(
    fc.constantFrom(
      'https://example.com/',
      'http://EXAMPLE.com:80/',
      'https://xn--bcher-kva.example/',
      ' https://example.com/a b',
      'ftp://x/',
      '',
    ),
    fc.array(fc.constantFrom('a', '/', '%20', '%2e', '..', '?q=1', '#f', 'ü', '&amp;', '"', '\\'), {
      maxLength: 6,
    }),
  )
  .map(([head, tail]) => head + tail.join(''));
const image = fc
  .record(
    {
      loc: urlText,
      caption: xmlText,
      title: xmlText,
      geo_location: xmlText,
      license: urlText,
    },
    { requiredKeys: [] },
  )
  .chain((fields) => fc.shuffledSubarray(Object.entries(fields), { minLength: Object.keys(fields).length }))
  .map(
    (fields) =>
      `<image:image>${fields.map(([k, v]) => `<image:${k}>${v}</image:${k}>`).join('')}</image:image>`,
  );
/** The children of a <url>, in any order and number (duplicates, extensions, unknown elements). */
const urlChild = fc.oneof(
  urlText.map((u) => `<loc>${u}</loc>`),
  fc
    .constantFrom('2024-08-15', '2024-08-15T09:12:00+02:00', '2024-08-15T09:12:00', 'Aug 15', '')
    .map((d) => `<lastmod>${d}</lastmod>`),
  fc.constantFrom('weekly', 'Daily', 'sometimes').map((c) => `<changefreq>${c}</changefreq>`),
  fc.constantFrom('0.5', '1', '1.0', '0', '.25', '2', 'x', '-0').map((p) => `<priority>${p}</priority>`),
  image,
  fc.constant('<mobile:mobile/>'),
  urlText.map((u) => `<xhtml:link rel="alternate" hreflang="de" href="${u.replace(/"/g, '&quot;')}"/>`),
  fc.constant('<xhtml:link rel="amphtml" href="https://example.com/amp"/>'),
  fc.constant(
    '<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-08-15</news:publication_date><news:title>T &amp; "q"</news:title></news:news>',
  ),
  fc.constant(
    '<video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>V</video:title><video:description>D</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc><video:duration>60</video:duration><video:tag>a</video:tag><video:tag>b</video:tag></video:video>',
  ),
  fc.constant('<other>x</other>'),
);
const NAMESPACES =
  'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0"';
const urlsetXml = fc
  .array(fc.tuple(urlText, fc.array(urlChild, { maxLength: 8 })), { minLength: 1, maxLength: 6 })
  .map(
    (urls) =>
      `<urlset ${NAMESPACES}>${urls.map(([loc, c]) => `<url><loc>${loc}</loc>${c.join('')}</url>`).join('\n')}</urlset>`,
  );

describe('the page-entry line writer (entryLine)', () => {
  const check = (items: readonly object[], name: string): number => {
    let pages = 0;
    for (const item of items) {
      if ('kind' in item) continue;
      pages++;
      expect(entryLine(item as SitemapEntry, JSON.stringify(name))).toBe(
        slowLine(item, JSON.stringify(name)),
      );
    }
    return pages;
  };

  it('writes what JSON.stringify writes for every entry of generated sitemaps, as read and as written (property)', async () => {
    let pages = 0;
    await fc.assert(
      fc.asyncProperty(urlsetXml, fc.boolean(), async (xml, rawUrls) => {
        const parsed = await parseSitemapToArray({ text: xml }, { rawUrls });
        pages += check(parsed.items, 'gen.xml');
      }),
      { numRuns: 400 },
    );
    expect(pages).toBeGreaterThan(600);
  });

  it('writes what JSON.stringify writes for every page entry of every sample file and corpus document', async () => {
    let pages = 0;
    for (const name of sampleFiles()) {
      if (name.includes('MiB')) continue;
      for (const rawUrls of [false, true]) {
        const parsed = await parseSitemapToArray(`${SAMPLES}${name}`, { rawUrls });
        pages += check(parsed.items, name);
      }
    }
    for (const [key, doc] of Object.entries(CORPUS)) {
      const source = typeof doc === 'string' ? { text: doc } : doc;
      pages += check((await parseSitemapToArray(source)).items, key);
    }
    expect(pages).toBeGreaterThan(100_000);
  });
});
