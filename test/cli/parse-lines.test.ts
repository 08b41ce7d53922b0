import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatRow, jsonlRow } from '../../src/cli/commands/parse.js';
import { parseSitemap, parseSitemapLines } from '../../src/parser/parse-sitemap.js';
import type { ParseOptions, SitemapSource } from '../../src/parser/types.js';
import { CORPUS } from '../parser/corpus.js';
import { SAMPLES, sampleFiles } from '../parser/helpers.js';
import { NAMESPACES, urlChild, urlsetXml, urlText, xmlText } from './sitemap-arbitraries.js';

/**
 * `sitemapkit parse FILE --format jsonl` writes a page's line straight from the parser's record
 * (parseSitemapLines, the `onPage` sink: issue 16). Proven here equal to the entry path it
 * replaced (parseSitemap, then formatRow of each item): the same bytes, the same findings with
 * their lines and columns, the same facts, whatever the document and wherever its chunks split.
 */

const NAME = 'gen.xml';

/** The bytes of `text`, cut at `cuts` (positions, any order, repeats allowed). */
function chunksOf(text: string, cuts: readonly number[]): Uint8Array[] {
  const bytes = new TextEncoder().encode(text);
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...at, bytes.length]) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  return out;
}

function source(chunks: readonly Uint8Array[]): SitemapSource {
  return (async function* () {
    for (const c of chunks) yield c;
  })();
}

interface Outcome {
  text: string;
  count: number;
  diagnostics: unknown[];
  sitemaps: unknown[];
  errorCount: number;
}

/** The entry path: every item of parseSitemap through formatRow, as the CLI wrote them before. */
async function viaEntries(chunks: readonly Uint8Array[], options: ParseOptions): Promise<Outcome> {
  const result = parseSitemap(source(chunks), options);
  let text = '';
  let count = 0;
  for await (const item of result) {
    text += formatRow(item, NAME, 'jsonl');
    count++;
  }
  return {
    text,
    count,
    diagnostics: [...result.diagnostics],
    sitemaps: [...result.sitemaps],
    errorCount: result.errorCount,
  };
}

/** The line path. */
async function viaLines(chunks: readonly Uint8Array[], options: ParseOptions): Promise<Outcome> {
  const result = parseSitemapLines(source(chunks), options, { name: NAME, line: jsonlRow });
  let text = '';
  let count = 0;
  for await (const lines of result) {
    text += lines.text;
    count += lines.count;
  }
  return {
    text,
    count,
    diagnostics: [...result.diagnostics],
    sitemaps: [...result.sitemaps],
    errorCount: result.errorCount,
  };
}

const options: fc.Arbitrary<ParseOptions> = fc.record(
  {
    rawUrls: fc.boolean(),
    // The location rule on every page (url-outside-location findings from the sink path too).
    sitemapUrl: fc.constantFrom('https://example.com/sitemap.xml', 'https://example.com/a/sitemap.xml'),
    maxBytes: fc.integer({ min: 40, max: 4000 }),
  },
  { requiredKeys: [] },
);

/** RSS 2.0 with mRSS media: feed items are pages too, built at the item's end. */
const rssXml = fc
  .array(
    fc.record({
      link: urlText,
      date: fc.constantFrom('Thu, 15 Aug 2024 09:12:00 GMT', '2024-08-15', 'never'),
      title: xmlText,
      media: fc.constantFrom(
        '',
        '<media:content url="https://example.com/i.jpg" medium="image"/>',
        '<media:content url="https://example.com/v.mp4" type="video/mp4" duration="12"/><media:thumbnail url="https://example.com/t.jpg"/>',
      ),
    }),
    { maxLength: 5 },
  )
  .map(
    (items) =>
      `<?xml version="1.0"?>\n<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>t</title>${items
        .map(
          (i) =>
            `<item><title>${i.title}</title><link>${i.link}</link><pubDate>${i.date}</pubDate>${i.media}</item>`,
        )
        .join('\n')}</channel></rss>`,
  );

