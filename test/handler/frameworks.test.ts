/**
 * The handler inside real apps on 127.0.0.1 — Express 5, Fastify 5 and plain node:http —
 * requested with a real HTTP client (undici): every route, validators and 304, HEAD, gzip and
 * Brotli, the cache against the source's version, and every served file against the XSDs.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFastifyRoutes, createNodeSitemapHandler, toNodeListener } from '../../src/handler/node.js';
import type { SitemapHandler } from '../../src/handler/types.js';
import { assertXmllint } from '../support/xmllint.js';
import { BASE, get, pagedSource, xsdProblems } from './fixtures.js';

type Kind = 'express' | 'fastify' | 'node:http';

interface App {
  origin: string;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The app as a user writes it: one line adds the sitemaps to routes of its own. */
async function startApp(kind: Kind, handler: SitemapHandler): Promise<App> {
  if (kind === 'express') {
    const app = express();
    app.use(toNodeListener(handler));
    app.get('/about', (_req, res) => {
      res.send('about page');
    });
    const server = createServer(app);
    const origin = await listen(server);
    return { origin, close: () => new Promise((r) => server.close(() => r())) };
  }
  if (kind === 'fastify') {
    const app: FastifyInstance = Fastify();
    addFastifyRoutes(app, handler);
    app.get('/about', async () => 'about page');
    await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      origin: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
      close: () => app.close(),
    };
  }
  const listener = toNodeListener(handler);
  const server = createServer((req, res) => {
    listener(req, res, () => {
      res.end(req.url === '/about' ? 'about page' : 'not found');
    });
  });
  const origin = await listen(server);
  return { origin, close: () => new Promise((r) => server.close(() => r())) };
}

const ASSET_XSL = readFileSync(new URL('../../assets/sitemap.xsl', import.meta.url), 'utf8');

describe.each<Kind>(['express', 'fastify', 'node:http'])('the handler in %s', (kind) => {
  let version = 1;
  const source = pagedSource({ '': 5 });
  const handler = createNodeSitemapHandler({
    baseUrl: BASE,
    source,
    maxUrlsPerFile: 2,
    version: () => version,
    xsl: true,
    robots: 'User-agent: *\nDisallow: /admin\n',
  });
  let app: App;

  beforeAll(async () => {
    assertXmllint();
    app = await startApp(kind, handler);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers the index of 3 children from a paged source, each child and its twins, all valid against the XSDs', async () => {
    const index = await get(app.origin, '/sitemap.xml');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(index.text).toContain('<sitemapindex');
    expect(index.text).toContain('<?xml-stylesheet type="text/xsl" href="https://example.com/sitemap.xsl"?>');
    const locs = [...index.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([1, 2, 3].map((n) => `${BASE}sitemap-0000${n}.xml`));
    expect(xsdProblems('sitemap.xml', index.text)).toBe('');
    const seen: string[] = [];
    for (const n of [1, 2, 3]) {
      const child = await get(app.origin, `/sitemap-0000${n}.xml`);
      expect(child.status).toBe(200);
      expect(xsdProblems(`sitemap-0000${n}.xml`, child.text)).toBe('');
      seen.push(...[...child.text.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
      const txt = await get(app.origin, `/sitemap-0000${n}.txt`);
      expect(txt.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(txt.text.trim().split('\n')).toEqual(seen.slice(-txt.text.trim().split('\n').length));
      const html = await get(app.origin, `/sitemap-0000${n}.html`);
      expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(html.text).toContain(`href="${seen.at(-1)}"`);
    }
    expect(seen).toEqual([0, 1, 2, 3, 4].map((i) => `${BASE}page-${i}`));
    const view = await get(app.origin, '/sitemap.html');
    expect(view.text).toContain('href="sitemap-00003.html"');
  });

  it('serves the stylesheet, robots.txt with the Sitemap line, a 404 for a child that does not exist, and leaves other routes to the app', async () => {
    const xsl = await get(app.origin, '/sitemap.xsl');
    expect(xsl.status).toBe(200);
    expect(xsl.text).toBe(ASSET_XSL);
    const robots = await get(app.origin, '/robots.txt');
    expect(robots.text).toBe('User-agent: *\nDisallow: /admin\n\nSitemap: https://example.com/sitemap.xml\n');
    const missing = await get(app.origin, '/sitemap-00004.xml');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('sitemap-00004.xml is not a file of this sitemap set');
    expect((await get(app.origin, '/sitemap.txt')).status).toBe(404);
    const about = await get(app.origin, '/about');
    expect([about.status, about.text]).toEqual([200, 'about page']);
  });

  it('answers 304 to If-None-Match and If-Modified-Since, and HEAD with the headers of GET and no body', async () => {
    const first = await get(app.origin, '/sitemap-00002.xml', { 'accept-encoding': 'gzip' });
    const etag = first.headers['etag']!;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('public, max-age=3600');
    expect(first.headers['vary']).toBe('Accept-Encoding');
    const cond = await get(app.origin, '/sitemap-00002.xml', { 'if-none-match': etag });
    expect([cond.status, cond.raw.length, cond.headers['etag']]).toEqual([304, 0, etag]);
    const since = await get(app.origin, '/sitemap-00002.xml', {
      'if-modified-since': first.headers['last-modified']!,
    });
    expect(since.status).toBe(304);
    const stale = await get(app.origin, '/sitemap-00002.xml', { 'if-none-match': 'W/"other"' });
    expect(stale.status).toBe(200);
    const head = await get(app.origin, '/sitemap-00002.xml', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.raw.length).toBe(0);
    for (const h of ['content-type', 'etag', 'last-modified', 'cache-control', 'vary', 'content-encoding'])
      expect(head.headers[h], h).toBe(first.headers[h]);
  });

  it('compresses with gzip and Brotli by Accept-Encoding, each decoding to the same XML', async () => {
    const plain = await get(app.origin, '/sitemap-00001.xml');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await get(app.origin, '/sitemap-00001.xml', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect([gz.raw[0], gz.raw[1]]).toEqual([0x1f, 0x8b]);
    const br = await get(app.origin, '/sitemap-00001.xml', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    const refused = await get(app.origin, '/sitemap-00001.xml', { 'accept-encoding': 'br;q=0, gzip' });
    expect(refused.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(plain.text);
    expect(br.text).toBe(plain.text);
  });

  it('generates a child once per version: a cache hit while the version holds, a miss when it changes', async () => {
    version = 10;
    source.pages.length = 0;
    const a = await get(app.origin, '/sitemap-00003.xml', { 'accept-encoding': 'gzip' });
    const b = await get(app.origin, '/sitemap-00003.xml', { 'accept-encoding': 'gzip' });
    expect(source.pages).toEqual([':2']);
    expect(b.headers['content-length']).toBe(String(b.raw.length));
    expect(b.raw.equals(a.raw)).toBe(true);
    version = 11;
    const c = await get(app.origin, '/sitemap-00003.xml', { 'accept-encoding': 'gzip' });
    expect(source.pages).toEqual([':2', ':2']);
    expect(c.headers['etag']).not.toBe(a.headers['etag']);
    expect(
      (await get(app.origin, '/sitemap-00003.xml', { 'if-none-match': a.headers['etag']! })).status,
    ).toBe(200);
  });
});
