// Issue 11, defect 14: slips other sitemap readers tolerate are read, each with a warning.
import { describe, expect, it } from 'vitest';
import { codes, parseCore, urlset } from './helpers.js';

const INDEX_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';

function index(body: string): string {
  return `${INDEX_OPEN}${body}\n</sitemapindex>\n`;
}

describe('sitemap index slips', () => {
  it('a <sitemap> whose text is its URL, with no <loc>, is read as its loc', () => {
    const r = parseCore(
      index(`<sitemap>https://www.example.com/s1.xml</sitemap>
<sitemap>
  https://www.example.com/s2.xml&amp;p=1
</sitemap>
<sitemap><loc>https://www.example.com/s3.xml</loc></sitemap>`),
    );
    expect(r.items).toEqual([
      { kind: 'sitemap', loc: 'https://www.example.com/s1.xml' },
      { kind: 'sitemap', loc: 'https://www.example.com/s2.xml&p=1' },
      { kind: 'sitemap', loc: 'https://www.example.com/s3.xml' },
    ]);
    const bare = r.diagnostics.filter((d) => d.code === 'index-loc-bare');
    expect(bare).toHaveLength(2);
    expect(bare[0]).toMatchObject({ severity: 'warning', line: 3, column: 1, field: 'loc' });
    expect(bare[0]!.message).toContain('https://www.example.com/s1.xml');
    expect(codes(r.diagnostics)).toEqual(['index-loc-bare', 'value-whitespace']);
  });

  it('the bare text is judged by the URL rule; an empty <sitemap> still lacks its loc', () => {
    const r = parseCore(
      index('<sitemap>http:/www.example.com/s1.xml</sitemap>\n<sitemap>  </sitemap>\n<sitemap/>'),
    );
    expect(r.items).toEqual([]);
    expect(codes(r.diagnostics)).toEqual(['index-loc-bare', 'loc-missing', 'url-invalid']);
    expect(r.diagnostics.filter((d) => d.code === 'loc-missing')).toHaveLength(2);
  });

  it('text beside child elements is not taken for the URL', () => {
    const r = parseCore(index('<sitemap>junk<loc>https://www.example.com/s1.xml</loc>more</sitemap>'));
    expect(r.items).toEqual([{ kind: 'sitemap', loc: 'https://www.example.com/s1.xml' }]);
    expect(codes(r.diagnostics)).toEqual([]);
  });

  it('a second <loc> in one <sitemap> is the next child, whose closing tag went missing', () => {
    const r = parseCore(
      index(`<sitemap>
  <loc>https://www.example.com/s1.xml</loc><lastmod>2024-01-01</lastmod>
  <loc>https://www.example.com/s2.xml</loc><lastmod>2024-02-02</lastmod>
  <loc>https://www.example.com/s3.xml</loc>
</sitemap>
<sitemap><loc>https://www.example.com/s4.xml</loc></sitemap>`),
    );
    expect(r.items).toEqual([
      { kind: 'sitemap', loc: 'https://www.example.com/s1.xml', lastmod: '2024-01-01' },
      { kind: 'sitemap', loc: 'https://www.example.com/s2.xml', lastmod: '2024-02-02' },
      { kind: 'sitemap', loc: 'https://www.example.com/s3.xml' },
      { kind: 'sitemap', loc: 'https://www.example.com/s4.xml' },
    ]);
    const repeated = r.diagnostics.filter((d) => d.code === 'index-loc-repeated');
    expect(repeated.map((d) => [d.severity, d.line, d.column])).toEqual([
      ['warning', 5, 3],
      ['warning', 6, 3],
    ]);
    expect(codes(r.diagnostics)).toEqual(['index-loc-repeated']);
  });

  it('a second <lastmod> is still a duplicate (the first is kept)', () => {
    const r = parseCore(
      index(
        '<sitemap><loc>https://www.example.com/s1.xml</loc><lastmod>2024-01-01</lastmod><lastmod>2024-02-02</lastmod></sitemap>',
      ),
    );
    expect(r.items).toEqual([
      { kind: 'sitemap', loc: 'https://www.example.com/s1.xml', lastmod: '2024-01-01' },
    ]);
    expect(codes(r.diagnostics)).toEqual(['element-duplicate']);
  });
});

describe('xhtml:link without hreflang', () => {
  it('amphtml, Android app links and separate mobile URLs are kept in links with their rel', () => {
    const r = parseCore(
      urlset(`<url><loc>https://www.example.com/a</loc>
  <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/a"/>
  <xhtml:link rel="amphtml" href="https://www.example.com/amp/a"/>
  <xhtml:link rel="alternate" href="android-app://com.example.app/https/www.example.com/a"/>
  <xhtml:link rel="alternate" media="only screen and (max-width: 640px)" href="https://m.example.com/a"/>
</url>`),
    );
    expect(r.items).toEqual([
      {
        loc: 'https://www.example.com/a',
        alternates: [{ hreflang: 'de', href: 'https://www.example.com/de/a' }],
        links: [
          { rel: 'amphtml', href: 'https://www.example.com/amp/a' },
          { rel: 'alternate', href: 'android-app://com.example.app/https/www.example.com/a' },
          { rel: 'alternate', href: 'https://m.example.com/a', media: 'only screen and (max-width: 640px)' },
        ],
      },
    ]);
    const kept = r.diagnostics.filter((d) => d.code === 'alternate-no-hreflang');
    expect(kept.map((d) => [d.severity, d.field])).toEqual([
      ['warning', 'links[0]'],
      ['warning', 'links[1]'],
      ['warning', 'links[2]'],
    ]);
    expect(codes(r.diagnostics)).toEqual(['alternate-no-hreflang']);
  });

  it('a link without rel or href, or with an unusable href, is still dropped', () => {
    const r = parseCore(
      urlset(`<url><loc>https://www.example.com/a</loc>
  <xhtml:link hreflang="de" href="https://www.example.com/de/a"/>
  <xhtml:link rel="amphtml"/>
  <xhtml:link rel="amphtml" href="/amp/a"/>
  <xhtml:link rel="amphtml" href="http:/www.example.com/amp"/>
</url>`),
    );
    expect(r.items).toEqual([{ loc: 'https://www.example.com/a' }]);
    expect(codes(r.diagnostics)).toEqual(['alternate-invalid', 'url-invalid']);
  });
});
