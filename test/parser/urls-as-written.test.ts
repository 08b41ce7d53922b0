// Issue 11, defects 13 and 15: URLs are judged as written before they are normalised, every URL
// finding names the URL, and the text as written is available (`rawUrls`, `ItemPosition.written`).
import { describe, expect, it } from 'vitest';
import { parseSitemapToArray } from '../../src/parser/parse-sitemap.js';
import type { ItemPosition } from '../../src/parser/types.js';
import { cli } from '../support/cli.js';
import { codes, indexOf, parseCore, urlset } from './helpers.js';

const BROKEN = [
  'http:/www.example.com/a',
  'http:www.example.com/b',
  'http:\\\\www.example.com\\c',
  'https:///www.example.com/g',
  'https://www.exa&#9;mple.com/d',
  'https://www.example.com/e&#10;f',
  'http://.example.com/h',
  'https://www.example.com/i https://www.example.com/j',
];

/** The text a loc holds once entities are decoded. */
function decoded(loc: string): string {
  return loc.replace(/&#9;/g, '\t').replace(/&#10;/g, '\n');
}

describe('URLs as written (defect 13)', () => {
  it('a loc WHATWG URL would repair is url-invalid, dropped, and named in the finding', () => {
    const body = BROKEN.map((l) => `<url><loc>${l}</loc></url>`).join('\n');
    const r = parseCore(urlset(`${body}\n<url><loc>https://www.example.com/ok</loc></url>`));
    expect(r.items).toEqual([{ loc: 'https://www.example.com/ok' }]);
    const found = r.diagnostics.filter((d) => d.code === 'url-invalid');
    expect(found.map((d) => d.url)).toEqual(BROKEN.map(decoded));
    for (const d of found) {
      expect(d).toMatchObject({ severity: 'error', field: 'loc' });
      expect(d.message).not.toMatch(/[\t\n]/);
    }
    expect(found[0]!.message).toContain('"http:/www.example.com/a" must continue "http:" with //');
  });

  it('an index child and a line of a text sitemap are judged the same way', () => {
    const index = parseCore(indexOf(['http:/www.example.com/s1.xml', 'https://www.example.com/s2.xml']));
    expect(index.items).toEqual([{ kind: 'sitemap', loc: 'https://www.example.com/s2.xml' }]);
    expect(index.diagnostics.find((d) => d.code === 'url-invalid')?.url).toBe('http:/www.example.com/s1.xml');
    const text = parseCore('http:/www.example.com/a\nhttps://www.example.com/b\n');
    expect(text.items).toEqual([{ loc: 'https://www.example.com/b' }]);
    expect(text.diagnostics.find((d) => d.code === 'url-invalid')).toMatchObject({
      url: 'http:/www.example.com/a',
      line: 1,
    });
  });

  it('url-scheme and url-too-long name the URL at fault, also for an image', () => {
    const long = `https://www.example.com/${'a'.repeat(2100)}`;
    const r = parseCore(
      urlset(`<url><loc>ftp://www.example.com/f</loc></url>
<url><loc>${long}</loc></url>
<url><loc>https://www.example.com/p</loc><image:image><image:loc>http:/cdn.example.com/i.png</image:loc></image:image></url>`),
    );
    expect(r.diagnostics.find((d) => d.code === 'url-scheme')?.url).toBe('ftp://www.example.com/f');
    expect(r.diagnostics.find((d) => d.code === 'url-too-long')?.url).toBe(long);
    expect(r.diagnostics.find((d) => d.code === 'url-invalid')).toMatchObject({
      url: 'http:/cdn.example.com/i.png',
      field: 'images[0].loc',
    });
  });

  it('raw non-ASCII, raw spaces and IDN hosts stay accepted (normalised)', () => {
    const r = parseCore(urlset('<url><loc>https://bücher.example/straße mit leer</loc></url>'));
    expect(r.items).toEqual([{ loc: 'https://xn--bcher-kva.example/stra%C3%9Fe%20mit%20leer' }]);
    expect(codes(r.diagnostics)).toEqual([]);
  });
});

describe('URLs exactly as written (defect 15)', () => {
  const xml = urlset(`<url><loc>HTTP://Example.com</loc></url>
<url><loc> https://example.com/a b?x=1&amp;y=ä </loc></url>
<url><loc>https://example.com/plain</loc></url>`);

  it('normal form by default; each item position carries the text when it differs', async () => {
    const positions: ItemPosition[] = [];
    const r = await parseSitemapToArray({ text: xml }, { onItem: (_i, _s, at) => positions.push(at) });
    expect(r.items.map((i) => i.loc)).toEqual([
      'http://example.com/',
      'https://example.com/a%20b?x=1&y=%C3%A4',
      'https://example.com/plain',
    ]);
    expect(positions.map((p) => p.written)).toEqual([
      'HTTP://Example.com',
      'https://example.com/a b?x=1&y=ä',
      undefined,
    ]);
  });

  it('rawUrls: true yields each loc as written (entities decoded, blanks trimmed)', async () => {
    const r = await parseSitemapToArray({ text: xml }, { rawUrls: true });
    expect(r.items.map((i) => i.loc)).toEqual([
      'HTTP://Example.com',
      'https://example.com/a b?x=1&y=ä',
      'https://example.com/plain',
    ]);
    const index = await parseSitemapToArray(
      { text: indexOf(['HTTPS://example.com/s.xml']) },
      { rawUrls: true },
    );
    expect(index.items).toEqual([{ kind: 'sitemap', loc: 'HTTPS://example.com/s.xml' }]);
  });

  it('the location rule still judges the normal form under rawUrls', async () => {
    const r = await parseSitemapToArray(
      { text: urlset('<url><loc>HTTPS://WWW.EXAMPLE.COM/shop/a</loc></url>') },
      { rawUrls: true, sitemapUrl: 'https://www.example.com/shop/sitemap.xml' },
    );
    expect(r.items.map((i) => i.loc)).toEqual(['HTTPS://WWW.EXAMPLE.COM/shop/a']);
    expect(codes(r.diagnostics)).toEqual([]);
  });

  it('sitemapkit parse --raw-urls prints them as written', async () => {
    const r = await cli(['parse', '-', '--raw-urls', '--format', 'txt'], xml);
    expect(r.stdout).toBe('HTTP://Example.com\nhttps://example.com/a b?x=1&y=ä\nhttps://example.com/plain\n');
    const normal = await cli(['parse', '-', '--format', 'txt'], xml);
    expect(normal.stdout.split('\n')[0]).toBe('http://example.com/');
  });
});
