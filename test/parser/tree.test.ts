import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { discoverSitemaps } from '../../src/parser/discover.js';
import { parseSitemap, parseSitemapToArray } from '../../src/parser/parse-sitemap.js';
import { parseSitemapTree } from '../../src/parser/tree.js';
import type { TreeEntry, TreeOptions } from '../../src/parser/types.js';
import {
  body,
  cut,
  gzipFile,
  gzipTransfer,
  redirect,
  slow,
  startServer,
  type TestServer,
} from '../support/http-server.js';
import { indexOf, urlsetOf } from './helpers.js';

const servers: TestServer[] = [];
async function server(): Promise<TestServer> {
  const s = await startServer({}, { keepAlive: false });
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function walk(
  roots: string | string[],
  options: TreeOptions = {},
): Promise<{ entries: TreeEntry[]; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const entries: TreeEntry[] = [];
  for await (const e of parseSitemapTree(roots, { ...options, onDiagnostic: (d) => diagnostics.push(d) }))
    entries.push(e);
  return { entries, diagnostics };
}

const locs = (entries: readonly TreeEntry[]): string[] => entries.map((e) => e.loc).sort();
const pick = (ds: readonly Diagnostic[]): Array<[string, string | undefined]> =>
  ds
    .map((d): [string, string | undefined] => [d.code, d.sitemap])
    .sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));

