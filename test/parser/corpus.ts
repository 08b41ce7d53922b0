import { URLSET_OPEN, urlset } from './helpers.js';

/**
 * Small documents that exercise every tokenizer state at a chunk boundary: entities and character
 * references, bare ampersands, CDATA, comments, processing instructions, attributes holding `>`,
 * BOMs, CRLF text, feeds, truncation, refusals.
 */
export const CORPUS: Readonly<Record<string, string | Uint8Array>> = {
  entities: urlset(
    '<url><loc>https://example.com/?a=1&amp;b=&#50;&#x33;&lt;&gt;&quot;&apos;</loc><lastmod>2024-01-01</lastmod></url><url><loc>https://example.com/&unknown;x&#0;&a=b&c</loc></url>',
  ),
  cdata: urlset(
    '<url><loc><![CDATA[https://example.com/a]]]]><![CDATA[>b]]></loc></url><!-- c -- d --><url><loc> https://example.com/b </loc></url>',
  ),
  attributes: urlset(
    '<url><loc>https://example.com/a</loc><xhtml:link rel="alternate" hreflang=\'x>y\' href="https://example.com/&gt;"/><video:video><video:thumbnail_loc>https://example.com/t</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description><video:player_loc allow_embed="maybe">https://example.com/p</video:player_loc><video:price currency="EUR" type="x">1</video:price></video:video></url>',
  ),
  mismatched: `${URLSET_OPEN}<url><loc>https://example.com/a</url><url><loc>https://example.com/b</loc></oops></url></urlset>`,
  pi: `<?xml version="1.0"?><?xml-stylesheet href="x.xsl"?>\n${urlset('<url><loc>https://example.com/a</loc></url>').replace(/^<\?xml[^>]*>/, '')}`,
  bom: new Uint8Array([
    0xef,
    0xbb,
    0xbf,
    ...new TextEncoder().encode(urlset('<url><loc>https://example.com/ä</loc></url>')),
  ]),
  text: '\uFEFFhttps://example.com/a\r\n\r\n# c\r\njunk line\r\nhttps://example.com/ü\nhttps://example.com/last',
  rss: '<rss version="2.0"><channel><item><link>https://example.com/a</link><pubDate>Thu, 15 Aug 2024 09:12:00 GMT</pubDate></item><item><title>no link</title></item></channel></rss>',
  atom: '<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://example.com/a"/><updated>2024-08-15T09:12:00Z</updated></entry></feed>',
  truncated: urlset('<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc>').slice(
    0,
    -40,
  ),
  doctype:
    '<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY a "b">]><urlset><url><loc>https://example.com/&a;</loc></url></urlset>',
  html: '<!DOCTYPE html>\n<html><body>x</body></html>',
  junk: `PHP Warning: oops\n${urlset('<url><loc>https://example.com/a</loc></url>')}`,
  index:
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/1.xml</loc><lastmod>2024-01-01</lastmod></sitemap></sitemapindex>',
  stray: `${urlset('<url><loc>https://example.com/a</loc></url>')}trailing text & more <`,
  latin1: Uint8Array.from(
    '<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://example.com/\u00fc</loc></url></urlset>',
    (c) => c.charCodeAt(0),
  ),
};
