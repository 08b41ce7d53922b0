import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import type { FetchLike } from '../../src/http/types.js';
import { parseRobotsTxt } from '../../src/robots/robots-txt.js';
import type { ValidateOptions } from '../../src/validate/types.js';
import { validateSitemap } from '../../src/validate/validate.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { type TestServer as Site, startServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { codesOf, NOW, urls, urlset } from './helpers.js';

const NO_NETWORK: FetchLike = async (url) => {
  throw new Error(`the network was used for ${url}`);
};

async function check(xml: string, options: ValidateOptions = {}) {
  return validateSitemap({ text: xml }, { now: () => NOW, fetch: NO_NETWORK, ...options });
}

function only(ds: readonly Diagnostic[], code: string): Diagnostic[] {
  return ds.filter((d) => d.code === code);
}

const IMG_NS = ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"';
const NEWS_NS = ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"';
const XHTML_NS = ' xmlns:xhtml="http://www.w3.org/1999/xhtml"';
const VIDEO_NS = ' xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"';

describe('quality rules (warnings)', () => {
  it('session IDs and tracking parameters, from the list shared with the crawler; other parameters are fine', async () => {
    const r = await check(
      urlset(
        urls([
          'https://example.com/a?PHPSESSID=abc',
          'https://example.com/b;jsessionid=XYZ',
          'https://example.com/c?utm_source=news&amp;id=3',
          'https://example.com/d?gclid=1',
          'https://example.com/e?page=2&amp;sort=asc',
        ]),
      ),
    );
    expect(only(r.diagnostics, 'url-session-id').map((d) => d.url)).toEqual([
      'https://example.com/a?PHPSESSID=abc',
      'https://example.com/b;jsessionid=XYZ',
    ]);
    expect(only(r.diagnostics, 'url-tracking-param').map((d) => d.message)).toEqual([
      'https://example.com/c?utm_source=news&id=3 carries the tracking parameter utm_source: list the clean URL',
      'https://example.com/d?gclid=1 carries the tracking parameter gclid: list the clean URL',
    ]);
    expect(r.summary.valid).toBe(true);
    expect(r.summary.warnings).toBe(4);
  });

  it('assets listed as pages: images, scripts, feeds and sitemaps; PDFs and pages are fine', async () => {
    const r = await check(
      urlset(
        urls([
          'https://example.com/logo.PNG',
          'https://example.com/app.js?v=3',
          'https://example.com/sitemap-2.xml',
          'https://example.com/paper.pdf',
          'https://example.com/page.html',
          'https://example.com/dir.v2/',
          'https://example.com/',
        ]),
      ),
    );
    expect(only(r.diagnostics, 'url-asset').map((d) => d.message)).toEqual([
      'https://example.com/logo.PNG is an image, not a page',
      'https://example.com/app.js?v=3 is a script or style sheet, not a page',
      'https://example.com/sitemap-2.xml is a data file, feed or sitemap, not a page',
    ]);
  });

  it('mixed hosts (www and bare) and mixed schemes: the minority is named, with a count and an example', async () => {
    const r = await check(
      urlset(
        urls([
          'https://www.example.com/a',
          'https://www.example.com/b',
          'https://www.example.com/c',
          'https://example.com/d',
          'http://www.example.com/e',
          'https://other.example.org/f',
        ]),
      ),
    );
    expect(only(r.diagnostics, 'url-mixed-host').map((d) => d.message)).toEqual([
      '1 URL(s) use example.com while 4 use www.example.com, for example https://example.com/d',
    ]);
    expect(only(r.diagnostics, 'url-mixed-scheme').map((d) => [d.message, d.line])).toEqual([
      ['1 URL(s) of www.example.com use http while 3 use https, for example http://www.example.com/e', 7],
    ]);
  });

  it('lastmod in the future (dates have a day of slack for time zones)', async () => {
    const r = await check(
      urlset(
        [
          '<url><loc>https://example.com/a</loc><lastmod>2030-01-01</lastmod></url>',
          '<url><loc>https://example.com/b</loc><lastmod>2024-08-17</lastmod></url>',
          '<url><loc>https://example.com/c</loc><lastmod>2024-08-16T12:03:00Z</lastmod></url>',
          '<url><loc>https://example.com/d</loc><lastmod>2024-08-16T13:00:00Z</lastmod></url>',
        ].join('\n'),
      ),
    );
    expect(only(r.diagnostics, 'lastmod-future').map((d) => d.url)).toEqual([
      'https://example.com/a',
      'https://example.com/d',
    ]);
  });

  it('all lastmods identical (10 or more), reported once for the file', async () => {
    const ten = Array.from(
      { length: 10 },
      (_, i) => `<url><loc>https://example.com/${i}</loc><lastmod>2023-05-01</lastmod></url>`,
    );
    const r = await check(urlset(ten.join('\n')));
    expect(only(r.diagnostics, 'lastmod-identical').map((d) => d.message)).toEqual([
      'all 10 lastmods are 2023-05-01',
    ]);
    const nine = await check(urlset(ten.slice(1).join('\n')));
    expect(codesOf(nine.diagnostics)).toEqual([]);
    const varied = await check(
      urlset([...ten, '<url><loc>https://example.com/x</loc><lastmod>2023-05-02</lastmod></url>'].join('\n')),
    );
    expect(codesOf(varied.diagnostics)).toEqual([]);
  });

  it("lastmods stamped with the file's generation time (its modification time)", async () => {
    const dir = tempDir('sk-validate');
    const path = join(dir, 'sitemap.xml');
    const t = Date.parse('2024-06-01T10:00:00Z');
    const body = Array.from(
      { length: 12 },
      (_, i) =>
        `<url><loc>https://example.com/${i}</loc><lastmod>${new Date(t - 30_000 + i * 2000).toISOString().slice(0, 19)}Z</lastmod></url>`,
    );
    writeFileSync(path, urlset(body.join('\n')));
    utimesSync(path, t / 1000, t / 1000);
    const r = await validateSitemap(path, { now: () => NOW, fetch: NO_NETWORK });
    const found = only(r.diagnostics, 'lastmod-generation-time');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain('all 12 lastmods are the time the file was generated');
    expect(found[0]!.message).toContain('the file was modified 2024-06-01T10:00:00Z');
    expect(codesOf(r.diagnostics)).toEqual(['lastmod-generation-time']);
    // A month later the same lastmods are just lastmods.
    utimesSync(path, t / 1000 + 30 * 86_400, t / 1000 + 30 * 86_400);
    const later = await validateSitemap(path, { now: () => NOW, fetch: NO_NETWORK });
    expect(codesOf(later.diagnostics)).toEqual([]);
  });

  it('news older than two days, and more than 1,000 news entries in a file', async () => {
    const news = (i: number, date: string): string =>
      `<url><loc>https://example.com/n${i}</loc><news:news><news:publication><news:name>Daily</news:name><news:language>en</news:language></news:publication><news:publication_date>${date}</news:publication_date><news:title>T ${i}</news:title></news:news></url>`;
    const r = await check(
      urlset([news(1, '2024-08-16T08:00:00Z'), news(2, '2024-08-10')].join('\n'), NEWS_NS),
    );
    expect(only(r.diagnostics, 'news-too-old').map((d) => d.url)).toEqual(['https://example.com/n2']);
    const many = await check(
      urlset(Array.from({ length: 1001 }, (_, i) => news(i, '2024-08-16')).join('\n'), NEWS_NS),
    );
    expect(codesOf(many.diagnostics)).toEqual(['news-too-many']);
  });

  it('more than 1,000 images in one URL, and tags Google dropped in 2022 (once per tag and file, counted)', async () => {
    const images = Array.from(
      { length: 1001 },
      (_, i) => `<image:image><image:loc>https://example.com/i${i}.png</image:loc></image:image>`,
    );
    const r = await check(urlset(`<url><loc>https://example.com/g</loc>${images.join('')}</url>`, IMG_NS));
    expect(only(r.diagnostics, 'too-many-children')).toHaveLength(1);
    expect(only(r.diagnostics, 'too-many-children')[0]!.severity).toBe('warning');
    const legacy = await check(
      urlset(
        urls(
          ['https://example.com/1', 'https://example.com/2'],
          '<image:image><image:loc>https://example.com/i.png</image:loc><image:caption>c</image:caption><image:title>t</image:title></image:image>',
        ),
        IMG_NS,
      ),
    );
    expect(only(legacy.diagnostics, 'legacy-tag').map((d) => d.message)).toEqual([
      'image:caption is used 2 times; Google dropped it in 2022 and ignores it',
      'image:title is used 2 times; Google dropped it in 2022 and ignores it',
    ]);
  });

  it('priority and changefreq: one note per sitemap, with a count', async () => {
    const r = await check(
      urlset(
        urls(
          ['https://example.com/1', 'https://example.com/2'],
          '<changefreq>daily</changefreq><priority>0.5</priority>',
        ),
      ),
    );
    expect(r.rules.map((x) => [x.code, x.severity, x.count])).toEqual([
      ['changefreq-ignored', 'info', 1],
      ['priority-ignored', 'info', 1],
    ]);
    expect(only(r.diagnostics, 'priority-ignored')[0]!.message).toBe(
      '2 URLs carry <priority>, which Google ignores',
    );
  });
});

