import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EntryInput } from '../../src/core/entry.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import type { WriteSitemapsOptions } from '../../src/writer/options.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';

const BASE = 'https://example.com/';
const ASTRO = { names: { index: 'sitemap-index', child: (n: number) => `sitemap-${n}` }, alwaysIndex: true };
const NEXT = { names: { index: 'sitemap', child: (n: number) => `sitemap-${n}` }, alwaysIndex: true };

function urls(n: number, section?: string): EntryInput[] {
  return Array.from({ length: n }, (_, i) => ({
    loc: `${BASE}${section ?? 'page'}/${i}`,
    ...(section !== undefined && { section }),
  }));
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
}

/** The set's files (no manifest), sorted. */
function filesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !f.startsWith('.'))
    .sort();
}

async function refusal(p: Promise<unknown>): Promise<{ code: string; message: string }> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  if (!isSitemapkitError(e)) throw new Error(`expected a SitemapkitError, got ${String(e)}`);
  return { code: e.code, message: e.message };
}

beforeAll(() => assertXmllint());

describe('writer file names', () => {
  it("keeps @astrojs/sitemap's names: an index over sitemap-0.xml even for one file", async () => {
    const out = tempDir();
    const r = await writeSitemaps(urls(3), { outDir: out, baseUrl: BASE, ...ASTRO });
    expect(filesIn(out)).toEqual(['sitemap-0.xml', 'sitemap-index.xml']);
    expect(r.entry.path).toBe(join(out, 'sitemap-index.xml'));
    const index = readFileSync(join(out, 'sitemap-index.xml'), 'utf8');
    expect(index).toContain('<sitemapindex');
    expect(locs(index)).toEqual([`${BASE}sitemap-0.xml`]);
    expect(locs(readFileSync(join(out, 'sitemap-0.xml'), 'utf8'))).toEqual(urls(3).map((u) => u.loc));
    for (const f of filesIn(out)) expect(xmllint(join(out, f)).ok, f).toBe(true);
  });

  it("keeps next-sitemap's names, split and gzipped", async () => {
    const out = tempDir();
    await writeSitemaps(urls(5), { outDir: out, baseUrl: BASE, maxUrlsPerFile: 2, gzip: true, ...NEXT });
    expect(filesIn(out)).toEqual([
      'sitemap-0.xml.gz',
      'sitemap-1.xml.gz',
      'sitemap-2.xml.gz',
      'sitemap.xml.gz',
    ]);
  });

  it('without alwaysIndex, one file is the entry point under the chosen name', async () => {
    const r = await writeSitemaps(urls(2), { output: 'memory', baseUrl: BASE, names: { index: 'urls' } });
    expect([...r.memory!.keys()]).toEqual(['urls.xml']);
    const txt = await writeSitemaps(urls(2), {
      output: 'memory',
      baseUrl: BASE,
      format: 'txt',
      names: { index: 'urls' },
    });
    expect([...txt.memory!.keys()]).toEqual(['urls.txt']);
  });

  it('names extra indexes after the chosen entry point, and the default ones as before', async () => {
    const chosen = await writeSitemaps(urls(5), {
      output: 'memory',
      baseUrl: BASE,
      maxUrlsPerFile: 1,
      maxSitemapsPerIndex: 2,
      ...ASTRO,
    });
    expect(chosen.roots.map((f) => f.path)).toEqual([
      'sitemap-index.xml',
      'sitemap-index-2.xml',
      'sitemap-index-3.xml',
    ]);
    const plain = await writeSitemaps(urls(5), {
      output: 'memory',
      baseUrl: BASE,
      maxUrlsPerFile: 1,
      maxSitemapsPerIndex: 2,
    });
    expect(plain.roots.map((f) => f.path)).toEqual([
      'sitemap.xml',
      'sitemap-index-2.xml',
      'sitemap-index-3.xml',
    ]);
  });

  it('gives the function each section and its own count from 0', async () => {
    const seen: string[] = [];
    const r = await writeSitemaps([...urls(3, 'blog'), ...urls(2)], {
      output: 'memory',
      baseUrl: BASE,
      maxUrlsPerFile: 2,
      names: {
        child: (n, section) => {
          seen.push(`${section}:${n}`);
          return `part-${section || 'main'}-${n}`;
        },
      },
    });
    expect(seen.sort()).toEqual([':0', 'blog:0', 'blog:1']);
    expect([...r.memory!.keys()].sort()).toEqual([
      'part-blog-0.xml',
      'part-blog-1.xml',
      'part-main-0.xml',
      'sitemap.xml',
    ]);
  });

  it('refuses names that would overwrite another file, or are not file names, before anything is published', async () => {
    const out = tempDir();
    await writeSitemaps(urls(3), { outDir: out, baseUrl: BASE });
    const before = filesIn(out).map((f) => [f, readFileSync(join(out, f), 'utf8')]);
    const cases: Array<[string, Partial<WriteSitemapsOptions>, RegExp]> = [
      [
        'the same name twice',
        { names: { child: () => 'part' } },
        /names\.child\(1\) gave "part", which another file of the set already has/,
      ],
      [
        'the entry point',
        { names: { index: 'all', child: (n) => (n === 0 ? 'all' : `p${n}`) } },
        /names\.child\(0\) gave "all", which another file/,
      ],
      [
        'an extension',
        { names: { child: (n) => `p${n}.xml` } },
        /names\.child\(0\) gave "p0\.xml", which cannot name a sitemap file/,
      ],
      ['a path', { names: { child: (n) => `../p${n}` } }, /cannot name a sitemap file/],
      [
        'the feed',
        { names: { child: (n) => (n === 0 ? 'feed' : `p${n}`) }, feed: { format: 'atom' } },
        /two files of the set would be named feed\.xml/,
      ],
      [
        'an extra index',
        { names: { index: 'x', child: (n) => (n === 0 ? 'x-2' : `p${n}`) }, maxSitemapsPerIndex: 1 },
        /two files of the set would be named x-2\.xml/,
      ],
    ];
    for (const [what, names, message] of cases) {
      const e = await refusal(
        writeSitemaps(urls(3), { outDir: out, baseUrl: BASE, maxUrlsPerFile: 1, ...names }),
      );
      expect(e.code, what).toBe('ERR_OPTIONS');
      expect(e.message, what).toMatch(message);
    }
    for (const [name, index] of [
      ['a.xml', 'a.xml'],
      ['../up', '../up'],
      ['', ''],
    ]) {
      const e = await refusal(
        writeSitemaps(urls(1), { outDir: out, baseUrl: BASE, names: { index: name! } }),
      );
      expect(e.message).toContain(`names.index must be a file name without extension`);
      expect(e.message).toContain(JSON.stringify(index));
    }
    expect(filesIn(out).map((f) => [f, readFileSync(join(out, f), 'utf8')])).toEqual(before);
  });

  it('replaces a set written under the default names and removes its old files', async () => {
    const out = tempDir();
    writeFileSync(join(out, 'other.txt'), 'not ours');
    await writeSitemaps(urls(5), { outDir: out, baseUrl: BASE, maxUrlsPerFile: 2 });
    expect(filesIn(out)).toContain('sitemap-00003.xml');
    await writeSitemaps(urls(5), { outDir: out, baseUrl: BASE, maxUrlsPerFile: 2, ...ASTRO });
    expect(filesIn(out)).toEqual([
      'other.txt',
      'sitemap-0.xml',
      'sitemap-1.xml',
      'sitemap-2.xml',
      'sitemap-index.xml',
    ]);
  });

  it('property: any count and split under chosen names lists every URL once, each file once in the index', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 7 }),
        fc.boolean(),
        async (n, per, always) => {
          const r = await writeSitemaps(urls(n), {
            output: 'memory',
            baseUrl: BASE,
            maxUrlsPerFile: per,
            names: { index: 'map', child: (i) => `map-part-${i}` },
            alwaysIndex: always,
          });
          const files = r.memory!;
          const children = Math.ceil(n / per);
          if (children === 1 && !always) {
            expect([...files.keys()]).toEqual(['map.xml']);
            return;
          }
          const index = new TextDecoder().decode(files.get('map.xml')!);
          const listed = locs(index).map((u) => u.slice(BASE.length));
          expect(listed).toEqual(Array.from({ length: children }, (_, i) => `map-part-${i}.xml`));
          const all = listed.flatMap((name) => locs(new TextDecoder().decode(files.get(name)!)));
          expect(all).toEqual(urls(n).map((u) => u.loc));
        },
      ),
      { numRuns: 60, seed: 20261126 },
    );
  });
});

