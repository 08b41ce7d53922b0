/**
 * The web-standard handler mounted in a Hono app, served by @hono/node-server on a free loopback
 * port, as a Hono user writes it (one middleware line; the app's own routes untouched): every
 * route of the set, the views, the stylesheet, robots.txt, a 404, HEAD, gzip and 304s, and every
 * served sitemap against the XSDs. The same app runs unchanged on Deno, Bun and Workers (Hono's
 * own adapters), which only the docs show.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSitemapHandler } from '../../src/handler/handler.js';
import { BASE, get, pagedSource, xsdProblems } from '../handler/fixtures.js';
import { assertXmllint } from '../support/xmllint.js';

const ASSET_XSL = readFileSync(new URL('../../assets/sitemap.xsl', import.meta.url), 'utf8');

describe('the handler in a Hono app on @hono/node-server', () => {
  let version = 1;
  const source = pagedSource({ '': 5 });
  const sitemaps = createSitemapHandler({
    baseUrl: BASE,
    source,
    maxUrlsPerFile: 2,
    version: () => version,
    xsl: true,
    robots: 'User-agent: *\nDisallow: /admin\n',
  });
  let server: ServerType;
  let origin: string;

  beforeAll(async () => {
    assertXmllint();
    // What docs/serving.md shows: the sitemap routes first, every other request on to the app.
    const app = new Hono();
    app.use((c, next) => (sitemaps.matches(c.req.path) ? sitemaps(c.req.raw) : next()));
    app.get('/about', (c) => c.text('about page'));
    origin = await new Promise<string>((ready) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        ready(`http://127.0.0.1:${info.port}`),
      );
    });
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
  });

  it('answers the index, each child with its .txt and .html twins, and the index view, all valid against the XSDs', async () => {
    const index = await get(origin, '/sitemap.xml');
    expect([index.status, index.headers['content-type']]).toEqual([200, 'application/xml; charset=utf-8']);
    expect(index.text).toContain('<?xml-stylesheet type="text/xsl" href="https://example.com/sitemap.xsl"?>');
    expect([...index.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual(
      [1, 2, 3].map((n) => `${BASE}sitemap-0000${n}.xml`),
    );
    expect(xsdProblems('sitemap.xml', index.text)).toBe('');
    const seen: string[] = [];
    for (const n of [1, 2, 3]) {
      const child = await get(origin, `/sitemap-0000${n}.xml`);
      expect(child.status).toBe(200);
      expect(xsdProblems(`sitemap-0000${n}.xml`, child.text)).toBe('');
      const urls = [...child.text.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
      seen.push(...urls);
      const txt = await get(origin, `/sitemap-0000${n}.txt`);
      expect(txt.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(txt.text.trim().split('\n')).toEqual(urls);
      const html = await get(origin, `/sitemap-0000${n}.html`);
      expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
      for (const u of urls) expect(html.text).toContain(`href="${u}"`);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4].map((i) => `${BASE}page-${i}`));
    expect((await get(origin, '/sitemap.html')).text).toContain('href="sitemap-00003.html"');
  });

  it('serves the stylesheet and robots.txt, a 404 for a child that does not exist, and leaves the app’s routes to Hono', async () => {
    const xsl = await get(origin, '/sitemap.xsl');
    expect([xsl.status, xsl.text]).toEqual([200, ASSET_XSL]);
    expect((await get(origin, '/robots.txt')).text).toBe(
      'User-agent: *\nDisallow: /admin\n\nSitemap: https://example.com/sitemap.xml\n',
    );
    const missing = await get(origin, '/sitemap-00004.xml');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('sitemap-00004.xml is not a file of this sitemap set');
    const about = await get(origin, '/about');
    expect([about.status, about.text]).toEqual([200, 'about page']);
    expect((await get(origin, '/nowhere')).status).toBe(404);
  });

  it('answers 304 to If-None-Match and If-Modified-Since, a new ETag when the version changes, HEAD without a body', async () => {
    const first = await get(origin, '/sitemap-00002.xml');
    const etag = first.headers['etag']!;
    expect(etag).toMatch(/^W\/"/);
    const cond = await get(origin, '/sitemap-00002.xml', { 'if-none-match': etag });
    expect([cond.status, cond.raw.length, cond.headers['etag']]).toEqual([304, 0, etag]);
    const since = await get(origin, '/sitemap-00002.xml', {
      'if-modified-since': first.headers['last-modified']!,
    });
    expect(since.status).toBe(304);
    const head = await get(origin, '/sitemap-00002.xml', {}, 'HEAD');
    expect([head.status, head.raw.length, head.headers['etag']]).toEqual([200, 0, etag]);
    version = 2;
    const changed = await get(origin, '/sitemap-00002.xml', { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers['etag']).not.toBe(etag);
  });

  it('compresses with the runtime’s CompressionStream (gzip), decoding to the same XML', async () => {
    const plain = await get(origin, '/sitemap-00001.xml');
    const gz = await get(origin, '/sitemap-00001.xml', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect([gz.raw[0], gz.raw[1]]).toEqual([0x1f, 0x8b]);
    expect(gz.text).toBe(plain.text);
  });
});
