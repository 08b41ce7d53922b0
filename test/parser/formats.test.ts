import { describe, expect, it } from 'vitest';
import { codes, parseCore, URLSET_OPEN, urlset } from './helpers.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('urlset', () => {
  it('reads every field of the entry model, legacy ones included, in canonical key order', () => {
    const doc = urlset(`<url>
  <priority>0.5</priority>
  <loc>https://www.example.com/a?x=1&amp;y=2</loc>
  <lastmod>2024-08-15T09:12:00+02:00</lastmod>
  <changefreq>weekly</changefreq>
  <image:image><image:loc>https://cdn.example.com/a.jpg</image:loc><image:caption>A cat</image:caption><image:geo_location>Paris</image:geo_location><image:title>Cat</image:title><image:license>https://example.com/license</image:license></image:image>
  <image:image><image:loc>https://cdn.example.com/b.jpg</image:loc></image:image>
  <video:video>
    <video:thumbnail_loc>https://www.example.com/t.jpg</video:thumbnail_loc>
    <video:title>T</video:title>
    <video:description>D</video:description>
    <video:content_loc>https://cdn.example.com/v.mp4</video:content_loc>
    <video:player_loc allow_embed="Yes" autoplay="ap=1">https://www.example.com/player?v=1</video:player_loc>
    <video:duration>600</video:duration>
    <video:expiration_date>2030-01-01</video:expiration_date>
    <video:rating>4.5</video:rating>
    <video:content_segment_loc>https://cdn.example.com/s1.mp4</video:content_segment_loc>
    <video:view_count>12</video:view_count>
    <video:publication_date>2024-01-01T00:00:00Z</video:publication_date>
    <video:tag>a</video:tag><video:tag>b</video:tag>
    <video:category>Cooking</video:category>
    <video:family_friendly>NO</video:family_friendly>
    <video:restriction relationship="deny">US CA</video:restriction>
    <video:gallery_loc title="G">https://www.example.com/gallery</video:gallery_loc>
    <video:price currency="EUR" type="rent" resolution="HD">1.99</video:price>
    <video:requires_subscription>no</video:requires_subscription>
    <video:uploader info="https://www.example.com/u">Me</video:uploader>
    <video:tvshow><video:show_title>S</video:show_title><video:video_type>full</video:video_type><video:episode_title>E</video:episode_title><video:season_number>2</video:season_number><video:episode_number>3</video:episode_number><video:premier_date>2020-02-02</video:premier_date></video:tvshow>
    <video:platform relationship="allow">web tv</video:platform>
    <video:live>no</video:live>
    <video:id type="url">https://example.com/id</video:id>
  </video:video>
  <news:news>
    <news:publication><news:name>The Times</news:name><news:language>en</news:language></news:publication>
    <news:access>Subscription</news:access><news:genres>Blog</news:genres>
    <news:publication_date>2024-08-15</news:publication_date>
    <news:title>Title</news:title><news:keywords>a, b</news:keywords><news:stock_tickers>NASDAQ:A</news:stock_tickers>
  </news:news>
  <xhtml:link rel="alternate" hreflang="de" href="https://www.example.de/a"/>
  <mobile:mobile/>
</url>`);
    const r = parseCore(doc);
    expect(r.items).toEqual([
      {
        loc: 'https://www.example.com/a?x=1&y=2',
        lastmod: '2024-08-15T09:12:00+02:00',
        changefreq: 'weekly',
        priority: 0.5,
        images: [
          {
            loc: 'https://cdn.example.com/a.jpg',
            caption: 'A cat',
            geo_location: 'Paris',
            title: 'Cat',
            license: 'https://example.com/license',
          },
          { loc: 'https://cdn.example.com/b.jpg' },
        ],
        videos: [
          {
            thumbnail_loc: 'https://www.example.com/t.jpg',
            title: 'T',
            description: 'D',
            content_loc: 'https://cdn.example.com/v.mp4',
            player_loc: { loc: 'https://www.example.com/player?v=1', allow_embed: 'yes', autoplay: 'ap=1' },
            duration: 600,
            expiration_date: '2030-01-01',
            rating: 4.5,
            view_count: 12,
            publication_date: '2024-01-01T00:00:00Z',
            family_friendly: 'no',
            restriction: { relationship: 'deny', countries: 'US CA' },
            platform: { relationship: 'allow', platforms: 'web tv' },
            requires_subscription: 'no',
            uploader: { name: 'Me', info: 'https://www.example.com/u' },
            live: 'no',
            tag: ['a', 'b'],
            category: 'Cooking',
            gallery_loc: { loc: 'https://www.example.com/gallery', title: 'G' },
            price: [{ value: '1.99', currency: 'EUR', type: 'rent', resolution: 'hd' }],
            tvshow: {
              show_title: 'S',
              video_type: 'full',
              episode_title: 'E',
              season_number: 2,
              episode_number: 3,
              premier_date: '2020-02-02',
            },
            content_segment_loc: ['https://cdn.example.com/s1.mp4'],
            id: [{ value: 'https://example.com/id', type: 'url' }],
          },
        ],
        news: {
          publication: { name: 'The Times', language: 'en' },
          publication_date: '2024-08-15',
          title: 'Title',
          access: 'Subscription',
          genres: 'Blog',
          keywords: 'a, b',
          stock_tickers: 'NASDAQ:A',
        },
        alternates: [{ hreflang: 'de', href: 'https://www.example.de/a' }],
        mobile: true,
      },
    ]);
    expect(Object.keys(r.items[0]!)).toEqual([
      'loc',
      'lastmod',
      'changefreq',
      'priority',
      'images',
      'videos',
      'news',
      'alternates',
      'mobile',
    ]);
    expect(codes(r.diagnostics)).toEqual(['element-order']);
  });

  it('tolerates prefixed, missing and wrong namespaces, each with its diagnostic', () => {
    const prefixed = parseCore(
      '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://example.com/a</sm:loc></sm:url></sm:urlset>',
    );
    expect(prefixed.items).toEqual([{ loc: 'https://example.com/a' }]);
    expect(codes(prefixed.diagnostics)).toEqual(['namespace-prefixed']);

    const none = parseCore('<urlset><url><loc>https://example.com/a</loc></url></urlset>');
    expect(none.items).toHaveLength(1);
    expect(codes(none.diagnostics)).toEqual(['namespace-missing']);

    for (const ns of [
      'https://www.sitemaps.org/schemas/sitemap/0.9',
      'http://www.google.com/schemas/sitemap/0.84',
      'http://www.sitemaps.org/schemas/sitemap/0.9/',
    ]) {
      const wrong = parseCore(`<urlset xmlns="${ns}"><url><loc>https://example.com/a</loc></url></urlset>`);
      expect(wrong.items, ns).toHaveLength(1);
      expect(codes(wrong.diagnostics), ns).toEqual(['namespace-wrong']);
    }

    const undeclared = parseCore(
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a</loc><image:image><image:loc>https://example.com/i.png</image:loc></image:image></url></urlset>',
    );
    expect(undeclared.items).toEqual([
      { loc: 'https://example.com/a', images: [{ loc: 'https://example.com/i.png' }] },
    ]);
    expect(codes(undeclared.diagnostics)).toEqual(['namespace-undeclared']);
  });

  it('reads CDATA, padded values, comments and unknown elements, noting each once', () => {
    const r = parseCore(
      urlset(`<!-- generated -->
<url>
  <loc>
    <![CDATA[https://example.com/a?b=1&c=2]]>
  </loc>
  <foo>bar</foo><pagemap:PageMap xmlns:pagemap="http://www.google.com/schemas/sitemap-pagemap/1.0"><x/></pagemap:PageMap>
</url>
<url><loc><![CDATA[https://example.com/]]>b</loc><foo/></url>`),
    );
    expect(r.items).toEqual([{ loc: 'https://example.com/a?b=1&c=2' }, { loc: 'https://example.com/b' }]);
    expect(codes(r.diagnostics)).toEqual(['element-unknown', 'value-whitespace', 'xml-cdata', 'xml-comment']);
    expect(r.diagnostics.filter((d) => d.code === 'element-unknown')).toHaveLength(2);
  });

  it('drops bad values with warnings and keeps the entry', () => {
    const r = parseCore(
      urlset(
        '<url><loc>https://example.com/a</loc><lastmod>yesterday</lastmod><changefreq>Daily</changefreq><priority>2</priority></url>' +
          '<url><loc>https://example.com/b</loc><lastmod>Mon, 15 Aug 2024 09:12:00 GMT</lastmod><changefreq>sometimes</changefreq></url>',
      ),
    );
    expect(r.items).toEqual([
      { loc: 'https://example.com/a', changefreq: 'daily' },
      { loc: 'https://example.com/b', lastmod: '2024-08-15T09:12:00Z' },
    ]);
    expect(codes(r.diagnostics)).toEqual(['changefreq-invalid', 'lastmod-invalid', 'priority-invalid']);
    const lastmod = r.diagnostics.find((d) => d.code === 'lastmod-invalid')!;
    expect(lastmod).toMatchObject({
      sitemap: 'doc',
      line: 3,
      field: 'lastmod',
      url: 'https://example.com/a',
      severity: 'warning',
    });
  });

  it('drops entries without a usable loc, and images, videos, news and alternates missing required parts', () => {
    const r = parseCore(
      urlset(`<url><lastmod>2024-01-01</lastmod></url>
<url><loc>ftp://example.com/a</loc></url>
<url><loc>/relative</loc></url>
<url><loc>https://example.com/ok</loc>
  <image:image><image:caption>x</image:caption></image:image>
  <video:video><video:title>t</video:title></video:video>
  <video:video><video:thumbnail_loc>https://example.com/t.png</video:thumbnail_loc><video:title>t</video:title><video:description>d</video:description></video:video>
  <news:news><news:title>t</news:title></news:news>
  <xhtml:link hreflang="de" href="https://example.com/de"/>
</url>`),
    );
    expect(r.items).toEqual([
      {
        loc: 'https://example.com/ok',
        videos: [{ thumbnail_loc: 'https://example.com/t.png', title: 't', description: 'd' }],
      },
    ]);
    expect(codes(r.diagnostics)).toEqual([
      'alternate-invalid',
      'image-invalid',
      'loc-missing',
      'news-invalid',
      'url-invalid',
      'url-scheme',
      'video-invalid',
    ]);
    const videoDrop = r.diagnostics.find((d) => d.code === 'video-invalid' && d.message.includes('dropped'))!;
    expect(videoDrop.field).toBe('videos[0]');
  });

  it('keeps the first of duplicated single elements', () => {
    const r = parseCore(
      urlset(
        '<url><loc>https://example.com/a</loc><loc>https://example.com/b</loc><lastmod>2024-01-01</lastmod></url>',
      ),
    );
    expect(r.items).toEqual([{ loc: 'https://example.com/a', lastmod: '2024-01-01' }]);
    expect(codes(r.diagnostics)).toEqual(['element-duplicate']);
  });

  it('caps lists at 1,000 per entry', () => {
    const images = Array.from(
      { length: 1002 },
      (_, i) => `<image:image><image:loc>https://example.com/${i}.png</image:loc></image:image>`,
    ).join('');
    const r = parseCore(urlset(`<url><loc>https://example.com/a</loc>${images}</url>`));
    expect((r.items[0] as { images: unknown[] }).images).toHaveLength(1000);
    expect(r.diagnostics.filter((d) => d.code === 'too-many-children')).toHaveLength(2);
  });

  it('drops values over the value cap, without holding them', () => {
    const r = parseCore(
      urlset(`<url><loc>https://example.com/a</loc><lastmod>${' '.repeat(70_000)}2024-01-01</lastmod></url>`),
    );
    expect(r.items).toEqual([{ loc: 'https://example.com/a' }]);
    expect(codes(r.diagnostics)).toEqual(['value-too-long']);
  });

  it('reports an empty urlset', () => {
    const r = parseCore(urlset(''));
    expect(r.items).toEqual([]);
    expect(r.format).toBe('urlset');
    expect(codes(r.diagnostics)).toEqual(['sitemap-empty']);
  });

  it('applies the location rule only when the sitemap URL is known', () => {
    const doc = urlset(
      '<url><loc>http://example.com/catalog/a</loc></url><url><loc>http://example.com/other</loc></url><url><loc>http://other.com/x</loc></url>',
    );
    expect(parseCore(doc).diagnostics).toEqual([]);
    const r = parseCore(doc, { sitemapUrl: 'http://example.com/catalog/sitemap.xml' });
    expect(r.items).toHaveLength(3);
    expect(r.diagnostics.map((d) => [d.code, d.url])).toEqual([
      ['url-outside-location', 'http://example.com/other'],
      ['url-outside-location', 'http://other.com/x'],
    ]);
    const crossSubmitted = parseCore(doc, {
      sitemapUrl: 'http://example.com/catalog/sitemap.xml',
      allowHosts: ['other.com'],
    });
    expect(crossSubmitted.diagnostics.map((d) => d.url)).toEqual(['http://example.com/other']);
    const twoUrls = parseCore(doc, {
      sitemapUrl: ['http://example.com/catalog/sitemap.xml', 'http://example.com/sitemap.xml'],
    });
    expect(twoUrls.diagnostics.map((d) => d.url)).toEqual(['http://other.com/x']);
  });

  it('counts URLs past 50,000 once and keeps them all', () => {
    const body = Array.from(
      { length: 50_002 },
      (_, i) => `<url><loc>https://example.com/${i}</loc></url>`,
    ).join('\n');
    const r = parseCore(urlset(body));
    expect(r.items).toHaveLength(50_002);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['too-many-urls']);
  });
});

