// The tree's item codec (src/parser/tree-codec.ts) against structured clone: every item decodes
// to an equal object with its keys in the same order, on generated entries and on every item of
// the spec samples; what it cannot carry exactly, it refuses (the caller then uses structured clone).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeItems, encodeItems } from '../../src/parser/tree-codec.js';
import type { SitemapItem } from '../../src/parser/types.js';
import { parseCore, sampleBytes, sampleFiles } from './helpers.js';

/** Equal, with every object's keys in the same order (what JSON output and key iteration see). */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

const text = fc.string({ unit: 'grapheme', maxLength: 30 });
const image = fc.record(
  { loc: fc.webUrl(), caption: text, title: text, license: fc.webUrl() },
  { requiredKeys: ['loc'], noNullPrototype: true },
);
const entry = fc.record(
  {
    loc: fc.webUrl({ withQueryParameters: true, withFragments: true }),
    lastmod: fc.constantFrom('2024-08-01', '2024-08-01T09:12:00+00:00'),
    changefreq: fc.constantFrom('daily', 'weekly'),
    priority: fc
      .double({ min: 0, max: 1, noNaN: true, noDefaultInfinity: true })
      .filter((p) => !Object.is(p, -0)),
    images: fc.array(image, { maxLength: 3 }),
    alternates: fc.array(
      fc.record(
        { hreflang: fc.constantFrom('en', 'de', 'x-default'), href: fc.webUrl() },
        { noNullPrototype: true },
      ),
      {
        maxLength: 2,
      },
    ),
    news: fc.record(
      {
        publication: fc.record(
          { name: text, language: fc.constantFrom('en', 'fr') },
          { noNullPrototype: true },
        ),
        title: text,
      },
      { noNullPrototype: true },
    ),
    mobile: fc.constant(true),
  },
  { requiredKeys: ['loc'], noNullPrototype: true },
);

describe('tree codec', () => {
  it('decodes what it encodes: same values, same key order (property)', () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 40 }), (items) => {
        const encoded = encodeItems(items as SitemapItem[]);
        // Refused exactly when a value holds a separator (JSON escapes those controls as \u000N).
        expect(encoded === undefined).toBe(/\\u000[012]/.test(JSON.stringify(items)));
        if (encoded !== undefined) expectSame(decodeItems(encoded), items);
      }),
    );
  });

  it('refuses what it cannot carry exactly: separators in a value, -0, NaN, null, undefined', () => {
    for (const bad of [
      { loc: 'https://a.example/\u0000' },
      { loc: 'https://a.example/', title: 'x\u0001y' },
      { loc: 'https://a.example/', priority: -0 },
      { loc: 'https://a.example/', priority: Number.NaN },
      { loc: 'https://a.example/', lastmod: null },
      { loc: 'https://a.example/', lastmod: undefined },
      { loc: 'https://a.example/', 'odd key': 'x' },
    ])
      expect(encodeItems([bad as unknown as SitemapItem]), JSON.stringify(bad)).toBeUndefined();
  });

  it('every item of every spec sample, in one message per sample', () => {
    let n = 0;
    for (const f of sampleFiles()) {
      const { items } = parseCore(sampleBytes(f));
      if (items.length === 0) continue;
      const encoded = encodeItems(items);
      // The samples are real sitemaps: none needs the fallback.
      expect(encoded, f).toBeDefined();
      expectSame(decodeItems(encoded!), items);
      n += items.length;
    }
    expect(n).toBeGreaterThan(50_000);
  });
});