describe('protocol and extension rules the parser does not check', () => {
  it('hreflang: a reciprocal group passes; a missing return link, a missing self-reference and a bad code are errors', async () => {
    const link = (lang: string, href: string): string =>
      `<xhtml:link rel="alternate" hreflang="${lang}" href="${href}"/>`;
    const good = await check(
      urlset(
        [
          `<url><loc>https://example.com/en</loc>${link('en', 'https://example.com/en')}${link('de', 'https://example.com/de')}</url>`,
          `<url><loc>https://example.com/de</loc>${link('en', 'https://example.com/en')}${link('de', 'https://example.com/de')}</url>`,
        ].join('\n'),
        XHTML_NS,
      ),
    );
    expect(codesOf(good.diagnostics)).toEqual([]);
    const bad = await check(
      urlset(
        [
          `<url><loc>https://example.com/en</loc>${link('en', 'https://example.com/en')}${link('fr', 'https://example.com/fr')}${link('es', 'https://example.com/es')}</url>`,
          `<url><loc>https://example.com/fr</loc>${link('fr', 'https://example.com/fr')}</url>`,
          `<url><loc>https://example.com/it</loc>${link('en', 'https://example.com/en')}</url>`,
          `<url><loc>https://example.com/xx</loc>${link('english', 'https://example.com/xx')}</url>`,
        ].join('\n'),
        XHTML_NS,
      ),
    );
    const reciprocal = only(bad.diagnostics, 'hreflang-not-reciprocal');
    expect(reciprocal.map((d) => [d.url, d.line])).toEqual([
      ['https://example.com/en', 3],
      ['https://example.com/it', 5],
    ]);
    expect(reciprocal[0]!.message).toBe(
      'https://example.com/fr (fr) does not list this page back; https://example.com/es (es) is not listed with alternates of its own',
    );
    expect(only(bad.diagnostics, 'hreflang-missing-self').map((d) => d.url)).toEqual([
      'https://example.com/it',
    ]);
    expect(only(bad.diagnostics, 'hreflang-invalid').map((d) => [d.url, d.field])).toEqual([
      ['https://example.com/xx', 'alternates[0].hreflang'],
    ]);
    for (const d of bad.diagnostics) expect(d.severity).toBe('error');
    // An alternate on a host no checked page is on is its own site's business, listed in its own
    // sitemap: not one-sided here (the writer writes such groups, and its output must pass).
    const otherHost = await check(
      urlset(
        [
          `<url><loc>https://example.com/en</loc>${link('en', 'https://example.com/en')}${link('de', 'https://example.de/de')}</url>`,
          `<url><loc>https://example.com/fr</loc>${link('fr', 'https://example.com/fr')}${link('es', 'https://example.com/es')}</url>`,
        ].join('\n'),
        XHTML_NS,
      ),
    );
    expect(only(otherHost.diagnostics, 'hreflang-not-reciprocal').map((d) => d.message)).toEqual([
      'https://example.com/es (es) is not listed with alternates of its own',
    ]);
  });

  it("video and news field rules of the writer's normalisation (title length, language)", async () => {
    const r = await check(
      urlset(
        `<url><loc>https://example.com/v</loc><video:video><video:thumbnail_loc>https://example.com/t.jpg</video:thumbnail_loc><video:title>${'x'.repeat(101)}</video:title><video:description>d</video:description><video:content_loc>https://example.com/v.mp4</video:content_loc></video:video><news:news><news:publication><news:name>N</news:name><news:language>english</news:language></news:publication><news:publication_date>2024-08-16</news:publication_date><news:title>T</news:title></news:news></url>`,
        VIDEO_NS + NEWS_NS,
      ),
    );
    expect(r.diagnostics.map((d) => [d.code, d.field, d.severity])).toEqual([
      ['video-invalid', 'videos[0].title', 'error'],
      ['news-invalid', 'news.publication.language', 'error'],
    ]);
  });

  it('the location rule for a local file given its public URL; allowHosts honoured', async () => {
    const xml = urlset(
      urls(['https://example.com/shop/a', 'https://example.com/blog/b', 'https://cdn.example.net/shop/c']),
    );
    const r = await check(xml, { sitemapUrl: 'https://example.com/shop/sitemap.xml', robots: false });
    expect(only(r.diagnostics, 'url-outside-location').map((d) => [d.url, d.severity])).toEqual([
      ['https://example.com/blog/b', 'error'],
      ['https://cdn.example.net/shop/c', 'error'],
    ]);
    const allowed = await check(xml, {
      sitemapUrl: 'https://example.com/shop/sitemap.xml',
      allowHosts: ['cdn.example.net'],
      robots: false,
    });
    expect(only(allowed.diagnostics, 'url-outside-location').map((d) => d.url)).toEqual([
      'https://example.com/blog/b',
    ]);
  });

  it('a declared encoding other than UTF-8 is an error', async () => {
    const bytes = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/caf\xe9</loc></url></urlset>',
      'latin1',
    );
    const r = await validateSitemap(bytes, { now: () => NOW });
    expect(codesOf(r.diagnostics, 'error')).toEqual(['encoding-not-utf8']);
  });

  it('an index listing itself is an error even without --recursive; its children are noted as not followed', async () => {
    const xml =
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/sitemap_index.xml</loc></sitemap><sitemap><loc>https://example.com/s1.xml</loc></sitemap></sitemapindex>';
    const r = await check(xml, { sitemapUrl: 'https://example.com/sitemap_index.xml', robots: false });
    expect(r.rules.map((x) => [x.code, x.severity])).toEqual([
      ['index-cycle', 'error'],
      ['index-not-followed', 'info'],
    ]);
  });
});

