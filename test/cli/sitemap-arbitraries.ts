import fc from 'fast-check';

/**
 * Generated sitemaps for the properties of sitemapkit parse's line writers (json-line.test.ts,
 * parse-lines.test.ts): every extension, entities, odd characters, duplicates, unknown elements,
 * children in any order.
 */

/** Text as it may sit in an element: entities, odd characters, blanks around it. */
export const xmlText = fc
  .array(
    fc.constantFrom(
      'a',
      'Z',
      '0',
      ' ',
      '\n',
      '&amp;',
      '&lt;',
      '&quot;',
      '&#233;',
      '&#x1F600;',
      '"',
      "'",
      '\\',
      'é',
      '中',
      '\t',
    ),
    { maxLength: 12 },
  )
  .map((a) => a.join(''));
export const urlText = fc
  .tuple(
    fc.constantFrom(
      'https://example.com/',
      'http://EXAMPLE.com:80/',
      'https://xn--bcher-kva.example/',
      ' https://example.com/a b',
      'ftp://x/',
      '',
    ),
    fc.array(fc.constantFrom('a', '/', '%20', '%2e', '..', '?q=1', '#f', 'ü', '&amp;', '"', '\\'), {
      maxLength: 6,
    }),
  )
  .map(([head, tail]) => head + tail.join(''));
const image = fc
  .record(
    {
      loc: urlText,
      caption: xmlText,
      title: xmlText,
      geo_location: xmlText,
      license: urlText,
    },
    { requiredKeys: [] },
  )
  .chain((fields) => fc.shuffledSubarray(Object.entries(fields), { minLength: Object.keys(fields).length }))
  .map(
    (fields) =>
      `<image:image>${fields.map(([k, v]) => `<image:${k}>${v}</image:${k}>`).join('')}</image:image>`,
  );
/** The children of a <url>, in any order and number (duplicates, extensions, unknown elements). */
export const urlChild = fc.oneof(
  urlText.map((u) => `<loc>${u}</loc>`),
  fc
    .constantFrom('2024-08-15', '2024-08-15T09:12:00+02:00', '2024-08-15T09:12:00', 'Aug 15', '')
    .map((d) => `<lastmod>${d}</lastmod>`),
  fc.constantFrom('weekly', 'Daily', 'sometimes').map((c) => `<changefreq>${c}</changefreq>`),
  fc.constantFrom('0.5', '1', '1.0', '0', '.25', '2', 'x', '-0').map((p) => `<priority>${p}</priority>`),
  image,
  fc.constant('<mobile:mobile/>'),
  urlText.map((u) => `<xhtml:link rel="alternate" hreflang="de" href="${u.replace(/"/g, '&quot;')}"/>`),
  fc.constant('<xhtml:link rel="amphtml" href="https://example.com/amp"/>'),
  fc.constant(
    '<news:news><news:publication><news:name>N</news:name><news:language>en</news:language></news:publication><news:publication_date>2024-08-15</news:publication_date><news:title>T &amp; "q"</news:title></news:news>',
  ),
  fc.constant(
    '<video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>V</video:title><video:description>D</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc><video:duration>60</video:duration><video:tag>a</video:tag><video:tag>b</video:tag></video:video>',
  ),
  fc.constant('<other>x</other>'),
);
export const NAMESPACES =
  'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml" xmlns:mobile="http://www.google.com/schemas/sitemap-mobile/1.0"';
export const urlsetXml = fc
  .array(fc.tuple(urlText, fc.array(urlChild, { maxLength: 8 })), { minLength: 1, maxLength: 6 })
  .map(
    (urls) =>
      `<urlset ${NAMESPACES}>${urls.map(([loc, c]) => `<url><loc>${loc}</loc>${c.join('')}</url>`).join('\n')}</urlset>`,
  );
