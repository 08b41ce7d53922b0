import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChangeCounts,
  diffUrls,
  readSourceUrls,
  type SourceUrl,
  type UrlChange,
} from '../../src/submit/index.js';
import { MANIFEST_OPEN, manifestEntryLine, manifestTailLine } from '../../src/writer/manifest.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';

async function collect(
  previous: SourceUrl[],
  current: SourceUrl[],
): Promise<{ changes: UrlChange[]; counts: ChangeCounts }> {
  const counts: ChangeCounts = { added: 0, changed: 0, removed: 0, unchanged: 0, previous: 0 };
  const changes: UrlChange[] = [];
  for await (const c of diffUrls(
    async function* () {
      yield* previous;
    },
    current,
    counts,
  ))
    changes.push(c);
  return { changes, counts };
}

const B = 'https://example.com';

describe('diffUrls', () => {
  it('finds added, changed (by hash) and removed URLs, each once', async () => {
    const { changes, counts } = await collect(
      [
        { loc: `${B}/a`, hash: '0000000000000001' },
        { loc: `${B}/b`, hash: '0000000000000002' },
        { loc: `${B}/c`, hash: '0000000000000003' },
      ],
      [
        { loc: `${B}/a`, hash: '0000000000000001' },
        { loc: `${B}/b`, hash: 'ffff000000000002' },
        { loc: `${B}/d`, hash: '0000000000000004' },
        { loc: `${B}/d`, hash: '0000000000000004' },
        { loc: `${B}/b`, hash: 'ffff000000000002' },
      ],
    );
    expect(changes).toEqual([
      { loc: `${B}/b`, change: 'changed' },
      { loc: `${B}/d`, change: 'added' },
      { loc: `${B}/c`, change: 'removed' },
    ]);
    expect(counts).toEqual({ added: 1, changed: 1, removed: 1, unchanged: 1, previous: 3 });
  });

  it('uses lastmod when the previous side has no hash (a live sitemap)', async () => {
    const { changes } = await collect(
      [
        { loc: `${B}/a`, lastmod: '2024-01-01' },
        { loc: `${B}/b`, lastmod: '2024-01-01' },
        { loc: `${B}/c`, lastmod: '2024-01-01' },
        { loc: `${B}/n` },
      ],
      [
        { loc: `${B}/a`, lastmod: '2024-01-01', hash: '1111111111111111' },
        { loc: `${B}/b`, lastmod: '2024-02-01', hash: '2222222222222222' },
        { loc: `${B}/c`, hash: '3333333333333333' },
        { loc: `${B}/n`, lastmod: '2024-02-01' },
      ],
    );
    // c lost its lastmod: changed. n had no lastmod nor hash: nothing to compare, unchanged.
    expect(changes.map((c) => [c.loc.slice(B.length), c.change])).toEqual([
      ['/b', 'changed'],
      ['/c', 'changed'],
    ]);
  });

  it('property: previous − removed + added is the current set; changed URLs are in both', async () => {
    const locs = fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(locs, locs, fc.array(fc.integer({ min: 0, max: 60 })), async (prev, cur, edited) => {
        const hashOf = (n: number, v: number): string => (n * 1000 + v).toString(16).padStart(16, '0');
        const previous = prev.map((n) => ({ loc: `${B}/${n}`, hash: hashOf(n, 0) }));
        const current = cur.map((n) => ({ loc: `${B}/${n}`, hash: hashOf(n, edited.includes(n) ? 1 : 0) }));
        const { changes } = await collect(previous, current);
        const of = (k: string): Set<string> =>
          new Set(changes.filter((c) => c.change === k).map((c) => c.loc));
        const result = new Set([
          ...previous.map((p) => p.loc).filter((l) => !of('removed').has(l)),
          ...of('added'),
        ]);
        expect(result).toEqual(new Set(current.map((c) => c.loc)));
        for (const l of of('changed'))
          expect(
            prev.includes(Number(l.slice(B.length + 1))) && cur.includes(Number(l.slice(B.length + 1))),
          ).toBe(true);
        expect(of('changed')).toEqual(
          new Set(cur.filter((n) => prev.includes(n) && edited.includes(n)).map((n) => `${B}/${n}`)),
        );
        expect(changes.length).toBe(new Set(changes.map((c) => c.loc)).size);
      }),
      { numRuns: 300 },
    );
  });

  it('between two real builds of the writer: exactly the URLs whose XML changed, appeared or went away', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sitemapkit-changes-'));
    const one = join(root, 'one');
    const two = join(root, 'two');
    await writeSitemaps(
      [
        { loc: `${B}/same`, lastmod: '2024-01-01' },
        { loc: `${B}/lastmod`, lastmod: '2024-01-01' },
        { loc: `${B}/priority`, priority: 0.5 },
        { loc: `${B}/gone` },
      ],
      { outDir: one, baseUrl: `${B}/` },
    );
    await writeSitemaps(
      [
        { loc: `${B}/same`, lastmod: '2024-01-01' },
        { loc: `${B}/lastmod`, lastmod: '2024-03-01' },
        { loc: `${B}/priority`, priority: 0.9 },
        { loc: `${B}/new` },
      ],
      { outDir: two, baseUrl: `${B}/` },
    );
    const changes: UrlChange[] = [];
    for await (const c of diffUrls(() => readSourceUrls(one), readSourceUrls(two))) changes.push(c);
    expect(changes).toEqual([
      { loc: `${B}/lastmod`, change: 'changed' },
      { loc: `${B}/priority`, change: 'changed' },
      { loc: `${B}/new`, change: 'added' },
      { loc: `${B}/gone`, change: 'removed' },
    ]);
  });
});

