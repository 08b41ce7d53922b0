import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { validateSitemap } from '../../src/validate/validate.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { entryListArb } from '../support/arbitraries.js';
import { assertXmllint, XSD_DIR, xmllint } from '../support/xmllint.js';
import { NOW } from './helpers.js';

function comparable(ds: readonly Diagnostic[]): unknown[] {
  return ds.map(({ sitemap: _s, ...rest }) => rest);
}

async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const simpleEntry = fc.record({
  path: fc.stringMatching(/^[a-z0-9-]{1,12}$/),
  lastmod: fc.date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2024-01-01T00:00:00Z'),
    noInvalidDate: true,
  }),
  changefreq: fc.constantFrom('daily', 'weekly', 'monthly'),
  priority: fc.integer({ min: 0, max: 10 }).map((n) => (n / 10).toFixed(1)),
});

function doc(
  entries: ReadonlyArray<{ path: string; lastmod: Date; changefreq: string; priority: string }>,
): string {
  const body = entries
    .map(
      (e, i) =>
        `  <url>\n    <loc>https://example.com/${i}/${e.path}</loc>\n    <lastmod>${e.lastmod.toISOString().slice(0, 10)}</lastmod>\n    <changefreq>${e.changefreq}</changefreq>\n    <priority>${e.priority}</priority>\n  </url>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`;
}

/** Mutations that each break the sitemap XSD (or XML itself). */
const MUTATIONS: Record<string, (xml: string) => string> = {
  'changefreq case': (x) =>
    x.replace(/<changefreq>(\w)/, (_m, c: string) => `<changefreq>${c.toUpperCase()}`),
  'changefreq value': (x) => x.replace(/<changefreq>\w+</, '<changefreq>sometimes<'),
  'priority range': (x) => x.replace(/<priority>[\d.]+</, '<priority>1.5<'),
  'priority text': (x) => x.replace(/<priority>[\d.]+</, '<priority>high<'),
  'lastmod form': (x) => x.replace(/<lastmod>(\d{4})-(\d{2})-(\d{2})</, '<lastmod>$2/$3/$1<'),
  'child order': (x) => x.replace(/(<loc>[^<]*<\/loc>)(\s*)(<lastmod>[^<]*<\/lastmod>)/, '$3$2$1'),
  'loc too short': (x) => x.replace(/<loc>[^<]*</, '<loc>http://a.b<'),
  'loc missing': (x) => x.replace(/\s*<loc>[^<]*<\/loc>/, ''),
  'bare ampersand': (x) => x.replace(/<\/loc>/, '?a=1&b=2</loc>'),
  'old namespace': (x) =>
    x.replace('http://www.sitemaps.org/schemas/sitemap/0.9', 'http://www.google.com/schemas/sitemap/0.84'),
  'empty urlset': (x) => x.replace(/<url>[\s\S]*<\/url>\n/, ''),
  'duplicate loc element': (x) => x.replace(/(<loc>[^<]*<\/loc>)/, '$1$1'),
  'unknown core element': (x) => x.replace('</priority>', '</priority><weight>3</weight>'),
};

describe('properties', () => {
  it('whatever the writer writes validates without errors, and xmllint agrees', async () => {
    assertXmllint();
    await fc.assert(
      fc.asyncProperty(entryListArb, async (entries) => {
        const dir = mkdtempSync(join(tmpdir(), 'sk-validate-prop-'));
        await writeSitemaps(entries, { outDir: dir, baseUrl: 'https://example.com/', maxUrlsPerFile: 10 });
        const r = await validateSitemap(join(dir, 'sitemap.xml'), {
          recursive: true,
          sitemapUrl: 'https://example.com/sitemap.xml',
          now: () => NOW,
          fetch: async (u) => {
            throw new Error(`network: ${u}`);
          },
        });
        expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(r.summary.urls).toBe(entries.length);
        for (const f of readdirSync(dir).filter((n) => n.endsWith('.xml'))) {
          const check = xmllint(join(dir, f));
          expect(check.ok, check.output).toBe(true);
        }
      }),
      { numRuns: 15 },
    );
  });

  it('differential with xmllint: a valid document passes both; each XSD-breaking mutation fails both', async () => {
    assertXmllint();
    const dir = mkdtempSync(join(tmpdir(), 'sk-validate-mut-'));
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(simpleEntry, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...Object.keys(MUTATIONS)),
        async (entries, mutation) => {
          const valid = doc(entries);
          const broken = MUTATIONS[mutation]!(valid);
          expect(broken).not.toBe(valid);
          const files = [valid, broken].map((text) => {
            const file = join(dir, `m${n++}.xml`);
            writeFileSync(file, text);
            return file;
          });
          const [ok, ko] = await Promise.all(files.map((f) => validateSitemap(f, { now: () => NOW })));
          expect(xmllint(files[0]!, join(XSD_DIR, 'sitemap.xsd')).ok).toBe(true);
          expect(ok!.summary.errors).toBe(0);
          expect(xmllint(files[1]!, join(XSD_DIR, 'sitemap.xsd')).ok, mutation).toBe(false);
          expect(ko!.summary.errors, `${mutation}\n${broken}`).toBeGreaterThan(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('chunk invariance: the same bytes in any chunking give the same findings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(simpleEntry, { minLength: 1, maxLength: 3 }),
        fc.constantFrom(...Object.keys(MUTATIONS)),
        fc.integer({ min: 1, max: 7 }),
        async (entries, mutation, size) => {
          const bytes = new TextEncoder().encode(MUTATIONS[mutation]!(doc(entries)));
          const whole = await validateSitemap(bytes, { now: () => NOW });
          const pieces = await validateSitemap(chunks(bytes, size), { now: () => NOW });
          expect(comparable(pieces.diagnostics)).toEqual(comparable(whole.diagnostics));
          expect(pieces.rules).toEqual(whole.rules);
        },
      ),
      { numRuns: 40 },
    );
  });
});