describe('sitemapindex', () => {
  it('yields references with lastmod', () => {
    const r = parseCore(
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/a.xml</loc><lastmod>2024-01-01</lastmod></sitemap><sitemap><loc>https://example.com/b.xml.gz</loc></sitemap><sitemap><lastmod>2024-01-01</lastmod></sitemap></sitemapindex>',
    );
    expect(r.format).toBe('sitemapindex');
    expect(r.items).toEqual([
      { kind: 'sitemap', loc: 'https://example.com/a.xml', lastmod: '2024-01-01' },
      { kind: 'sitemap', loc: 'https://example.com/b.xml.gz' },
    ]);
    expect(codes(r.diagnostics)).toEqual(['loc-missing']);
  });
});

describe('plain text', () => {
  it('reads one URL a line, tolerating blank lines, comments, junk and CRLF', () => {
    const r = parseCore(
      '\r\nhttps://example.com/a\r\n  https://example.com/b  \r\n# comment\r\nnot a url\r\n\r\nftp://example.com/x\r\nhttps://example.com/c',
    );
    expect(r.format).toBe('text');
    expect(r.items).toEqual([
      { loc: 'https://example.com/a' },
      { loc: 'https://example.com/b' },
      { loc: 'https://example.com/c' },
    ]);
    expect(codes(r.diagnostics)).toEqual([
      'text-blank-line',
      'text-comment',
      'text-crlf',
      'text-junk-line',
      'url-scheme',
    ]);
    expect(r.diagnostics.find((d) => d.code === 'text-junk-line')).toMatchObject({ line: 5, column: 1 });
    expect(r.diagnostics.find((d) => d.code === 'url-scheme')).toMatchObject({ line: 7 });
  });

  it('calls a document without one URL line not a sitemap', () => {
    const r = parseCore('{"json": true}\nhello\n');
    expect(r.items).toEqual([]);
    expect(codes(r.diagnostics)).toEqual(['format-unknown', 'text-junk-line']);
  });

  it('skips a line longer than the line cap without holding it', () => {
    const r = parseCore(`${'x'.repeat(70_000)}\nhttps://example.com/a\n`);
    expect(r.items).toEqual([{ loc: 'https://example.com/a' }]);
    expect(codes(r.diagnostics)).toEqual(['text-junk-line']);
  });
});

