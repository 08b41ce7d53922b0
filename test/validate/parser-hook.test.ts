import { describe, expect, it } from 'vitest';
import { parseSitemap } from '../../src/parser/parse-sitemap.js';
import type { SitemapItem } from '../../src/parser/types.js';

// The validator's one addition to the parser: `onItem` reports each item with where it starts.
describe('parser onItem hook', () => {
  it('gives each item, its sitemap and the line and column of its tag, before the iteration yields it', async () => {
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      '  <url><loc>https://example.com/a</loc></url>',
      '',
      '    <url>',
      '      <loc>https://example.com/b</loc>',
      '    </url>',
      '</urlset>',
    ].join('\n');
    const seen: Array<{
      loc: string;
      sitemap: string;
      line: number | undefined;
      column: number | undefined;
    }> = [];
    const yielded: string[] = [];
    const result = parseSitemap(
      { text: xml },
      {
        onItem: (item: SitemapItem, sitemap, at) => {
          // Seen by the hook strictly before the loop below receives it.
          expect(yielded).not.toContain(item.loc);
          seen.push({ loc: item.loc, sitemap, line: at.line, column: at.column });
        },
      },
    );
    for await (const item of result) yielded.push(item.loc);
    expect(yielded).toEqual(['https://example.com/a', 'https://example.com/b']);
    expect(seen).toEqual([
      { loc: 'https://example.com/a', sitemap: '<text>', line: 3, column: 3 },
      { loc: 'https://example.com/b', sitemap: '<text>', line: 5, column: 5 },
    ]);
  });

  it('gives index children and text sitemap lines too', async () => {
    const lines: Array<[string, number | undefined]> = [];
    const text = parseSitemap(
      { text: 'https://example.com/x\n\nhttps://example.com/y\n' },
      { onItem: (item, _s, at) => lines.push([item.loc, at.line]) },
    );
    for await (const _ of text);
    expect(lines).toEqual([
      ['https://example.com/x', 1],
      ['https://example.com/y', 3],
    ]);
    const kinds: string[] = [];
    const index = parseSitemap(
      {
        text: '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/s1.xml</loc></sitemap></sitemapindex>',
      },
      { onItem: (item) => kinds.push('kind' in item ? item.kind : 'page') },
    );
    for await (const _ of index);
    expect(kinds).toEqual(['sitemap']);
  });
});
