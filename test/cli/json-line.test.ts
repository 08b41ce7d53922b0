import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryLine, jsonLine, jsonString, jsonValue } from '../../src/cli/json-line.js';
import type { SitemapEntry } from '../../src/core/entry.js';
import { parseSitemapToArray } from '../../src/parser/parse-sitemap.js';
import { CORPUS } from '../parser/corpus.js';
import { SAMPLES, sampleFiles } from '../parser/helpers.js';
import { urlsetXml } from './sitemap-arbitraries.js';

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
