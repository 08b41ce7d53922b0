import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { parseSitemapTree } from '../../src/parser/tree.js';
import { readSitemaps } from '../../src/sources/existing-sitemaps.js';
import { cli } from '../support/cli.js';
import { type Answer, gzipFile, serveFolder, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { xmllint } from '../support/xmllint.js';
import { all, failure } from './helpers.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

const xml = (body: string): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/xml' },
  body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
});
const URLSET =
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">';

/** A site whose index lists a urlset, a gzip child, a text sitemap, an RSS feed and a child that is gone. */
async function site(): Promise<TestServer> {
  const s = await startServer();
  servers.push(s);
  const o = s.origin;
  s.route(
    '/sitemap_index.xml',
    xml(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>${o}/pages.xml</loc></sitemap>
  <sitemap><loc>${o}/more.xml.gz</loc></sitemap>
  <sitemap><loc>${o}/list.txt</loc></sitemap>
  <sitemap><loc>${o}/feed.rss</loc></sitemap>
  <sitemap><loc>${o}/gone.xml</loc></sitemap>
</sitemapindex>`),
  );
  s.route(
    '/pages.xml',
    xml(`${URLSET}
  <url><loc>${o}/</loc><lastmod>2026-11-01</lastmod><changefreq>daily</changefreq><priority>0.9</priority>
    <image:image><image:loc>${o}/hero.jpg</image:loc></image:image>
    <xhtml:link rel="alternate" hreflang="en" href="${o}/"/>
    <xhtml:link rel="alternate" hreflang="de" href="${o}/de/"/>
  </url>
  <url><loc>${o}/de/</loc>
    <xhtml:link rel="alternate" hreflang="en" href="${o}/"/>
    <xhtml:link rel="alternate" hreflang="de" href="${o}/de/"/>
  </url>
  <url><loc>${o}/app</loc><xhtml:link rel="alternate" href="android-app://com.example/http/example.com/app"/></url>
</urlset>`),
  );
  s.route(
    '/more.xml.gz',
    gzipFile(
      `<?xml version="1.0"?>\n${URLSET}<url><loc>${o}/b</loc></url><url><loc>${o}/</loc></url></urlset>`,
    ),
  );
  s.route('/list.txt', { status: 200, headers: { 'content-type': 'text/plain' }, body: `${o}/c\n${o}/d\n` });
  s.route(
    '/feed.rss',
    xml(`<rss version="2.0"><channel><title>News</title><link>${o}/</link>
  <item><title>E</title><link>${o}/e</link><pubDate>Tue, 03 Nov 2026 10:00:00 GMT</pubDate></item>
</channel></rss>`),
  );
  return s;
}

describe('readSitemaps', () => {
  it('an index tree with gzip, text and feed children: every entry with its fields; a gone child is an error diagnostic naming it', async () => {
    const s = await site();
    const o = s.origin;
    const diagnostics: Diagnostic[] = [];
    const read = readSitemaps(`${o}/sitemap_index.xml`, { onDiagnostic: (d) => diagnostics.push(d) });
    const records = JSON.parse(JSON.stringify(await all(read))) as Array<Record<string, unknown>>;
    const byLoc = new Map(records.map((r) => [r['loc'] as string, r]));
    expect([...byLoc.keys()].sort()).toEqual(
      [`${o}/`, `${o}/de/`, `${o}/app`, `${o}/b`, `${o}/c`, `${o}/d`, `${o}/e`].sort(),
    );
    expect(records).toHaveLength(7);
    expect(byLoc.get(`${o}/`)).toEqual({
      loc: `${o}/`,
      lastmod: '2026-11-01',
      changefreq: 'daily',
      priority: 0.9,
      images: [{ loc: `${o}/hero.jpg` }],
      alternates: [
        { hreflang: 'en', href: `${o}/` },
        { hreflang: 'de', href: `${o}/de/` },
      ],
    });
    expect(byLoc.get(`${o}/e`)).toMatchObject({ lastmod: '2026-11-03T10:00:00Z' });
    expect(read.result).toEqual({ sitemaps: 6, errors: 1, entries: 7, duplicates: 1 });
    const gone = diagnostics.find((d) => d.severity === 'error');
    expect(gone).toMatchObject({ code: 'fetch-status', sitemap: `${o}/gone.xml` });
    expect(diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining(['fetch-status', 'url-duplicate', 'entry-unknown-field']),
    );
    expect(diagnostics.find((d) => d.code === 'url-duplicate')!.message).toContain(
      '1 URL was listed more than once',
    );
  });

  it('the address policy applies as in parse: strict refuses a loopback sitemap before any request', async () => {
    const s = await site();
    const e = await failure(all(readSitemaps(`${s.origin}/sitemap_index.xml`, { addressPolicy: 'strict' })));
    expect(e.code).toBe('ERR_HTTP');
    expect(s.requests).toEqual([]);
    const r = await cli([
      'generate',
      '--from-sitemap',
      `${s.origin}/sitemap_index.xml`,
      '--strict-addresses',
      '--base-url',
      s.url,
      '--out',
      join(tempDir(), 'out'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(s.origin);
    expect(s.requests).toEqual([]);
  });
});

describe('generate --from-sitemap', () => {
  it('a partial migration writes what could be read and exits 1, naming the child that failed', async () => {
    const s = await site();
    const out = join(tempDir(), 'out');
    const r = await cli([
      'generate',
      '--from-sitemap',
      `${s.origin}/sitemap_index.xml`,
      '--base-url',
      s.url,
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain(`${s.origin}/gone.xml: error fetch-status`);
    expect(r.stdout).toContain('Wrote 7 URLs');
    expect(r.stdout).toContain(
      'existing sitemaps: 6 read, 7 URLs; 1 error (see above): the migration is partial',
    );
    expect(xmllint(join(out, 'sitemap.xml')).ok).toBe(true);
  });

  it("a URL outside its old sitemap's folder is taken over: a warning, and the migration is whole (exit 0)", async () => {
    const s = await startServer();
    servers.push(s);
    s.route(
      '/blog/sitemap.xml',
      xml(
        `${URLSET}<url><loc>${s.origin}/blog/a</loc></url><url><loc>${s.origin}/about</loc></url></urlset>`,
      ),
    );
    const out = join(tempDir(), 'out');
    const r = await cli([
      'generate',
      '--from-sitemap',
      `${s.origin}/blog/sitemap.xml`,
      '--base-url',
      s.url,
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`${s.origin}/blog/sitemap.xml:2:`);
    expect(r.stderr).not.toContain('Move the sitemap');
    expect(r.stderr).toContain(
      `warning url-outside-location (loc): "${s.origin}/about" is outside ${s.origin}/blog/`,
    );
    expect(r.stderr).toContain(
      '(in the old set; the entry was taken over and is judged against the new base URL)',
    );
    expect(r.stdout).toContain('existing sitemaps: 1 read, 2 URLs\n');
    expect(r.stdout).not.toContain('partial');
    const lint = xmllint(join(out, 'sitemap.xml'));
    expect(lint.ok, lint.output).toBe(true);
  });

  it('round trip: generate → from-sitemap → generate gives the same entries (an index tree, images, video, news, alternates)', async () => {
    const dir = tempDir();
    const first = join(dir, 'first');
    const second = join(dir, 'second');
    // One site, whose folder is the first output, then the second: the second set's URLs are on
    // the same origin as the first's.
    let root = first;
    const a = await startServer({}, { fallback: (req, res, ctx) => serveFolder(root)(req, res, ctx) });
    servers.push(a);
    const base = a.url;
    const now = new Date().toISOString().slice(0, 19);
    const entries = Array.from({ length: 7 }, (_, i) => ({
      loc: `${base}p/${i}`,
      ...(i % 2 === 0 && { lastmod: `2026-10-0${i + 1}T12:00:00Z` }),
      ...(i === 1 && {
        changefreq: 'weekly',
        priority: 0.3,
        images: [`${base}img/1.jpg`, `${base}img/2.jpg`],
      }),
      ...(i === 2 && {
        news: { publication: { name: 'Ex', language: 'en' }, publication_date: `${now}Z`, title: 'T' },
      }),
      ...(i === 3 && {
        videos: [
          {
            thumbnail_loc: `${base}t.jpg`,
            title: 'V',
            description: 'D',
            content_loc: `${base}v.mp4`,
            duration: 60,
          },
        ],
      }),
      ...((i === 4 || i === 5) && {
        alternates: [
          { hreflang: 'en', href: `${base}p/4` },
          { hreflang: 'de', href: `${base}p/5` },
        ],
      }),
    }));
    const input = join(dir, 'pages.jsonl');
    writeFileSync(input, entries.map((e) => JSON.stringify(e)).join('\n'));
    // Three URLs a file: an index with three children.
    const one = await cli([
      'generate',
      input,
      '--base-url',
      base,
      '--out',
      first,
      '--max-urls',
      '3',
      '--gzip',
    ]);
    expect(one.code, one.stderr).toBe(0);
    const two = await cli([
      'generate',
      '--from-sitemap',
      `${base}sitemap.xml.gz`,
      '--base-url',
      base,
      '--out',
      second,
      '--max-urls',
      '3',
    ]);
    expect(two.code, two.stderr).toBe(0);
    const read = async (index: string): Promise<unknown[]> =>
      (await all(parseSitemapTree(index)))
        .map(({ sitemap: _s, ...e }) => e)
        .sort((x, y) => (x.loc < y.loc ? -1 : 1));
    const before = await read(`${base}sitemap.xml.gz`);
    expect(before).toHaveLength(7);
    for (const field of ['"lastmod"', '"changefreq"', '"images"', '"videos"', '"news"', '"alternates"'])
      expect(JSON.stringify(before)).toContain(field);
    root = second;
    expect(await read(`${base}sitemap.xml`)).toEqual(before);
    for (const f of ['sitemap.xml', 'sitemap-00001.xml', 'sitemap-00003.xml'])
      expect(xmllint(join(second, f)).ok, f).toBe(true);
  });
});
