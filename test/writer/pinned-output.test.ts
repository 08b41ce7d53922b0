/**
 * Today's output pinned byte for byte (issue 16): a mixed JSON Lines input (real URLs from the
 * fixtures, IRIs, escapes, every lastmod form, extensions, hreflang groups, duplicates, broken
 * lines) written through the generate path (`readJsonl` → `writeSitemaps` into a folder) in the
 * shapes users ask for: plain, gzip (default level and 9), an index, a byte budget, text, the
 * stylesheet and HTML pages. Every file's SHA-256 (the compressed bytes for `.gz`) and every
 * diagnostic are in the snapshot, so any speed work that changes one byte or one finding fails here.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { readJsonl } from '../../src/sources/url-lists.js';
import type { WriteSitemapsOptions } from '../../src/writer/options.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { fixtureUrls } from '../support/fixture-urls.js';
import { tempDir } from '../support/tmp.js';

const BASE = 'https://example.com/';
const NOW = new Date('2024-05-06T07:08:09Z');
const FREQS = ['daily', 'Weekly', 'monthly', ' hourly', 'never'];
const LASTMODS = [
  '2024-03-01',
  '2024-03-02T10:11:12Z',
  '2024-03-02T10:11:12+02:00',
  '2024-03-02T10:11Z',
  '1997-07-16T19:20:30.45+01:00',
  '2024-03-03T00:00:00.000Z',
  '2024-13-01',
  '',
];

/** The input: one JSON line (or a broken line) per record, deterministic. */
function mixedJsonl(): string {
  const real = fixtureUrls();
  const lines: string[] = [];
  for (let i = 0; i < 2400; i++) {
    const r: Record<string, unknown> = {};
    const k = i % 11;
    if (k === 0) r['loc'] = real[i % real.length];
    else if (k === 1) r['loc'] = `${BASE}${real[i % real.length]!.replace(/^https?:\/\/[^/]*\/?/, '')}`;
    else if (k === 2) r['loc'] = `${BASE}café/ü ${i}?q=a&b='c'`;
    else if (k === 3) r['loc'] = `HTTPS://Example.COM:443/p/${i}/./x`;
    else if (k === 4) r['url'] = `${BASE}u/${i}`;
    else r['loc'] = `${BASE}p/${i % 2000}?ref=list&page=${i % 97}`;
    if (i % 3 !== 0) r['lastmod'] = LASTMODS[i % LASTMODS.length];
    if (i % 4 !== 0) r['changefreq'] = FREQS[i % FREQS.length];
    if (i % 5 !== 0) r['priority'] = i % 13 === 0 ? String((i % 10) / 10) : (i % 11) / 10;
    if (i % 17 === 0) r['images'] = [`${BASE}i/${i}.jpg`, { loc: `${BASE}i/${i}-b.png`, title: 'B & b' }];
    if (i % 29 === 0) {
      r['videos'] = [
        {
          thumbnail_loc: `${BASE}t/${i}.jpg`,
          title: `Video ${i} <b>`,
          description: 'A "quoted" description',
          content_loc: `${BASE}v/${i}.mp4`,
          duration: 60 + i,
        },
      ];
    }
    if (i % 31 === 0) {
      r['news'] = {
        publication: { name: 'Times', language: 'en' },
        publication_date: '2024-05-01',
        title: `新闻 ${i}`,
      };
    }
    if (i % 37 === 0) {
      const a = `${BASE}en/${i}`;
      const b = `${BASE}de/${i}`;
      r['loc'] = a;
      r['alternates'] = [
        { hreflang: 'en', href: a },
        { hreflang: 'de', href: b },
      ];
      lines.push(JSON.stringify(r));
      lines.push(JSON.stringify({ loc: b, alternates: r['alternates'] }));
      continue;
    }
    if (i % 41 === 0) r['mobile'] = true;
    if (i % 43 === 0) r['section'] = 'blog';
    if (i % 47 === 0) r['title'] = 'ignored field';
    if (i % 53 === 0) r['colour'] = 'unknown field';
    lines.push(JSON.stringify(r));
    if (i % 59 === 0) lines.push(`{"loc": "${BASE}broken`);
    if (i % 61 === 0) lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

type Variant = [string, Omit<WriteSitemapsOptions, 'outDir' | 'baseUrl'>];
const variants: Variant[] = [
  ['plain, an index', { maxUrlsPerFile: 500 }],
  ['gzip, an index', { maxUrlsPerFile: 500, gzip: true }],
  ['gzip level 9, sections in one file each', { gzip: { level: 9 } }],
  ['byte budget, stylesheet and HTML pages', { maxBytesPerFile: 60_000, xsl: true, html: true }],
  ['text, gzip', { format: 'txt', gzip: true, maxUrlsPerFile: 700 }],
  ['drop-field', { onInvalid: 'drop-field', maxUrlsPerFile: 900 }],
];

function sha(b: Uint8Array | string): string {
  return createHash('sha256').update(b).digest('hex').slice(0, 32);
}

describe('the writer output pinned', () => {
  const dir = tempDir('pinned');
  const input = join(dir, 'mixed.jsonl');
  writeFileSync(input, mixedJsonl());

  it.each(variants)('%s', async (name, options) => {
    const out = join(dir, name.replace(/\W+/g, '-'));
    const diagnostics: Diagnostic[] = [];
    const r = await writeSitemaps(readJsonl(input), {
      outDir: out,
      baseUrl: BASE,
      onInvalid: 'skip',
      now: () => NOW,
      ...options,
      onDiagnostic: (d) => diagnostics.push(d),
    });
    const files: Record<string, string> = {};
    for (const f of readdirSync(out).sort()) files[f] = sha(readFileSync(join(out, f)));
    const codes: Record<string, number> = {};
    for (const d of diagnostics)
      codes[`${d.severity} ${d.code}`] = (codes[`${d.severity} ${d.code}`] ?? 0) + 1;
    expect({
      urls: r.urls,
      skipped: r.skipped,
      files,
      codes,
      // The input's path is a fresh temporary folder each run.
      diagnostics: sha(JSON.stringify(diagnostics).replaceAll(dir, '<dir>')),
    }).toMatchSnapshot();
  });
});
