/**
 * `onInvalid: 'skip'` and `'drop-field'` leave out what is invalid, so that what the writer writes
 * always passes the project's own validator and the XSDs: examples first, then a property over
 * arbitrary records (bad URLs, dates, numbers, extensions, hreflang groups, duplicates).
 */
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { validateSitemap } from '../../src/validate/validate.js';
import type { OnInvalid } from '../../src/writer/options.js';
import { untypedRecords, writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { badRecordsArb } from '../support/bad-records.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, xmllint } from '../support/xmllint.js';

const BASE = 'https://example.com/';
const NOW = Date.parse('2024-08-16T12:00:00Z');

beforeAll(() => assertXmllint());

/** Validates a written folder as `sitemapkit validate --recursive` would, offline. */
async function validateFolder(
  dir: string,
  entry = 'sitemap.xml',
): Promise<{ errors: Diagnostic[]; urls: number }> {
  const r = await validateSitemap(join(dir, entry), {
    recursive: true,
    sitemapUrl: `${BASE}${entry}`,
    now: () => NOW,
    fetch: async (u) => {
      throw new Error(`network: ${u}`);
    },
  });
  return { errors: r.diagnostics.filter((d) => d.severity === 'error'), urls: r.summary.urls };
}

function written(dir: string): string {
  return readSitemapText(join(dir, 'sitemap.xml'));
}

const group = (langs: Record<string, string>) =>
  Object.entries(langs).map(([hreflang, href]) => ({ hreflang, href }));
const en = `${BASE}en/`;
const de = `${BASE}de/`;
const fr = `${BASE}fr/`;

describe('onInvalid skip: hreflang groups', () => {
  it('a one-sided group loses its alternates, with a warning naming both pages, and validates', async () => {
    const dir = tempDir();
    const diags: Diagnostic[] = [];
    const r = await writeSitemaps([{ loc: en, alternates: group({ en, de }) }, { loc: de }], {
      outDir: dir,
      baseUrl: BASE,
      onInvalid: 'skip',
      onDiagnostic: (d) => diags.push(d),
    });
    expect(r.urls).toBe(2);
    expect(written(dir)).not.toContain('xhtml:link');
    expect(diags.map((d) => [d.code, d.severity, d.url])).toEqual([
      ['hreflang-not-reciprocal', 'warning', en],
    ]);
    expect(diags[0]!.message).toContain(en);
    expect(diags[0]!.message).toContain(de);
    expect((await validateFolder(dir)).errors).toEqual([]);
  });

  it('a member under the base URL that is not in the build makes the group one-sided too', async () => {
    const dir = tempDir();
    const r = await writeSitemaps([{ loc: en, alternates: group({ en, de }) }], {
      outDir: dir,
      baseUrl: BASE,
      onInvalid: 'skip',
    });
    expect(r.counts.warning).toBe(1);
    expect(r.diagnostics[0]!.message).toMatch(/is not in this build/);
    expect(written(dir)).not.toContain('xhtml:link');
    expect((await validateFolder(dir)).errors).toEqual([]);
    const err = await writeSitemaps([{ loc: en, alternates: group({ en, de }) }], {
      outDir: tempDir(),
      baseUrl: BASE,
    }).catch((e: unknown) => e);
    expect(isSitemapkitError(err, 'ERR_INVALID_ENTRY')).toBe(true);
  });

  it('an inconsistent group loses its alternates on every page; a sound group keeps them', async () => {
    const dir = tempDir();
    const it1 = `${BASE}it/`;
    const es = `${BASE}es/`;
    const sound = group({ it: it1, es });
    const r = await writeSitemaps(
      [
        { loc: en, alternates: group({ en, de, fr }) },
        { loc: it1, alternates: sound },
        { loc: de, alternates: group({ en, de }) },
        { loc: fr, alternates: group({ en, de, fr }) },
        { loc: es, alternates: sound },
      ],
      { outDir: dir, baseUrl: BASE, onInvalid: 'skip' },
    );
    expect(r.urls).toBe(5);
    const xml = written(dir);
    expect(xml.match(/<xhtml:link /g)).toHaveLength(4);
    expect(xml).toContain(`hreflang="it" href="${it1}"`);
    expect(
      r.diagnostics
        .filter((d) => d.code === 'hreflang-not-reciprocal')
        .map((d) => d.url)
        .sort(),
    ).toEqual([de, en, fr]);
    expect((await validateFolder(dir)).errors).toEqual([]);
  });
});

describe("onInvalid 'drop-field'", () => {
  it('keeps a URL without its bad lastmod, changefreq, priority, image, video, news or alternates', async () => {
    const dir = tempDir();
    const diags: Diagnostic[] = [];
    const r = await writeSitemaps(
      untypedRecords([
        {
          loc: `${BASE}a`,
          lastmod: 'yesterday',
          changefreq: 'sometimes',
          priority: 2,
          images: [`${BASE}ok.jpg`, 'not a url'],
          videos: [{ title: 'no thumbnail', description: 'd', content_loc: `${BASE}v.mp4` }],
          news: {
            publication: { name: 'N', language: 'english' },
            publication_date: '2024-08-15',
            title: 'T',
          },
          alternates: [{ hreflang: 'english', href: `${BASE}a` }],
        },
        { loc: 'relative/b', lastmod: '2024-01-01' },
        { loc: `${BASE}c`, lastmod: '2024-01-02T03:04:05' },
      ]),
      { outDir: dir, baseUrl: BASE, onInvalid: 'drop-field', onDiagnostic: (d) => diags.push(d) },
    );
    expect(r.urls).toBe(2);
    expect(r.skipped).toBe(1);
    const xml = written(dir);
    expect(xml).toContain(
      `<url><loc>${BASE}a</loc><image:image><image:loc>${BASE}ok.jpg</image:loc></image:image></url>`,
    );
    expect(xml).toContain(`<url><loc>${BASE}c</loc></url>`);
    const warned = diags.filter((d) => d.severity === 'warning');
    expect(warned.map((d) => d.field)).toEqual([
      'lastmod',
      'changefreq',
      'priority',
      'images[1].loc',
      'videos[0].thumbnail_loc',
      'news.publication.language',
      'alternates[0].hreflang',
      'lastmod',
    ]);
    expect(warned.every((d) => d.message.endsWith('left out, the URL is kept'))).toBe(true);
    expect(diags.filter((d) => d.severity === 'error').map((d) => d.field)).toEqual(['loc']);
    expect((await validateFolder(dir)).errors).toEqual([]);
  });

  it('is refused nowhere else: fail still writes nothing for a bad lastmod', async () => {
    const err = await writeSitemaps([{ loc: `${BASE}a`, lastmod: 'yesterday' }], {
      outDir: tempDir(),
      baseUrl: BASE,
    }).catch((e: unknown) => e);
    expect(isSitemapkitError(err, 'ERR_INVALID_ENTRY')).toBe(true);
  });
});

describe('a group reaching another host', () => {
  it('is written as given and validates: the other host lists its own side', async () => {
    const dir = tempDir();
    const alternates = group({ en, de: 'https://example.de/de/' });
    await writeSitemaps([{ loc: en, alternates }], { outDir: dir, baseUrl: BASE, onInvalid: 'skip' });
    expect(written(dir)).toContain('href="https://example.de/de/"');
    expect((await validateFolder(dir)).errors).toEqual([]);
  });
});

describe('property: what skip and drop-field write passes validate and the XSDs', () => {
  it('for arbitrary records, valid or not', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        badRecordsArb,
        // fail too: what it writes (when it writes at all) must pass as well.
        fc.constantFrom<OnInvalid>('skip', 'drop-field', 'fail'),
        fc.boolean(),
        fc.constantFrom<'xml' | 'txt'>('xml', 'xml', 'txt'),
        fc.boolean(),
        async (records, onInvalid, small, format, gzip) => {
          run++;
          const dir = tempDir('sk-oninvalid');
          const r = await writeSitemaps(untypedRecords(records), {
            outDir: dir,
            baseUrl: BASE,
            onInvalid,
            format,
            gzip,
            // Small files now and then, so that groups and news span several files.
            ...(small ? { maxUrlsPerFile: 3 } : {}),
          }).catch((e: unknown) => {
            if (isSitemapkitError(e, 'ERR_NO_URLS') || isSitemapkitError(e, 'ERR_INVALID_ENTRY'))
              return undefined;
            throw e;
          });
          if (r === undefined) return;
          const v = await validateFolder(dir, basename(r.entry.path));
          expect(v.errors, JSON.stringify(records)).toEqual([]);
          expect(v.urls).toBe(r.urls);
          // xmllint is a process per file: a sample of runs is enough.
          if (run % 4 === 0) {
            for (const f of readdirSync(dir).filter((n) => /\.xml(?:\.gz)?$/.test(n))) {
              const check = xmllint(join(dir, f));
              expect(check.ok, `${check.output}\n${JSON.stringify(records)}`).toBe(true);
            }
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