describe('robots.txt', () => {
  const robotsText =
    'User-agent: *\nDisallow: /tmp/\n\nUser-agent: Googlebot\nDisallow: /private/\nAllow: /private/ok\n\nSitemap: https://example.com/sitemap.xml\n';
  const xml = urlset(
    urls(['https://example.com/private/x', 'https://example.com/private/ok', 'https://example.com/tmp/y']),
  );

  it('URLs disallowed for the chosen agent, with the deciding line; the sitemap named by a Sitemap: line', async () => {
    const dir = tempDir('sk-validate');
    const robots = join(dir, 'robots.txt');
    writeFileSync(robots, robotsText);
    const r = await check(xml, { robots, sitemapUrl: 'https://example.com/sitemap.xml' });
    expect(
      only(r.diagnostics, 'robots-sitemap-disallowed').map((d) => [d.url, d.message, d.line, d.severity]),
    ).toEqual([
      [
        'https://example.com/private/x',
        `https://example.com/private/x is disallowed for Googlebot by Disallow: /private/ (${robots} line 5)`,
        3,
        'warning',
      ],
    ]);
    expect(only(r.diagnostics, 'sitemap-not-in-robots')).toEqual([]);
    const bing = await check(xml, {
      robots,
      sitemapUrl: 'https://example.com/sitemap.xml',
      agent: 'Bingbot',
    });
    expect(only(bing.diagnostics, 'robots-sitemap-disallowed').map((d) => d.url)).toEqual([
      'https://example.com/tmp/y',
    ]);
  });

  it('a sitemap that robots.txt does not name', async () => {
    const r = await check(xml, {
      robots: parseRobotsTxt(robotsText),
      sitemapUrl: 'https://example.com/other-sitemap.xml',
    });
    const d = only(r.diagnostics, 'sitemap-not-in-robots');
    expect(d.map((x) => x.message)).toEqual([
      '<robots.txt> does not name https://example.com/other-sitemap.xml (it lists https://example.com/sitemap.xml)',
    ]);
  });

  describe('fetched with the sitemap, with RFC 9309 statuses', () => {
    let site: Site;
    beforeAll(async () => {
      site = await startServer();
    });
    afterAll(() => site.close());

    it('5xx: an error (crawlers disallow everything), and no per-URL verdicts', async () => {
      site.route('/sitemap.xml', {
        headers: { 'content-type': 'application/xml' },
        body: urlset(urls([`${site.origin}/a`])),
      });
      site.route('/robots.txt', { status: 503 });
      const r = await validateSitemap(`${site.origin}/sitemap.xml`, { now: () => NOW });
      expect(r.rules.map((x) => [x.code, x.severity])).toEqual([['robots-unreachable', 'error']]);
    });

    it('404: a note (everything allowed), and the sitemap is not named', async () => {
      site.route('/robots.txt', { status: 404 });
      const r = await validateSitemap(`${site.origin}/sitemap.xml`, { now: () => NOW });
      expect(r.rules.map((x) => x.code)).toEqual(['sitemap-not-in-robots', 'robots-unavailable']);
      expect(r.settings.robots).toBe(`${site.origin}/robots.txt`);
    });

    it('--robots false: not read at all', async () => {
      const before = site.requests.length;
      const r = await validateSitemap(`${site.origin}/sitemap.xml`, { now: () => NOW, robots: false });
      expect(r.rules).toEqual([]);
      expect(site.requests.slice(before).map((x) => x.path)).toEqual(['/sitemap.xml']);
    });
  });
});