describe('parseSitemapTree over a real HTTP server', () => {
  it('isolates failures: broken, gzip, failing and slow children; the others still yield', async () => {
    const s = await server();
    const o = s.origin;
    const good = urlsetOf([`${o}/a`, `${o}/b`]);
    s.route(
      '/index.xml',
      body(
        indexOf(
          ['good', 'gz', 'te', 'broken', 'missing', 'error', 'reset', 'slow', 'html'].map(
            (n) => `${o}/${n}.xml`,
          ),
        ),
      ),
    );
    s.route('/good.xml', body(good));
    s.route('/gz.xml', gzipFile(urlsetOf([`${o}/gz1`, `${o}/gz2`])));
    s.route('/te.xml', gzipTransfer(urlsetOf([`${o}/te1`])));
    s.route('/broken.xml', body(`${urlsetOf([`${o}/br1`, `${o}/br2`]).slice(0, -40)}`));
    s.route('/error.xml', body('oops', {}, 500));
    s.route('/reset.xml', cut(urlsetOf([`${o}/r1`, `${o}/r2`, `${o}/r3`]), 180));
    // Slow past any timeout; the others get a timeout no loaded machine reaches (1 s did).
    s.route('/slow.xml', slow(120_000, body(urlsetOf([`${o}/never`]))));
    s.route(
      '/html.xml',
      body('<!DOCTYPE html><html><body>Not found</body></html>', { 'content-type': 'text/html' }),
    );
    const { entries, diagnostics } = await walk(`${o}/index.xml`, { timeoutMs: 8_000 });
    expect(locs(entries)).toEqual(
      [`${o}/a`, `${o}/b`, `${o}/br1`, `${o}/gz1`, `${o}/gz2`, `${o}/r1`, `${o}/te1`].sort(),
    );
    expect(entries.find((e) => e.loc === `${o}/gz1`)?.sitemap).toBe(`${o}/gz.xml`);
    expect(pick(diagnostics)).toEqual(
      pick([
        { code: 'fetch-failed', sitemap: `${o}/reset.xml` },
        { code: 'fetch-failed', sitemap: `${o}/slow.xml` },
        { code: 'fetch-status', sitemap: `${o}/error.xml` },
        { code: 'fetch-status', sitemap: `${o}/missing.xml` },
        { code: 'html-not-sitemap', sitemap: `${o}/html.xml` },
        { code: 'xml-truncated', sitemap: `${o}/broken.xml` },
      ] as Diagnostic[]),
    );
    const slowDiag = diagnostics.find((d) => d.sitemap === `${o}/slow.xml`)!;
    expect(slowDiag.message).toMatch(/within 8000 ms/);
    expect(diagnostics.find((d) => d.sitemap === `${o}/missing.xml`)!.message).toMatch(/HTTP 404.*listed in/);
  });

  it('reports a self-listing index and reads everything once', async () => {
    const s = await server();
    const o = s.origin;
    s.route('/index.xml', body(indexOf([`${o}/index.xml`, `${o}/a.xml`, `${o}/a.xml`])));
    s.route('/a.xml', body(urlsetOf([`${o}/1`])));
    const { entries, diagnostics } = await walk(`${o}/index.xml`);
    expect(locs(entries)).toEqual([`${o}/1`]);
    expect(diagnostics.map((d) => d.code).sort()).toEqual(['index-cycle', 'index-duplicate']);
    expect(s.requests.map((r) => r.path).sort()).toEqual(['/a.xml', '/index.xml']);
  });

  it('detects a cycle through a parent and through a redirect', async () => {
    const s = await server();
    const o = s.origin;
    s.route('/index.xml', body(indexOf([`${o}/child-index.xml`])));
    s.route('/child-index.xml', body(indexOf([`${o}/index.xml`, `${o}/hop.xml`, `${o}/leaf.xml`])));
    s.route('/hop.xml', redirect(`${o}/index.xml`));
    s.route('/leaf.xml', body(urlsetOf([`${o}/leaf`])));
    const { entries, diagnostics } = await walk(`${o}/index.xml`);
    expect(locs(entries)).toEqual([`${o}/leaf`]);
    expect(diagnostics.map((d) => d.code).sort()).toEqual(['index-cycle', 'index-cycle', 'index-nested']);
    const viaRedirect = diagnostics.find((d) => d.message.includes('redirects'))!;
    expect(viaRedirect.message).toContain(`${o}/hop.xml redirects to ${o}/index.xml`);
    expect(s.requests.filter((r) => r.path === '/index.xml')).toHaveLength(2);
  });

  it('sends the User-Agent with every request, and the headers only to the origin they were given for', async () => {
    const site = await server();
    const other = await server();
    const o = site.origin;
    site.route('/index.xml', body(indexOf([`${o}/a.xml`])));
    site.route('/a.xml', redirect(`${o}/b.xml`));
    site.route('/b.xml', body(urlsetOf([`${o}/1`, `${other.origin}/x`])));
    const { entries, diagnostics } = await walk(`${o}/index.xml`, {
      headers: { 'X-Token': 'secret' },
      userAgent: 'TestBot/1.0',
    });
    expect(entries).toHaveLength(2);
    expect(diagnostics.map((d) => d.code)).toEqual(['url-outside-location']);
    const all = [...site.requests, ...other.requests];
    expect(all.map((r) => r.path).sort()).toEqual(['/a.xml', '/b.xml', '/index.xml', '/robots.txt']);
    for (const r of all) expect(r.headers['user-agent'], r.path).toBe('TestBot/1.0');
    // Issue 10: custom headers and credentials stay on their origin (the other host's robots.txt
    // is read for a cross-submit check and must not receive the token).
    for (const r of site.requests) expect(r.headers['x-token'], r.path).toBe('secret');
    expect(other.requests.map((r) => [r.path, r.headers['x-token']])).toEqual([['/robots.txt', undefined]]);
  });

  it('honours cross-submits: a host whose robots.txt names the sitemap may be listed', async () => {
    const site = await server();
    const other = await server();
    const third = await server();
    const sitemap = `${site.origin}/sitemaps/sitemap.xml`;
    site.route(
      '/sitemaps/sitemap.xml',
      body(
        urlsetOf([
          `${site.origin}/sitemaps/a`,
          `${site.origin}/elsewhere`,
          `${other.origin}/x`,
          `${third.origin}/y`,
        ]),
      ),
    );
    other.route(
      '/robots.txt',
      body(`User-agent: *\nDisallow:\n  sitemap: ${sitemap}\n`, { 'content-type': 'text/plain' }),
    );
    third.route('/robots.txt', body('User-agent: *\nDisallow:\n', { 'content-type': 'text/plain' }));
    const r = await parseSitemapToArray(sitemap);
    expect(r.items).toHaveLength(4);
    expect(r.diagnostics.map((d) => [d.code, d.url])).toEqual([
      ['url-outside-location', `${site.origin}/elsewhere`],
      ['url-outside-location', `${third.origin}/y`],
    ]);
    expect(other.requests.map((q) => q.path)).toEqual(['/robots.txt']);
  });

  it('caps redirects at 5 and refuses redirect loops', async () => {
    const s = await server();
    const o = s.origin;
    for (let i = 0; i < 7; i++) s.route(`/r${i}`, redirect(`${o}/r${i + 1}`));
    s.route('/r7', body(urlsetOf([`${o}/end`])));
    s.route('/five', redirect(`${o}/r3`));
    s.route('/loop1', redirect(`${o}/loop2`));
    s.route('/loop2', redirect(`${o}/loop1`));
    s.route('/index.xml', body(indexOf([`${o}/r0`, `${o}/five`, `${o}/loop1`])));
    const { entries, diagnostics } = await walk(`${o}/index.xml`);
    expect(locs(entries)).toEqual([`${o}/end`]);
    expect(diagnostics.map((d) => [d.code, d.sitemap]).sort()).toEqual([
      ['fetch-redirect', `${o}/loop1`],
      ['fetch-redirect', `${o}/r0`],
    ]);
    expect(diagnostics.find((d) => d.sitemap === `${o}/r0`)!.message).toMatch(/more than 5 redirects/);
  });

  it('stops at the depth cap, the sitemap cap and the URL cap', async () => {
    const s = await server();
    const o = s.origin;
    for (let i = 0; i < 4; i++)
      s.route(`/i${i}.xml`, body(indexOf([`${o}/i${i + 1}.xml`, `${o}/u${i}.xml`])));
    for (let i = 0; i < 5; i++) s.route(`/u${i}.xml`, body(urlsetOf([`${o}/p${i}a`, `${o}/p${i}b`])));
    const deep = await walk(`${o}/i0.xml`, { maxDepth: 2 });
    expect(locs(deep.entries)).toEqual([`${o}/p0a`, `${o}/p0b`, `${o}/p1a`, `${o}/p1b`]);
    expect(deep.diagnostics.map((d) => d.code).sort()).toEqual([
      'index-depth',
      'index-nested',
      'index-nested',
    ]);

    const few = await walk(`${o}/i0.xml`, { maxSitemaps: 3, concurrency: 1 });
    expect(few.diagnostics.map((d) => d.code)).toContain('tree-limit');
    expect(new Set(s.requests.slice(-3).map((r) => r.path)).size).toBe(3);

    const capped = await walk(`${o}/i0.xml`, { maxUrls: 3 });
    expect(capped.entries).toHaveLength(3);
    expect(capped.diagnostics.filter((d) => d.code === 'tree-limit')).toHaveLength(1);
  });

  it('fetches at most `concurrency` sitemaps at once', async () => {
    const s = await server();
    const o = s.origin;
    const children = Array.from({ length: 12 }, (_, i) => `${o}/c${i}.xml`);
    s.route('/index.xml', body(indexOf(children)));
    children.forEach((c, i) => {
      s.route(`/c${i}.xml`, slow(30, body(urlsetOf([`${c}#page`]))));
    });
    const { entries } = await walk(`${o}/index.xml`, { concurrency: 3 });
    expect(entries).toHaveLength(12);
    expect(s.peak).toBeLessThanOrEqual(3);
    expect(s.peak).toBeGreaterThan(1);
  });

  it('throws when its only root cannot be fetched; with several roots, reports', async () => {
    const s = await server();
    const o = s.origin;
    s.route('/a.xml', body(urlsetOf([`${o}/a`])));
    const single = parseSitemapTree(`${o}/missing.xml`);
    await expect(async () => {
      for await (const _ of single) void _;
    }).rejects.toSatisfy((e: unknown) => isSitemapkitError(e, 'ERR_HTTP'));
    const { entries, diagnostics } = await walk([`${o}/missing.xml`, `${o}/a.xml`]);
    expect(locs(entries)).toEqual([`${o}/a`]);
    expect(diagnostics.map((d) => d.code)).toEqual(['fetch-status']);
  });

  it('stops the readers when the consumer stops', async () => {
    const s = await server();
    const o = s.origin;
    const children = Array.from({ length: 30 }, (_, i) => `${o}/c${i}.xml`);
    s.route('/index.xml', body(indexOf(children)));
    children.forEach((c, i) => {
      s.route(`/c${i}.xml`, body(urlsetOf(Array.from({ length: 500 }, (_, k) => `${c}/${k}`))));
    });
    let n = 0;
    for await (const _ of parseSitemapTree(`${o}/index.xml`, { concurrency: 2 })) {
      if (++n === 10) break;
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(s.requests.length).toBeLessThan(10);
  });

  it('passes an abort through as ERR_ABORTED', async () => {
    const s = await server();
    const o = s.origin;
    s.route('/index.xml', body(indexOf([`${o}/slow.xml`])));
    s.route('/slow.xml', slow(10_000, body(urlsetOf([`${o}/x`]))));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    await expect(async () => {
      for await (const _ of parseSitemapTree(`${o}/index.xml`, { signal: controller.signal })) void _;
    }).rejects.toSatisfy((e: unknown) => isSitemapkitError(e, 'ERR_ABORTED'));
  });
});

describe('parseSitemap over HTTP', () => {
  it('undoes gzip once, whatever the name or Content-Encoding says', async () => {
    const s = await server();
    const o = s.origin;
    const doc = urlsetOf([`${o}/a`]);
    s.route('/plain.xml.gz', body(doc, { 'content-type': 'application/gzip' }));
    s.route('/gz-as.xml', gzipFile(doc));
    s.route('/encoded.xml', gzipTransfer(doc));
    const { gzipSync } = await import('node:zlib');
    s.route('/both.xml.gz', body(gzipSync(gzipSync(doc)), { 'content-encoding': 'gzip' }));
    for (const p of ['/plain.xml.gz', '/gz-as.xml', '/encoded.xml', '/both.xml.gz']) {
      const r = await parseSitemapToArray(`${o}${p}`);
      expect(r.items, p).toEqual([{ loc: `${o}/a` }]);
      expect(r.diagnostics, p).toEqual([]);
    }
    const gz = await parseSitemapToArray(`${o}/gz-as.xml`);
    expect(gz.sitemaps[0]).toMatchObject({ gzip: true, format: 'urlset', url: `${o}/gz-as.xml`, entries: 1 });
  });

  it('keeps the entries read before the connection broke', async () => {
    const s = await server();
    const o = s.origin;
    const doc = urlsetOf(Array.from({ length: 50 }, (_, i) => `${o}/p${i}`));
    s.route('/cut.xml', cut(doc, doc.indexOf(`${o}/p10<`) + 5));
    const r = await parseSitemapToArray(`${o}/cut.xml`);
    expect(r.items.map((i) => i.loc)).toEqual(Array.from({ length: 10 }, (_, i) => `${o}/p${i}`));
    expect(r.diagnostics.map((d) => d.code)).toEqual(['fetch-failed']);
  });

  it('stops downloading at the download cap', async () => {
    const s = await server();
    const o = s.origin;
    s.route('/big.xml', body(urlsetOf(Array.from({ length: 2000 }, (_, i) => `${o}/p${i}`))));
    const r = await parseSitemapToArray(`${o}/big.xml`, { maxDownloadBytes: 10_000 });
    expect(r.items.length).toBeGreaterThan(100);
    expect(r.items.length).toBeLessThan(400);
    expect(r.diagnostics.map((d) => d.code)).toEqual(['download-too-large']);
    expect(r.sitemaps[0]!.downloadedBytes).toBe(10_000);
  });

  it('throws ERR_HTTP for a status, and only http(s) is fetched', async () => {
    const s = await server();
    await expect(parseSitemapToArray(`${s.origin}/nope.xml`)).rejects.toSatisfy((e: unknown) =>
      isSitemapkitError(e, 'ERR_HTTP'),
    );
    await expect(parseSitemapToArray('ftp://example.com/sitemap.xml')).rejects.toSatisfy((e: unknown) =>
      isSitemapkitError(e, 'ERR_OPTIONS'),
    );
    await expect(parseSitemapToArray('/no/such/file.xml')).rejects.toSatisfy((e: unknown) =>
      isSitemapkitError(e, 'ERR_INPUT'),
    );
  });

  it('never follows a redirect to another scheme', async () => {
    const s = await server();
    s.route('/x.xml', redirect('file:///etc/passwd'));
    await expect(parseSitemapToArray(`${s.origin}/x.xml`)).rejects.toThrow(/only http\(s\) is followed/);
  });

  it('can be iterated only once', async () => {
    const r = parseSitemap({ text: 'https://example.com/a' });
    for await (const _ of r) void _;
    expect(() => r[Symbol.asyncIterator]()).toThrow(/only once/);
  });
});

describe('discoverSitemaps', () => {
  it('takes robots.txt Sitemap: lines, then well-known paths that hold sitemaps, deduplicated', async () => {
    const s = await server();
    const o = s.origin;
    s.route(
      '/robots.txt',
      body(
        `User-agent: *\nDisallow: /private\n\n   SITEMAP: /sitemap_index.xml\nsitemap: ${o}/news.xml\nSitemap: ${o}/news.xml\n`,
        {
          'content-type': 'text/plain',
        },
      ),
    );
    s.route('/sitemap_index.xml', body(indexOf([`${o}/a.xml`])));
    s.route('/sitemap.xml', body(urlsetOf([`${o}/a`])));
    s.route('/sitemap.txt', body(`${o}/a\n${o}/b\n`, { 'content-type': 'text/plain' }));
    s.route(
      '/feed',
      body('<!DOCTYPE html><html><body>soft 404</body></html>', { 'content-type': 'text/html' }),
    );
    s.route('/rss.xml', body('<rss version="2.0"><channel><item><link>x</link></item></channel></rss>'));
    const found = await discoverSitemaps(`${o}/some/page`, { userAgent: 'Finder/1' });
    expect(found).toEqual([
      { url: `${o}/sitemap_index.xml`, source: 'robots' },
      { url: `${o}/news.xml`, source: 'robots' },
      { url: `${o}/sitemap.xml`, source: 'well-known' },
      { url: `${o}/sitemap.txt`, source: 'well-known' },
      { url: `${o}/rss.xml`, source: 'well-known' },
    ]);
    expect(new Set(s.requests.map((r) => r.headers['user-agent']))).toEqual(new Set(['Finder/1']));
  });

  it('reports discover-none when there is nothing', async () => {
    const s = await server();
    const diagnostics: Diagnostic[] = [];
    expect(await discoverSitemaps(s.origin, { onDiagnostic: (d) => diagnostics.push(d) })).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['discover-none']);
  });
});
