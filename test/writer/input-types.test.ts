import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { SitemapEntryInput } from '../../src/core/entry.js';
import { untypedRecords, writeSitemaps } from '../../src/writer/write-sitemaps.js';

const CHECKS = fileURLToPath(new URL('./types/entry-input.check.ts', import.meta.url));
const TSCONFIG = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));

describe("writeSitemaps' input type", () => {
  it('accepts the documented shorthand and refuses what is not an entry, at compile time', () => {
    const config = ts.readConfigFile(TSCONFIG, (p) => ts.sys.readFile(p));
    const parsed = ts.parseJsonConfigFileContent(
      config.config,
      ts.sys,
      fileURLToPath(new URL('../../', import.meta.url)),
    );
    const program = ts.createProgram([CHECKS], { ...parsed.options, noEmit: true });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file?.fileName ?? ''}:${d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line ?? 0}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    expect(problems).toEqual([]);
  }, 60_000);

  it('the shorthand the types accept is written', async () => {
    const entries: SitemapEntryInput[] = [
      {
        loc: 'https://example.com/',
        lastmod: new Date(Date.UTC(2024, 0, 2)),
        changefreq: 'Daily',
        priority: '0.8',
      },
      { loc: 'https://example.com/a', lastmod: 1723713120, images: ['https://example.com/a.jpg'] },
    ];
    const r = await writeSitemaps(entries, { baseUrl: 'https://example.com/', output: 'memory' });
    const xml = new TextDecoder().decode(r.memory!.get('sitemap.xml'));
    expect(xml).toContain(
      '<url><loc>https://example.com/</loc><lastmod>2024-01-02T00:00:00Z</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url>',
    );
    expect(xml).toContain(
      '<lastmod>2024-08-15T09:12:00Z</lastmod><image:image><image:loc>https://example.com/a.jpg</image:loc>',
    );
  });

  it('untypedRecords keeps records of unknown shape working, checked when read', async () => {
    const json: unknown[] = JSON.parse('[{"loc": "https://example.com/"}, {"loc": 5}, "junk"]');
    const r = await writeSitemaps(untypedRecords(json), {
      baseUrl: 'https://example.com/',
      output: 'memory',
      onInvalid: 'skip',
    });
    expect([r.urls, r.skipped]).toEqual([1, 2]);
    async function* lines(): AsyncGenerator<unknown> {
      yield { loc: 'https://example.com/b' };
    }
    expect(
      (await writeSitemaps(untypedRecords(lines()), { baseUrl: 'https://example.com/', output: 'memory' }))
        .urls,
    ).toBe(1);
  });
});