describe('trees', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startServer();
    const xml = { 'content-type': 'application/xml' };
    const o = site.origin;
    site.route('/robots.txt', {
      body: `Sitemap: ${o}/index.xml\n`,
      headers: { 'content-type': 'text/plain' },
    });
    site.route('/index.xml', {
      headers: xml,
      body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${o}/a.xml</loc><lastmod>2024-05-05T05:05:05Z</lastmod></sitemap><sitemap><loc>${o}/b.xml</loc></sitemap><sitemap><loc>${o}/nested.xml</loc></sitemap><sitemap><loc>${o}/index.xml</loc></sitemap></sitemapindex>`,
    });
    site.route('/a.xml', {
      headers: xml,
      body: urlset(
        Array.from(
          { length: 11 },
          (_, i) => `<url><loc>${o}/p${i}</loc><lastmod>2024-05-05T05:0${i % 5}:00Z</lastmod></url>`,
        ).join('\n'),
      ),
    });
    site.route('/b.xml', { headers: xml, body: urlset(urls([`${o}/p3`, `${o}/q`, `${o}/q`])) });
    site.route('/nested.xml', {
      headers: xml,
      body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${o}/c.xml</loc></sitemap></sitemapindex>`,
    });
    site.route('/c.xml', { headers: xml, body: urlset(urls([`${o}/r`])) });
  });
  afterAll(() => site.close());

  it('duplicates within and across files, nested and self-listing indexes, and the index lastmod as a generation time', async () => {
    const r = await validateSitemap(`${site.origin}/index.xml`, { recursive: true, now: () => NOW });
    const o = site.origin;
    expect(only(r.diagnostics, 'url-duplicate').map((d) => [d.url, d.sitemap])).toEqual([
      [`${o}/p3`, `${o}/b.xml`],
      [`${o}/q`, `${o}/b.xml`],
    ]);
    expect(only(r.diagnostics, 'index-nested').map((d) => [d.sitemap, d.severity])).toEqual([
      [`${o}/nested.xml`, 'error'],
    ]);
    expect(only(r.diagnostics, 'index-cycle').map((d) => d.severity)).toEqual(['error']);
    expect(only(r.diagnostics, 'lastmod-generation-time').map((d) => d.sitemap)).toEqual([`${o}/a.xml`]);
    expect(only(r.diagnostics, 'lastmod-generation-time')[0]!.message).toContain(
      'its index gives lastmod 2024-05-05T05:05:05Z',
    );
    expect(r.summary).toMatchObject({ sitemaps: 5, urls: 15, valid: false });
    expect(only(r.diagnostics, 'sitemap-not-in-robots')).toEqual([]);
    expect(r.perSitemap[`${o}/b.xml`]).toEqual({ 'url-duplicate': 2 });
  });

  it("a local tree before deploy: children under the index's folder URL are read from disk, never fetched", async () => {
    const dir = tempDir('sk-validate-tree');
    const entries = Array.from({ length: 120 }, (_, i) => ({
      loc: `https://example.com/p/${i}`,
      lastmod: `2024-01-${String(1 + (i % 28)).padStart(2, '0')}`,
    }));
    entries.push({ loc: 'https://example.com/p/7', lastmod: '2024-01-01' });
    await writeSitemaps(entries.slice(0, 120), {
      outDir: dir,
      baseUrl: 'https://example.com/',
      maxUrlsPerFile: 50,
    });
    const r = await validateSitemap(join(dir, 'sitemap.xml'), {
      recursive: true,
      sitemapUrl: 'https://example.com/sitemap.xml',
      fetch: NO_NETWORK,
      now: () => NOW,
    });
    expect(r.summary).toMatchObject({ errors: 0, warnings: 0, sitemaps: 4, urls: 120, valid: true });
    expect(
      r.sitemaps
        .map((s) => s.sitemap)
        .slice(1)
        .sort(),
    ).toEqual([
      'https://example.com/sitemap-00001.xml',
      'https://example.com/sitemap-00002.xml',
      'https://example.com/sitemap-00003.xml',
    ]);
  });

  it('a gzip tree on disk reads the same', async () => {
    const dir = tempDir('sk-validate-tree');
    const entries = Array.from({ length: 30 }, (_, i) => ({ loc: `https://example.com/g/${i}` }));
    const w = await writeSitemaps(entries, {
      outDir: dir,
      baseUrl: 'https://example.com/',
      maxUrlsPerFile: 10,
      gzip: true,
    });
    const r = await validateSitemap(w.entry.path, {
      recursive: true,
      sitemapUrl: w.entry.url,
      fetch: NO_NETWORK,
      now: () => NOW,
    });
    expect(r.summary).toMatchObject({ errors: 0, warnings: 0, sitemaps: 4, urls: 30 });
    expect(r.sitemaps.every((s) => s.gzip)).toBe(true);
  });

  it('a child missing on disk is a fetch-status error naming it', async () => {
    const dir = tempDir('sk-validate-tree');
    writeFileSync(
      join(dir, 'sitemap.xml'),
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/gone.xml</loc></sitemap></sitemapindex>',
    );
    const r = await validateSitemap(join(dir, 'sitemap.xml'), {
      recursive: true,
      sitemapUrl: 'https://example.com/sitemap.xml',
      fetch: NO_NETWORK,
    });
    expect(r.diagnostics.map((d) => [d.code, d.sitemap])).toEqual([
      ['fetch-status', 'https://example.com/gone.xml'],
    ]);
  });
});

