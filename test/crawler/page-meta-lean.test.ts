import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PageMeta, PageMetaReader } from '../../src/page/page-meta.js';
import { OraclePageMetaReader } from './page-meta-oracle.js';

// The reader skips attributes of tags it never reads and text outside <title>/JSON-LD. These tests
// hold it to the full htmlparser2 Parser's findings (the oracle is the reader before that change).

const FIXTURES = join(import.meta.dirname, 'fixtures/pages');

function read(make: () => { write(t: string): void; end(): PageMeta }, chunks: readonly string[]): PageMeta {
  const r = make();
  for (const c of chunks) r.write(c);
  return r.end();
}

const lean = (chunks: readonly string[]): PageMeta => read(() => new PageMetaReader(), chunks);
const oracle = (chunks: readonly string[]): PageMeta => read(() => new OraclePageMetaReader(), chunks);
// Fingerprinting the main text (a recrawl) decodes body text the lean reader skips: same findings.
const fingerprinting = (chunks: readonly string[]): PageMeta =>
  read(() => new PageMetaReader({ fingerprint: true }), chunks);

function cut(text: string, points: readonly number[]): string[] {
  const sorted = [...new Set(points.map((p) => p % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let at = 0;
  for (const p of [...sorted, text.length]) {
    out.push(text.slice(at, p));
    at = p;
  }
  return out;
}

// Pieces that exercise what the lean parser could get wrong: wanted and unwanted tags with
// attributes (quoted, unquoted, valueless, duplicated, entity-bearing), text and entities inside and
// outside <title> and scripts, the Parser's implied closes (<body> closes <script>), foreign content
// (<svg><title/> self-closes), </p> and </br>, self-closing scripts, comments, CDATA, declarations.
const PIECES = [
  '<title>',
  '</title>',
  '<TITLE lang=en>',
  '<svg>',
  '</svg>',
  '<math>',
  '<title/>',
  '<script type="application/ld+json">',
  '<script type=application/ld+json />',
  '<script>',
  '</script>',
  '<style>a{}</style>',
  '{"dateModified":"2024-01-02"}',
  '{"@graph":[{"dateModified":"2023-05-06"}]}',
  '<body>',
  '<body class="x" onload=f()>',
  '</p>',
  '</br>',
  '<p>',
  '<div id="a" class=\'b\' hidden data-x=&amp;>',
  '</div>',
  '<span title="<a href=/no>">',
  '<a href="/x">',
  '<a href=/y rel=nofollow>',
  '<A HREF="/z&amp;q=1" REL="Sponsored NoFollow">',
  '<a href="/d" href="/e">',
  '</a>',
  '<area href="/c"/>',
  '<img src=" /i.png " srcset="/a.png 1x, /b.png 2x">',
  '<img alt="x" src="">',
  '<base href="/docs/">',
  '<link rel="canonical" href="/canon">',
  '<link rel="alternate" hreflang="de" href="/de/">',
  '<meta name="robots" content="NOINDEX, nofollow">',
  '<meta name="Googlebot" content="noarchive">',
  '<meta property="article:modified_time" content=" 2024-02-03 ">',
  '<meta charset="UTF-8">',
  '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">',
  '<!-- <a href="/comment"> -->',
  '<![CDATA[<a href="/cdata">]]>',
  '<!DOCTYPE html>',
  '<?xml version="1.0"?>',
  'text &amp; more &lt;',
  '&eacute;&#233;&#xE9;&notanentity;',
  ' \n\t ',
  '<',
  '>',
  '"',
  '&',
  '<textarea><a href="/ta"></textarea>',
  '<noscript><a href="/ns"></noscript>',
];

const html = fc
  .array(
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...PIECES) }, { weight: 1, arbitrary: fc.string() }),
    {
      maxLength: 40,
    },
  )
  .map((parts) => parts.join(''));

describe('the lean page reader against the full Parser', () => {
  it('finds the same PageMeta on real documentation pages, whole and in random chunks', () => {
    const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.html'));
    expect(files.length).toBe(4);
    for (const f of files) {
      const text = readFileSync(join(FIXTURES, f), 'utf8');
      const expected = oracle([text]);
      expect(expected.links.length).toBeGreaterThan(5);
      expect(lean([text]), f).toEqual(expected);
      fc.assert(
        fc.property(fc.array(fc.nat(), { maxLength: 30 }), (points) => {
          expect(lean(cut(text, points))).toEqual(expected);
          expect(fingerprinting(cut(text, points))).toEqual(expected);
        }),
        { numRuns: 20 },
      );
    }
  });

  it('finds the same PageMeta on generated HTML, for any chunking', () => {
    fc.assert(
      fc.property(html, fc.array(fc.nat(), { maxLength: 8 }), (text, points) => {
        const expected = oracle([text]);
        expect(lean([text])).toEqual(expected);
        expect(lean(cut(text, points))).toEqual(expected);
        expect(oracle(cut(text, points))).toEqual(expected);
        expect(fingerprinting(cut(text, points))).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('still reads attributes and text where they matter (the generator reaches these cases)', () => {
    const page =
      '<div class=x><title>T &amp; <b>U</title><script type="application/ld+json"/>' +
      '{"dateModified":"2024-01-02"}<body><a href=/a class=c>x</a><p><a href="/b" rel="nofollow">';
    const m = lean([page]);
    expect(m).toEqual(oracle([page]));
    expect(m.title).toBe('T & <b>U');
    // A self-closed <script/> is an open one in HTML but not raw text: <body> implies its close.
    expect(m.jsonLdDateModified).toBe('2024-01-02');
    expect(m.links).toEqual([
      { href: '/a', nofollow: false },
      { href: '/b', nofollow: true },
    ]);
  });
});
