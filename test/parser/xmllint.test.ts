import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { toStrictUri } from '../../src/core/url.js';
import { assertXmllint } from '../support/xmllint.js';
import { CORPUS } from './corpus.js';
import { parseCore, sampleBytes, sampleFiles, urlset } from './helpers.js';

/** Codes by which the parser says a document is not well-formed XML (it reads on where it can). */
const NOT_WELL_FORMED = new Set([
  'xml-not-well-formed',
  'xml-bare-ampersand',
  'xml-entity',
  'xml-truncated',
  'xml-leading-junk',
  'xml-declaration-misplaced',
]);

function xmllint(args: string[], doc: Uint8Array): { ok: boolean; out: string } {
  const r = spawnSync('xmllint', ['--nonet', ...args, '-'], { input: doc, encoding: 'utf8' });
  return { ok: r.status === 0, out: r.stdout };
}

/** The <loc> of each <url>, as xmllint reads it (any namespace or prefix). */
function xmllintLocs(doc: Uint8Array): string[] {
  const n = Number(xmllint(['--xpath', "count(//*[local-name()='url'])"], doc).out);
  const out: string[] = [];
  for (let i = 1; i <= n; i++) {
    out.push(xmllint(['--xpath', `string((//*[local-name()='url'])[${i}]/*[local-name()='loc'])`], doc).out);
  }
  return out;
}

const enc = (s: string | Uint8Array): Uint8Array => (typeof s === 'string' ? new TextEncoder().encode(s) : s);

// XML documents without a DOCTYPE (refusing those is policy, not well-formedness).
const DOCS: Array<[string, Uint8Array]> = [
  ...sampleFiles()
    .filter((f) => !f.startsWith('hostile/'))
    .map((f): [string, Uint8Array] => [f, sampleBytes(f)]),
  ...['hostile/not-really-gzipped.xml.gz', 'hostile/50001-urls.xml.gz', 'hostile/deep-nesting.xml.gz'].map(
    (f): [string, Uint8Array] => [f, sampleBytes(f)],
  ),
  ...Object.entries(CORPUS)
    .filter(([k]) => !['text', 'doctype', 'html'].includes(k))
    .map(([k, v]): [string, Uint8Array] => [`corpus/${k}`, enc(v)]),
];

describe('differential against xmllint', () => {
  beforeAll(() => assertXmllint());

  it.each(DOCS)(
    '%s: not well-formed for the parser exactly when xmllint says so, and the same locs',
    (name, doc) => {
      const ours = parseCore(doc, { maxElementDepth: 256 });
      const oursBroken =
        ours.diagnostics.some((d) => NOT_WELL_FORMED.has(d.code)) ||
        ours.diagnostics.some((d) => d.code === 'xml-too-deep');
      const lint = xmllint(['--noout'], doc);
      expect(oursBroken, JSON.stringify(ours.diagnostics.map((d) => d.code))).toBe(!lint.ok);
      if (!lint.ok || name.includes('50001') || ours.format !== 'urlset') return;
      const expected = xmllintLocs(doc)
        .map((l) => toStrictUri(l))
        .flatMap((r) =>
          r.ok || r.code === 'url-too-short' || r.code === 'url-too-long' ? [r.url ?? ''] : [],
        );
      expect(ours.items.map((i) => i.loc)).toEqual(expected);
    },
  );

  it('agrees on random documents with markup-heavy values (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '&amp;',
        '&lt;',
        '&#38;',
        '&#x26;',
        '&',
        '&nope;',
        '<![CDATA[a&b]]>',
        '<!-- c -->',
        ' ',
        'é',
        'x',
        ']]>',
        '>',
        '"',
      ),
      fc.string({ unit: 'grapheme-ascii', maxLength: 3 }).filter((s) => !/[<&]/.test(s)),
    );
    const loc = fc.array(piece, { maxLength: 8 }).map((p) => `https://example.com/${p.join('')}`);
    fc.assert(
      fc.property(fc.array(loc, { minLength: 1, maxLength: 4 }), (locs) => {
        const doc = enc(urlset(locs.map((l) => `<url><loc>${l}</loc></url>`).join('\n')));
        const ours = parseCore(doc);
        const lint = xmllint(['--noout'], doc);
        expect(ours.diagnostics.some((d) => NOT_WELL_FORMED.has(d.code))).toBe(!lint.ok);
        if (lint.ok) {
          expect(ours.items.map((i) => i.loc)).toEqual(
            xmllintLocs(doc).flatMap((l) => {
              // The parser's URL rule: strict about the text as written (issue 11, defect 13).
              const r = toStrictUri(l);
              return r.ok ? [r.url] : [];
            }),
          );
        }
      }),
      { numRuns: 60 },
    );
  });
});
