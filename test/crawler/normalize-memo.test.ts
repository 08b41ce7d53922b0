// The crawl loop's memo of link normalisation (src/crawler/normalize-memo.ts) against the slow
// path: a memo key may only be shared by (reference, base) pairs that the normaliser maps to the
// same URL, whatever the base's last segment, query and fragment; and a memo in front of the
// normaliser answers exactly what the normaliser answers, hits included. Generated references
// and bases (dot segments, escapes, backslashes, spaces, schemes) and the hrefs of the
// repository's HTML fixtures.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memoKey, NormalizeMemo } from '../../src/crawler/normalize-memo.js';
import { normalizeCrawlUrl, type ParamPolicy } from '../../src/crawler/normalize-url.js';

/** Every href and src of the HTML files under `dir` (the repository's own fixtures). */
function fixtureRefs(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules') continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...fixtureRefs(p));
    else if (/\.html?$/.test(e.name)) {
      for (const m of readFileSync(p, 'utf8').matchAll(/(?:href|src)\s*=\s*"([^"]*)"/gi)) out.push(m[1]!);
    }
  }
  return out;
}
const REAL = [...new Set(fixtureRefs('test'))];

const SEGMENTS = [
  'a',
  'B',
  '',
  '.',
  '..',
  '%2e',
  '%2E%2e',
  '.%2E',
  'x.html',
  'caf%c3%a9',
  'é',
  '%41',
  'a;b',
  'a b',
];
const PIECES = [
  ...SEGMENTS,
  '/',
  '//',
  '\\',
  '?',
  '#',
  '&',
  '=',
  ':',
  '@',
  ' ',
  '\t',
  '\n',
  'http:',
  'https:',
  'HTTP:',
  'mailto:',
  'javascript:',
  'example.com',
  'utm_source=x',
  'sid=1',
  ';jsessionid=9',
  '%',
  '%0',
];
const segment = fc.constantFrom(...SEGMENTS);
const origin = fc.constantFrom(
  'http://example.com',
  'https://example.com',
  'http://Example.COM',
  'http://example.com:80',
  'https://example.com:8443',
  'http://user:pw@example.com',
  'HTTP://example.com',
  'http://127.0.0.1:8080',
  'http://xn--caf-dma.example',
);
const tail = fc.record({
  last: segment,
  query: fc.constantFrom('', '?', '?q=1', '?a/b', '?utm_source=x&k=2'),
  hash: fc.constantFrom('', '#', '#top', '#a/b'),
});
/** Two bases that differ in everything a reference may not depend on. */
const bases = fc
  .record({ origin, dir: fc.array(segment, { maxLength: 4 }), t1: tail, t2: tail, other: fc.array(segment) })
  .map(({ origin: o, dir, t1, t2, other }) => {
    const d = `${o}/${dir.map((s) => `${s}/`).join('')}`;
    return {
      sameDir: [`${d}${t1.last}${t1.query}${t1.hash}`, `${d}${t2.last}${t2.query}${t2.hash}`] as const,
      sameOrigin: [`${d}${t1.last}${t1.query}`, `${o}/${other.join('/')}${t2.query}${t2.hash}`] as const,
    };
  });
const reference = fc.oneof(
  { weight: 3, arbitrary: fc.array(fc.constantFrom(...PIECES), { maxLength: 8 }).map((p) => p.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(...REAL) },
);

const POLICIES: ParamPolicy[] = [
  { stripTracking: true, keep: undefined, drop: new Set() },
  { stripTracking: false, keep: undefined, drop: new Set(['k']) },
  { stripTracking: true, keep: new Set(['q']), drop: new Set() },
];

describe('the memo of link normalisation', () => {
  it('finds real hrefs in the fixtures (the property below draws from them)', () => {
    expect(REAL.length).toBeGreaterThan(20);
  });

  it('gives two bases the same key for a reference only when the normaliser gives the same URL', () => {
    fc.assert(
      fc.property(reference, bases, fc.constantFrom(...POLICIES), (raw, b, policy) => {
        for (const [b1, b2] of [b.sameDir, b.sameOrigin]) {
          const k1 = memoKey(raw, b1);
          if (k1 === undefined || k1 !== memoKey(raw, b2)) continue;
          expect(normalizeCrawlUrl(raw, b2, policy), `${JSON.stringify(raw)} against ${b1} and ${b2}`).toBe(
            normalizeCrawlUrl(raw, b1, policy),
          );
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('keys the references every page repeats: path-absolute, relative and absolute links', () => {
    const a = memoKey('/s/1/page.html', 'http://h:1/s/5/page.html');
    expect(a).toBe(memoKey('/s/1/page.html', 'http://h:1/other?x#y'));
    expect(memoKey('page.html', 'http://h/a/b')).toBe(memoKey('page.html', 'http://h/a/c?q'));
    expect(memoKey('page.html', 'http://h/a/b')).not.toBe(memoKey('page.html', 'http://h/b/b'));
    expect(memoKey('https://x.example/', 'http://h/a')).toBe(memoKey('https://x.example/', 'http://k/b'));
    // Whatever may depend on the whole base, or a base the parser rewrites, is not memoised.
    for (const [raw, base] of [
      ['?page=2', 'http://h/a'],
      ['#top', 'http://h/a'],
      ['', 'http://h/a'],
      [' /a', 'http://h/a'],
      ['x', 'http://h/a/..'],
      ['x', 'http://h/a/%2E'],
      ['/x', 'http://h\\a/b'],
      ['/x', 'HTTP://h/a'],
      ['/x', 'http://h'],
      ['/x', undefined],
    ] as const) {
      expect(memoKey(raw, base), `${raw} against ${base}`).toBeUndefined();
    }
  });

  it('answers what the normaliser answers, call after call (memo hits included)', () => {
    const calls = fc.array(
      fc.tuple(
        reference,
        bases.map((b) => b.sameDir[0]),
      ),
      { minLength: 1, maxLength: 60 },
    );
    fc.assert(
      fc.property(calls, fc.constantFrom(...POLICIES), (list, policy) => {
        const slow = (raw: string, base: string | undefined): string | undefined =>
          normalizeCrawlUrl(raw, base, policy);
        const memo = new NormalizeMemo(slow);
        // Every call twice, and the list twice: the second answers come from the memo.
        for (const [raw, base] of [...list, ...list]) {
          expect(memo.get(raw, base)).toBe(slow(raw, base));
          expect(memo.get(raw, base)).toBe(slow(raw, base));
        }
      }),
      { numRuns: 300 },
    );
  });
});