describe('feeds', () => {
  it('reads RSS 2.0 with pubDate converted to UTC, guid fallback and mRSS media', () => {
    const r = parseCore(`<?xml version="1.0"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>T</title><link>https://example.com/</link>
<item><title>A</title><link>https://example.com/a</link><pubDate>Thu, 15 Aug 2024 09:12:00 +0200</pubDate></item>
<item><guid isPermaLink="true">https://example.com/b</guid><dc:date>2024-08-15</dc:date></item>
<item><guid isPermaLink="false">https://example.com/c</guid></item>
<item><title>V</title><description>Desc</description><link>https://example.com/v</link>
  <media:group><media:content url="https://cdn.example.com/v.mp4" medium="video" duration="61"/><media:thumbnail url="https://cdn.example.com/v.jpg"/></media:group>
  <media:content url="https://cdn.example.com/p.jpg" type="image/jpeg"/>
</item>
</channel></rss>`);
    expect(r.format).toBe('rss');
    expect(r.items).toEqual([
      { loc: 'https://example.com/a', lastmod: '2024-08-15T07:12:00Z' },
      { loc: 'https://example.com/b', lastmod: '2024-08-15' },
      {
        loc: 'https://example.com/v',
        images: [{ loc: 'https://cdn.example.com/p.jpg' }],
        videos: [
          {
            thumbnail_loc: 'https://cdn.example.com/v.jpg',
            title: 'V',
            description: 'Desc',
            content_loc: 'https://cdn.example.com/v.mp4',
            duration: 61,
          },
        ],
      },
    ]);
    expect(codes(r.diagnostics)).toEqual(['feed-item-no-link']);
  });

  it('reads Atom 1.0 and Atom 0.3', () => {
    const atom1 =
      parseCore(`<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><link href="https://example.com/"/>
<entry><link rel="self" href="https://example.com/self"/><link href="https://example.com/a"/><updated>2024-08-15T09:12:00Z</updated><published>2020-01-01T00:00:00Z</published></entry>
<entry><link rel="alternate" type="text/html" href="https://example.com/b"/></entry></feed>`);
    expect(atom1.format).toBe('atom');
    expect(atom1.items).toEqual([
      { loc: 'https://example.com/a', lastmod: '2024-08-15T09:12:00Z' },
      { loc: 'https://example.com/b' },
    ]);
    expect(atom1.diagnostics).toEqual([]);
    const atom03 = parseCore(
      `<feed version="0.3" xmlns="http://purl.org/atom/ns#"><entry><link rel="alternate" type="text/html" href="https://example.com/a"/><modified>2004-12-13T18:30:02Z</modified><issued>2003-12-13T08:29:29-04:00</issued></entry></feed>`,
    );
    expect(atom03.items).toEqual([{ loc: 'https://example.com/a', lastmod: '2004-12-13T18:30:02Z' }]);
  });

  it('reads RSS 1.0 (RDF)', () => {
    const r =
      parseCore(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://example.com/"><title>t</title><link>https://example.com/</link></channel>
<item rdf:about="https://example.com/a"><link>https://example.com/a</link><dc:date>2024-08-15T09:12:00+00:00</dc:date></item></rdf:RDF>`);
    expect(r.items).toEqual([{ loc: 'https://example.com/a', lastmod: '2024-08-15T09:12:00+00:00' }]);
  });
});

describe('bytes and encodings', () => {
  it('skips a UTF-8 BOM and whitespace before <?xml, noting both', () => {
    const r = parseCore(
      new Uint8Array([
        0xef,
        0xbb,
        0xbf,
        ...enc(`\n  ${urlset('<url><loc>https://example.com/é</loc></url>')}`),
      ]),
    );
    expect(r.items).toEqual([{ loc: 'https://example.com/%C3%A9' }]);
    expect(codes(r.diagnostics)).toEqual(['bom', 'xml-declaration-misplaced']);
    expect(r.diagnostics.find((d) => d.code === 'xml-declaration-misplaced')).toMatchObject({
      line: 2,
      column: 3,
    });
  });

  it('reads UTF-16 with a BOM and a declared ISO-8859-1, with a warning', () => {
    const doc = urlset('<url><loc>https://example.com/ü</loc></url>');
    const le = new Uint8Array(2 + doc.length * 2);
    le[0] = 0xff;
    le[1] = 0xfe;
    for (let i = 0; i < doc.length; i++) {
      le[2 + i * 2] = doc.charCodeAt(i) & 0xff;
      le[3 + i * 2] = doc.charCodeAt(i) >> 8;
    }
    const r16 = parseCore(le);
    expect(r16.items).toEqual([{ loc: 'https://example.com/%C3%BC' }]);
    expect(codes(r16.diagnostics)).toEqual(['encoding-not-utf8']);

    const latin = doc.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"');
    const bytes = Uint8Array.from(latin, (c) => c.charCodeAt(0));
    const r1 = parseCore(bytes);
    expect(r1.items).toEqual([{ loc: 'https://example.com/%C3%BC' }]);
    expect(codes(r1.diagnostics)).toEqual(['encoding-not-utf8']);
  });

  it('notes invalid UTF-8 once', () => {
    const r = parseCore(
      new Uint8Array([
        ...enc(`${URLSET_OPEN}<url><loc>https://example.com/`),
        0xff,
        0xfe,
        ...enc('</loc></url></urlset>'),
      ]),
    );
    expect(r.items).toEqual([{ loc: 'https://example.com/%EF%BF%BD%EF%BF%BD' }]);
    expect(codes(r.diagnostics)).toEqual(['encoding-invalid']);
  });

  it('skips leading junk before the XML (a PHP warning) with an error', () => {
    const r = parseCore(
      `Warning: something in /var/www/x.php on line 3\n${urlset('<url><loc>https://example.com/a</loc></url>')}`,
    );
    expect(r.items).toEqual([{ loc: 'https://example.com/a' }]);
    expect(r.diagnostics.map((d) => [d.code, d.line])).toEqual([['xml-leading-junk', 1]]);
  });

  it('refuses gzip inside the document (a second layer)', () => {
    const r = parseCore(new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0]));
    expect(r.items).toEqual([]);
    expect(codes(r.diagnostics)).toEqual(['gzip-nested']);
  });

  it('reports an empty or blank document', () => {
    expect(codes(parseCore('').diagnostics)).toEqual(['document-empty']);
    expect(codes(parseCore(' \n\t ').diagnostics)).toEqual(['document-empty']);
  });

  it('stops exactly at maxBytes', () => {
    const doc = urlset(
      '<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc></url>',
    );
    const cut = doc.indexOf('</url>') + 6;
    const r = parseCore(doc, { maxBytes: cut + 5 });
    expect(r.items).toEqual([{ loc: 'https://example.com/a' }]);
    expect(codes(r.diagnostics)).toEqual(['sitemap-too-large']);
    expect(codes(parseCore(doc, { maxBytes: doc.length }).diagnostics)).toEqual([]);
  });
});