describe('generate --index-name, --child-name, --always-index', () => {
  it('writes the chosen names, a section apart when the pattern has no {section}', async () => {
    const dir = tempDir();
    const input = join(dir, 'urls.jsonl');
    writeFileSync(input, [...urls(2), ...urls(1, 'blog')].map((u) => JSON.stringify(u)).join('\n'));
    const r = await runBin([
      'generate',
      input,
      '--base-url',
      BASE,
      '--out',
      join(dir, 'out'),
      '--index-name',
      'sitemap-index',
      '--child-name',
      'sitemap-{n}',
      '--always-index',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(filesIn(join(dir, 'out'))).toEqual(['sitemap-0.xml', 'sitemap-blog-0.xml', 'sitemap-index.xml']);
    expect(r.stdout).toContain('sitemap-index.xml');
  });

  it('refuses a pattern without {n}, a name with an extension, and the flags with --store', async () => {
    const dir = tempDir();
    const input = join(dir, 'urls.txt');
    writeFileSync(input, `${BASE}a\n`);
    const base = ['generate', input, '--base-url', BASE, '--out', join(dir, 'out')];
    const noN = await runBin([...base, '--child-name', 'part']);
    expect(noN.code).toBe(2);
    expect(noN.stderr).toContain('--child-name needs {n}');
    const ext = await runBin([...base, '--index-name', 'sitemap.xml']);
    expect(ext.code).toBe(2);
    expect(ext.stderr).toContain('--index-name must give a file name');
    const store = await runBin([...base, '--always-index', '--store', join(dir, 'site.db')]);
    expect(store.code).toBe(2);
    expect(store.stderr).toContain('cannot be used with --store');
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(existsSync(join(dir, 'site.db'))).toBe(false);
  });
});