describe('readSourceUrls', () => {
  it('reads a manifest file, its folder, and a text list', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-sources-'));
    const manifest = join(dir, '.sitemapkit-manifest.json');
    const entries = [
      { loc: 'https://example.com/a', lastmod: '2024-01-01', hash: '9f2c000000000000' },
      { loc: 'https://example.com/b', hash: '01ab000000000000' },
    ];
    // The writer's own layout, written with its own line functions.
    writeFileSync(
      manifest,
      MANIFEST_OPEN +
        entries.map((e, i) => manifestEntryLine(e, i === 0)).join('') +
        manifestTailLine({
          format: 'sitemapkit-manifest',
          version: 1,
          generatedAt: '2026-11-22T10:00:00Z',
          baseUrl: 'https://example.com/',
          roots: ['sitemap.xml'],
          files: [],
          entryCount: 2,
        }),
    );
    // The layout issue 4 described (header first): still read, whole.
    const older = join(dir, 'older.json');
    writeFileSync(
      older,
      '{"format":"sitemapkit-manifest","version":1,"generatedAt":"2026-11-22T10:00:00Z","baseUrl":"https://example.com/","roots":["sitemap.xml"],"files":[],"entryCount":2,\n"entries":[\n{"loc":"https://example.com/a","lastmod":"2024-01-01","hash":"9f2c000000000000"},\n{"loc":"https://example.com/b","hash":"01ab000000000000"}\n]}\n',
    );
    const all = async (s: string): Promise<SourceUrl[]> => {
      const out: SourceUrl[] = [];
      for await (const u of readSourceUrls(s)) out.push(u);
      return out;
    };
    expect(await all(manifest)).toEqual(entries);
    expect(await all(dir)).toEqual(entries);
    expect(await all(older)).toEqual(entries);
    const list = join(dir, 'urls.txt');
    writeFileSync(list, '\uFEFF# list\r\nhttps://example.com/x\r\n\r\n  https://example.com/y  \n');
    expect(await all(list)).toEqual([
      { loc: 'https://example.com/x', line: 2 },
      { loc: 'https://example.com/y', line: 4 },
    ]);
    await expect(all(join(dir, 'missing.txt'))).rejects.toThrow(/no such file/);
    await expect(all(mkdtempSync(join(tmpdir(), 'sitemapkit-empty-')))).rejects.toThrow(
      /no \.sitemapkit-manifest\.json here/,
    );
    expect(readFileSync(list, 'utf8')).toContain('example.com/y');
  });
});