describe('settings', () => {
  const xml = urlset(urls(['https://example.com/a?utm_source=x', 'https://example.com/a?utm_source=x']));

  it('rules change severities or turn rules off; disable turns them off', async () => {
    const r = await check(xml, { rules: { 'url-duplicate': 'error', 'url-tracking-param': 'off' } });
    expect(r.rules.map((x) => [x.code, x.severity, x.count])).toEqual([['url-duplicate', 'error', 1]]);
    expect(r.summary.valid).toBe(false);
    const off = await check(xml, { disable: ['url-duplicate', 'url-tracking-param'] });
    expect(off.rules).toEqual([]);
  });

  it('an unknown rule code is refused with a suggestion', async () => {
    const e = await check(xml, { disable: ['url-duplicates'] }).catch((x: unknown) => x);
    expect(isSitemapkitError(e, 'ERR_OPTIONS')).toBe(true);
    expect((e as Error).message).toBe('disable: "url-duplicates" is not a rule code');
    expect((e as { hint: string }).hint).toContain('url-duplicate');
  });

  it('keeps at most maxPerRule findings per rule and counts them all', async () => {
    const many = urlset(urls(Array.from({ length: 30 }, () => 'https://example.com/same')));
    const r = await check(many, { maxPerRule: 5 });
    expect(only(r.diagnostics, 'url-duplicate')).toHaveLength(5);
    expect(r.rules).toEqual([expect.objectContaining({ code: 'url-duplicate', count: 29 })]);
    expect(r.summary.warnings).toBe(29);
  });

  it('counts the findings the parser stopped itemising after 100 per file', async () => {
    const many = urlset(
      urls(
        Array.from({ length: 150 }, (_, i) => `https://example.com/${i}`),
        '<priority>2</priority>',
      ),
    );
    const r = await check(many);
    expect(r.rules.find((x) => x.code === 'priority-invalid')).toMatchObject({
      severity: 'error',
      count: 150,
    });
    expect(only(r.diagnostics, 'priority-invalid')).toHaveLength(100);
    expect(r.summary.errors).toBe(150);
  });
});

describe('unknown elements', () => {
  it('in the sitemap namespace: an error (the XSD rejects it); in a namespace of its own: an extension, noted', async () => {
    const r = await check(
      urlset(
        '<url><loc>https://example.com/a</loc><weight>3</weight><shop:price xmlns:shop="https://shop.example/ns">3</shop:price></url>',
      ),
    );
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.message])).toEqual([
      ['element-unknown', 'error', '<weight> is not an element of this format; ignored'],
      ['element-extension', 'info', '<shop:price> (namespace "https://shop.example/ns") is not read'],
    ]);
  });
});
