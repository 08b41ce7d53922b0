// The shared crawl's memo of known URLs (src/crawler/frontier-postgres-known.ts) against an
// unbounded model: it never holds more than its cap, whatever it answers is what was learnt (the
// URL's id, and a depth no smaller than the smallest learnt: the database's is never deeper), and
// the URL learnt or looked up last is always remembered (a link every page repeats stays hot).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KNOWN_CAP, KnownUrls } from '../../src/crawler/frontier-postgres-known.js';

type Op = { kind: 'learn'; url: number; depth: number } | { kind: 'get'; url: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('learn' as const), url: fc.nat(40), depth: fc.nat(6) }),
  fc.record({ kind: fc.constant('get' as const), url: fc.nat(40) }),
);

describe('KnownUrls', () => {
  it('stays within its cap, answers only what was learnt, and keeps the URL used last', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.array(op, { maxLength: 300 }), (cap, ops) => {
        const known = new KnownUrls(cap);
        // The model: every URL's id (its number plus 1000) and the smallest depth it was learnt at.
        const smallest = new Map<number, number>();
        for (const o of ops) {
          const url = `https://example.com/${o.url}`;
          if (o.kind === 'learn') {
            known.learn(url, o.url + 1000, o.depth);
            smallest.set(o.url, Math.min(o.depth, smallest.get(o.url) ?? o.depth));
          }
          const got = known.get(url);
          if (o.kind === 'learn') expect(got).toBeDefined();
          if (got !== undefined) {
            expect(got.id).toBe(o.url + 1000);
            expect(got.depth).toBeGreaterThanOrEqual(smallest.get(o.url)!);
            if (o.kind === 'learn') expect(got.depth).toBeLessThanOrEqual(o.depth);
          } else {
            expect(o.kind).toBe('get');
          }
          expect(known.size).toBeLessThanOrEqual(cap);
        }
      }),
    );
  });

  it('keeps a URL looked up on every page however many others are learnt (the old memo forgot all at its cap)', () => {
    const known = new KnownUrls(8);
    known.learn('https://example.com/', 1, 0);
    for (let i = 0; i < 1000; i++) {
      known.learn(`https://example.com/p${i}`, i + 2, 1);
      expect(known.get('https://example.com/')).toEqual({ id: 1, depth: 0 });
    }
    expect(known.size).toBeLessThanOrEqual(8);
    known.clear();
    expect(known.size).toBe(0);
    expect(KNOWN_CAP).toBeGreaterThanOrEqual(2);
  });
});
