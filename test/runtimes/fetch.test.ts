/**
 * The handler as a plain `fetch` handler, `(Request) => Promise<Response>`, the shape Deno.serve,
 * Bun.serve, Cloudflare Workers and every edge runtime call: first called directly with `Request`
 * objects (no server, no framework, the Workers signature with its extra arguments too), then
 * served bare over loopback by Node's fetch-handler server (@hono/node-server's `serve`, which
 * hands the handler the same `Request` Deno.serve would).
 */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SitemapEntryInput } from '../../src/core/entry.js';
import { createSitemapHandler } from '../../src/handler/handler.js';
import { BASE, get, xsdProblems } from '../handler/fixtures.js';
import { assertXmllint } from '../support/xmllint.js';

/** An async source, as one reading a database or an API would be: 7 pages, one with an image. */
async function* pages(): AsyncGenerator<SitemapEntryInput> {
  for (let i = 0; i < 7; i++) {
    await Promise.resolve();
    yield {
      loc: `${BASE}post/${i}`,
      lastmod: `2024-06-0${i + 1}`,
      ...(i === 3 && { images: [`${BASE}img/3.png`] }),
    };
  }
}

function sitemapsHandler() {
  return createSitemapHandler({ baseUrl: BASE, source: pages, maxUrlsPerFile: 3, robots: true });
}

const at = (path: string, init?: RequestInit): Request => new Request(new URL(path, BASE), init);

describe('the handler called directly with Request objects', () => {
  const handler = sitemapsHandler();

  beforeAll(() => {
    assertXmllint();
  });

  it('answers the index and each child as Responses, valid against the XSDs', async () => {
    const index = await handler(at('/sitemap.xml'));
    expect(index).toBeInstanceOf(Response);
    expect([index.status, index.headers.get('content-type')]).toEqual([
      200,
      'application/xml; charset=utf-8',
    ]);
    const xml = await index.text();
    expect(xsdProblems('sitemap.xml', xml)).toBe('');
    expect([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual(
      [1, 2, 3].map((n) => `${BASE}sitemap-0000${n}.xml`),
    );
    const listed: string[] = [];
    for (const n of [1, 2, 3]) {
      const child = await (await handler(at(`/sitemap-0000${n}.xml`))).text();
      expect(xsdProblems(`sitemap-0000${n}.xml`, child)).toBe('');
      listed.push(...[...child.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!));
    }
    expect(listed).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `${BASE}post/${i}`));
    expect(await (await handler(at('/sitemap-00002.xml'))).text()).toContain(
      '<image:loc>https://example.com/img/3.png</image:loc>',
    );
  });

  it('answers robots.txt, 304 to If-None-Match, HEAD without a body, 404 and 405 in one sentence', async () => {
    expect(await (await handler(at('/robots.txt'))).text()).toBe(
      'User-agent: *\nAllow: /\n\nSitemap: https://example.com/sitemap.xml\n',
    );
    const first = await handler(at('/sitemap-00001.xml'));
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    const again = await handler(at('/sitemap-00001.xml', { headers: { 'if-none-match': etag } }));
    expect([again.status, await again.text()]).toEqual([304, '']);
    const head = await handler(at('/sitemap-00001.xml', { method: 'HEAD' }));
    expect([head.status, head.headers.get('etag'), await head.text()]).toEqual([200, etag, '']);
    const missing = await handler(at('/sitemap-00009.xml'));
    expect([missing.status, await missing.text()]).toEqual([
      404,
      expect.stringContaining('sitemap-00009.xml'),
    ]);
    const post = await handler(at('/sitemap.xml', { method: 'POST', body: 'x' }));
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    expect(handler.matches('/sitemap-00003.xml')).toBe(true);
    expect(handler.matches('/about')).toBe(false);
  });

  it('is a Workers module as it stands: export default { fetch: handler } ignores the env and context arguments', async () => {
    const worker = { fetch: handler } as unknown as {
      fetch(request: Request, env: unknown, ctx: { waitUntil(p: Promise<unknown>): void }): Promise<Response>;
    };
    const res = await worker.fetch(at('/sitemap-00003.xml'), { DB: {} }, { waitUntil: () => {} });
    expect(await res.text()).toContain(`<loc>${BASE}post/6</loc>`);
  });

  it('gzips through the runtime’s CompressionStream, decoding to the same XML', async () => {
    const plain = await (await handler(at('/sitemap-00001.xml'))).text();
    const gz = await handler(at('/sitemap-00001.xml', { headers: { 'accept-encoding': 'gzip' } }));
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const back = await new Response(gz.body!.pipeThrough(new DecompressionStream('gzip'))).text();
    expect(back).toBe(plain);
  });

  it('offers Brotli only where the runtime’s CompressionStream has it, else answers uncompressed', async () => {
    let hasBrotli = true;
    try {
      new CompressionStream('br' as 'gzip');
    } catch {
      hasBrotli = false;
    }
    const br = await handler(at('/sitemap-00001.xml', { headers: { 'accept-encoding': 'br' } }));
    expect(br.headers.get('content-encoding')).toBe(hasBrotli ? 'br' : null);
    const either = await handler(at('/sitemap-00001.xml', { headers: { 'accept-encoding': 'br, gzip' } }));
    expect(either.headers.get('content-encoding')).toBe(hasBrotli ? 'br' : 'gzip');
    await Promise.all([br.arrayBuffer(), either.arrayBuffer()]);
  });
});

describe('the bare handler served over loopback, as Deno.serve(handler) serves it', () => {
  let server: ServerType;
  let origin: string;

  beforeAll(async () => {
    const handler = sitemapsHandler();
    origin = await new Promise<string>((ready) => {
      server = serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        ready(`http://127.0.0.1:${info.port}`),
      );
    });
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
  });

  it('answers every route and a 304 over HTTP, and a 404 for any other path', async () => {
    const index = await get(origin, '/sitemap.xml');
    expect(index.status).toBe(200);
    expect(xsdProblems('sitemap.xml', index.text)).toBe('');
    const child = await get(origin, '/sitemap-00002.xml', { 'accept-encoding': 'gzip' });
    expect([child.status, child.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(xsdProblems('sitemap-00002.xml', child.text)).toBe('');
    expect((await get(origin, '/sitemap-00002.txt')).text.trim().split('\n')).toEqual(
      [3, 4, 5].map((i) => `${BASE}post/${i}`),
    );
    expect((await get(origin, '/sitemap-00002.html')).text).toContain(`href="${BASE}post/5"`);
    const cond = await get(origin, '/sitemap-00002.xml', { 'if-none-match': child.headers['etag']! });
    expect(cond.status).toBe(304);
    expect((await get(origin, '/robots.txt')).text).toContain('Sitemap: https://example.com/sitemap.xml');
    const other = await get(origin, '/about');
    expect([other.status, other.text]).toEqual([404, '/about is not a sitemap route\n']);
  });
});