/** An index: its children come through onItem, in order, as before. */
const indexXml = fc
  .array(fc.tuple(urlText, fc.constantFrom('', '<lastmod>2024-08-15</lastmod>', '<lastmod>x</lastmod>')), {
    maxLength: 5,
  })
  .map(
    (children) =>
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children
        .map(([loc, lastmod]) => `<sitemap><loc>${loc}</loc>${lastmod}</sitemap>`)
        .join('\n')}</sitemapindex>`,
  );

/** A text sitemap, its last line with or without a newline (completed only at the end). */
const textSitemap = fc
  .tuple(fc.array(urlText, { maxLength: 5 }), fc.boolean())
  .map(([lines, newline]) => lines.join('\n') + (newline ? '\n' : ''));

/** A urlset with a broken part: findings with lines and columns, a document cut off. */
const brokenXml = fc
  .tuple(
    urlsetXml,
    fc.nat(),
    fc.constantFrom('', '<url><loc>https://example.com/x</loc>', '</bogus>', '&nope;'),
  )
  .map(([xml, cut, tail]) => xml.slice(0, cut % (xml.length + 1)) + tail);

const documents = fc.oneof(urlsetXml, rssXml, indexXml, textSitemap, brokenXml);

describe('parse --format jsonl writes lines from the parser record as the entry path did', () => {
  it('gives the same lines, findings and facts for generated documents split anywhere (property)', async () => {
    let lines = 0;
    await fc.assert(
      fc.asyncProperty(documents, fc.array(fc.nat(), { maxLength: 6 }), options, async (doc, cuts, o) => {
        const chunks = chunksOf(doc, cuts);
        const expected = await viaEntries(chunks, o);
        const actual = await viaLines(chunks, o);
        expect(actual).toEqual(expected);
        lines += expected.count;
      }),
      { numRuns: 600 },
    );
    expect(lines).toBeGreaterThan(500);
  });

  it('gives the same for one rich document split in two at every byte', async () => {
    const url = (i: number): string =>
      `<url><loc>https://example.com/p${i}?q=&quot;é&quot;</loc><lastmod>2024-08-15</lastmod><changefreq>weekly</changefreq><priority>0.5</priority><image:image><image:loc>https://example.com/${i}.jpg</image:loc><image:caption>c "${i}"</image:caption></image:image><video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>V</video:title><video:description>D</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc></video:video><news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-08-15</news:publication_date><news:title>T</news:title></news:news><xhtml:link rel="alternate" hreflang="de" href="https://example.com/de/${i}"/><xhtml:link rel="amphtml" href="https://example.com/amp/${i}"/><mobile:mobile/><priority>1</priority></url>`;
    const doc = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NAMESPACES}>\n${url(1)}\n  ${url(2)}<url><loc>bad url</loc></url><url><loc>https://other.example/</loc></url></urlset>`;
    const bytes = new TextEncoder().encode(doc).length;
    for (let cut = 0; cut <= bytes; cut++) {
      for (const o of [{}, { sitemapUrl: 'https://example.com/sitemap.xml' }]) {
        const chunks = chunksOf(doc, [cut]);
        expect(await viaLines(chunks, o)).toEqual(await viaEntries(chunks, o));
      }
    }
  });

  it('gives the same for every sample file and corpus document', async () => {
    let lines = 0;
    const docs: Array<[string, Uint8Array]> = Object.entries(CORPUS)
      .filter((e): e is [string, string] => typeof e[1] === 'string')
      .map(([k, v]) => [k, new TextEncoder().encode(v)]);
    const { readFileSync } = await import('node:fs');
    for (const name of sampleFiles()) {
      if (name.includes('MiB')) continue;
      docs.push([name, readFileSync(`${SAMPLES}${name}`)]);
    }
    for (const [, bytes] of docs) {
      const chunks = [];
      for (let i = 0; i < bytes.length; i += 65_536) chunks.push(bytes.subarray(i, i + 65_536));
      const expected = await viaEntries(chunks, {});
      expect(await viaLines(chunks, {})).toEqual(expected);
      lines += expected.count;
    }
    expect(lines).toBeGreaterThan(50_000);
  });

  it('writes the line of a urlChild-rich page as formatRow does (the generators reach the sink)', async () => {
    // Guards the property above: generated pages do reach the sink path (no location rule, no rawUrls).
    const xml = `<urlset ${NAMESPACES}><url><loc>https://example.com/</loc>${fc.sample(urlChild, { numRuns: 8, seed: 1 }).join('')}</url></urlset>`;
    const chunks = chunksOf(xml, []);
    const expected = await viaEntries(chunks, {});
    expect(expected.count).toBe(1);
    expect(await viaLines(chunks, {})).toEqual(expected);
  });
});