describe('refusals', () => {
  it('refuses DOCTYPE and ENTITY declarations with zero entries', () => {
    for (const doc of [
      `<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY a "b">]>${urlset('<url><loc>https://example.com/&a;</loc></url>')}`,
      `<!DOCTYPE urlset SYSTEM "http://127.0.0.1:1/x.dtd"><urlset><url><loc>https://example.com/</loc></url></urlset>`,
    ]) {
      const r = parseCore(doc);
      expect(r.items).toEqual([]);
      expect(codes(r.diagnostics)).toEqual(['xml-doctype']);
    }
  });

  it('calls HTML served as a sitemap an error, with no entries', () => {
    for (const doc of [
      '<!DOCTYPE html><html><head><title>404</title></head><body><a href="https://example.com/a">a</a></body></html>',
      '<html><body><url><loc>https://example.com/a</loc></url></body></html>',
      '  <HTML>\n<body>oops</body>',
    ]) {
      const r = parseCore(doc);
      expect(r.items, doc).toEqual([]);
      expect(codes(r.diagnostics), doc).toEqual(['html-not-sitemap']);
    }
  });

  it('calls another root element an unknown format', () => {
    const r = parseCore(
      '<?xml version="1.0"?><catalog><url><loc>https://example.com/a</loc></url></catalog>',
    );
    expect(r.items).toEqual([]);
    expect(codes(r.diagnostics)).toEqual(['format-unknown']);
  });

  it('keeps every complete entry of a truncated document and never a half-read one', () => {
    const doc = urlset(
      '<url><loc>https://example.com/a</loc></url><url><loc>https://example.com/b</loc><lastmod>2024',
    );
    for (const end of [
      doc.indexOf('</urlset>'),
      doc.indexOf('<lastmod>'),
      doc.indexOf('https://example.com/b') + 5,
    ]) {
      const r = parseCore(doc.slice(0, end));
      expect(r.items, String(end)).toEqual([{ loc: 'https://example.com/a' }]);
      expect(codes(r.diagnostics)).toEqual(['xml-truncated']);
    }
  });

  it('stops at the depth cap', () => {
    const r = parseCore(`<urlset>${'<x>'.repeat(100)}`, { maxElementDepth: 10 });
    expect(codes(r.diagnostics)).toEqual(['element-unknown', 'namespace-missing', 'xml-too-deep']);
  });
});

describe('carriage returns in values', () => {
  it('a literal CR or CRLF reads as LF; &#13; and &#xD; are real CRs (XML §2.11)', async () => {
    const { parseSitemapToArray } = await import('../../src/parser/parse-sitemap.js');
    const xml =
      '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">' +
      '<url><loc>https://example.com/v</loc><video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc>' +
      '<video:title>a&#13;b&#xD;c</video:title><video:description>one\r\ntwo\rthree&#13;\nfour</video:description>' +
      '<video:content_loc>https://example.com/v.mp4</video:content_loc></video:video></url></urlset>';
    const r = await parseSitemapToArray({ text: xml });
    const video = (r.items[0] as { videos: Array<{ title: string; description: string }> }).videos[0]!;
    expect(video.title).toBe('a\rb\rc');
    expect(video.description).toBe('one\ntwo\nthree\r\nfour');
  });
});
