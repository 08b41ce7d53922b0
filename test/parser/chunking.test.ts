import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORPUS } from './corpus.js';
import { parseCore, sampleBytes, sampleFiles } from './helpers.js';

const enc = (s: string | Uint8Array): Uint8Array => (typeof s === 'string' ? new TextEncoder().encode(s) : s);

/** Byte-by-byte over the first and last `edge` bytes, irregular chunks (1 to 4,099 bytes) between. */
function edgeSizes(length: number, edge: number): number[] {
  const sizes: number[] = [];
  let at = 0;
  let k = 0;
  while (at < length) {
    const n = at < edge || at >= length - edge ? 1 : 1 + ((k++ * 2_654_435_761) % 4099);
    sizes.push(n);
    at += n;
  }
  return sizes;
}

describe('chunk-boundary invariance', () => {
  // The three 50-60 MiB bombs are padding between a few lines of XML: byte by byte over 256 KiB
  // at each end (where all the markup is), irregular small chunks across the padding.
  it.each(sampleFiles())('%s: byte by byte gives what whole does', (name) => {
    const bytes = sampleBytes(name);
    const whole = parseCore(bytes);
    const sizes = bytes.length <= 4 * 1024 * 1024 ? [1] : edgeSizes(bytes.length, 256 * 1024);
    const pieces = parseCore(bytes, {}, sizes);
    expect(pieces).toEqual(whole);
  });

  it.each(Object.keys(CORPUS))('corpus %s: byte by byte gives what whole does', (key) => {
    const bytes = enc(CORPUS[key]!);
    const whole = parseCore(bytes, { sitemapUrl: 'https://example.com/sitemap.xml' });
    expect(parseCore(bytes, { sitemapUrl: 'https://example.com/sitemap.xml' }, [1])).toEqual(whole);
  });

  it('any split of any corpus document gives the same items and diagnostics (property)', () => {
    const keys = Object.keys(CORPUS);
    fc.assert(
      fc.property(
        fc.constantFrom(...keys),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }),
        (key, sizes) => {
          const bytes = enc(CORPUS[key]!);
          expect(parseCore(bytes, {}, sizes)).toEqual(parseCore(bytes));
        },
      ),
      { numRuns: 400 },
    );
  });
});
