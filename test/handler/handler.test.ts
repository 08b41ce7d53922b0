/**
 * The web handler called directly (Request in, Response out): an entries source cut as the writer
 * cuts it, findings for bad entries, sections, options refused up front, and a 50,000-URL child
 * streamed through Express while its source is still being read.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { createSitemapHandler } from '../../src/handler/handler.js';
import { chooseEncoding } from '../../src/handler/http.js';
import { createNodeSitemapHandler, toNodeListener } from '../../src/handler/node.js';
import type { PagedSource } from '../../src/handler/types.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { BASE, entry, pagedSource, xsdProblems } from './fixtures.js';

const at = (path: string, headers: Record<string, string> = {}): Request =>
  new Request(new URL(path, BASE), { headers });

describe('createSitemapHandler', () => {
  it('cuts an entries source into the same files as writeSitemaps, byte for byte', async () => {
    const entries = Array.from({ length: 23 }, (_, i) => entry(i, i % 3 === 0 ? 'blog' : ''));
    const handler = createSitemapHandler({
      baseUrl: BASE,
      source: () => entries,
      maxUrlsPerFile: 4,
      extensions: ['image'],
    });
    const written = await writeSitemaps(entries, {
      baseUrl: BASE,
      output: 'memory',
      maxUrlsPerFile: 4,
      extensions: ['image'],
      now: () => new Date('2024-01-01T00:00:00Z'),
      lastmodPolicy: 'keep',
      newsWindow: false,
    });
    const names = [...written.memory!.keys()].filter((n) => n !== 'sitemap.xml');
    expect(names.length).toBe(6);
    for (const name of names) {
      const res = await handler(at(name));
      expect(res.status, name).toBe(200);
      expect(await res.text(), name).toBe(new TextDecoder().decode(written.memory!.get(name)));
    }
    const index = await (await handler(at('sitemap.xml'))).text();
    for (const name of names) expect(index).toContain(`<loc>${BASE}${name}</loc>`);
    expect(xsdProblems('sitemap.xml', index)).toBe('');
  });

  it('with format txt, serves the files writeSitemaps writes in that format: .txt children, text/plain, listed by the XML index', async () => {
    const entries = Array.from({ length: 9 }, (_, i) => entry(i));
    const handler = createSitemapHandler({
      baseUrl: BASE,
      source: () => entries,
      maxUrlsPerFile: 4,
      format: 'txt',
    });
    const written = await writeSitemaps(entries, {
      baseUrl: BASE,
      output: 'memory',
      format: 'txt',
      maxUrlsPerFile: 4,
      lastmodPolicy: 'keep',
    });
    const names = [...written.memory!.keys()].filter((n) => n !== 'sitemap.xml');
    expect(names).toEqual(['sitemap-00001.txt', 'sitemap-00002.txt', 'sitemap-00003.txt']);
    for (const name of names) {
      const res = await handler(at(name));
      expect([name, res.status, res.headers.get('content-type')]).toEqual([
        name,
        200,
        'text/plain; charset=utf-8',
      ]);
      expect(await res.text(), name).toBe(new TextDecoder().decode(written.memory!.get(name)));
      const xml = await handler(at(name.replace('.txt', '.xml')));
      expect([xml.status, await xml.text()]).toEqual([404, `the set is published as text: read ${name}\n`]);
    }
    const index = await (await handler(at('sitemap.xml'))).text();
    expect([...index.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])).toEqual(names.map((n) => BASE + n));
    expect(xsdProblems('sitemap.xml', index)).toBe('');
    // A set of one file: sitemap.txt alone.
    const one = createSitemapHandler({ baseUrl: BASE, source: () => [entry(1)], format: 'txt' });
    expect(await (await one(at('sitemap.txt'))).text()).toBe(`${BASE}page-1\n`);
    expect((await one(at('sitemap.xml'))).status).toBe(404);
  });

  it("robots.txt names the set's entry file, which the handler serves: sitemap.txt for a text set of one file", async () => {
    const cases = [
      { format: 'xml' as const, urls: 1, entry: 'sitemap.xml' },
      { format: 'xml' as const, urls: 9, entry: 'sitemap.xml' },
      { format: 'txt' as const, urls: 1, entry: 'sitemap.txt' },
      { format: 'txt' as const, urls: 9, entry: 'sitemap.xml' },
    ];
    for (const c of cases) {
      const entries = Array.from({ length: c.urls }, (_, i) => entry(i));
      const handler = createSitemapHandler({
        baseUrl: BASE,
        source: () => entries,
        maxUrlsPerFile: 4,
        format: c.format,
        robots: true,
      });
      const robots = await (await handler(at('robots.txt'))).text();
      const named = [...robots.matchAll(/^Sitemap: (.*)$/gm)].map((m) => m[1]);
      expect([c, named]).toEqual([c, [`${BASE}${c.entry}`]]);
      expect([c, (await handler(at(c.entry))).status]).toEqual([c, 200]);
    }
  });

  it('serves a set that fits one file as a urlset at sitemap.xml, its text at sitemap.txt, and no child names', async () => {
    const handler = createSitemapHandler({ baseUrl: BASE, source: () => [entry(1), entry(2)] });
    const xml = await (await handler(at('sitemap.xml'))).text();
    expect(xml).toContain('<urlset');
    expect(xsdProblems('sitemap.xml', xml)).toBe('');
    expect(await (await handler(at('sitemap.txt'))).text()).toBe(`${BASE}page-1\n${BASE}page-2\n`);
    expect((await handler(at('sitemap-00001.xml'))).status).toBe(404);
  });

  it('leaves out invalid and duplicate entries, with a finding for each invalid one', async () => {
    const found: Diagnostic[] = [];
    const handler = createSitemapHandler({
      baseUrl: BASE,
      onDiagnostic: (d) => found.push(d),
      source: async function* () {
        yield entry(1);
        yield { loc: 'https://elsewhere.example/x' };
        yield { loc: `${BASE}a`, lastmod: 'yesterday' };
        yield entry(1);
      },
    });
    const xml = await (await handler(at('sitemap.xml'))).text();
    expect(xml.match(/<url>/g)?.length).toBe(1);
    expect(found.map((d) => [d.code, d.severity])).toEqual([
      ['url-outside-location', 'error'],
      ['lastmod-invalid', 'error'],
    ]);
  });

  it('names the children of each section of a paged source', async () => {
    const handler = createSitemapHandler({
      baseUrl: BASE,
      maxUrlsPerFile: 3,
      source: pagedSource({ news: 4, shop: 2 }),
    });
    const index = await (await handler(at('sitemap.xml'))).text();
    expect([...index.matchAll(/<loc>([^<]+)</g)].map((m) => m[1])).toEqual(
      ['sitemap-news-00001', 'sitemap-news-00002', 'sitemap-shop-00001'].map((n) => `${BASE}${n}.xml`),
    );
    const shop = await (await handler(at('sitemap-shop-00001.xml'))).text();
    expect(shop).toContain(`<loc>${BASE}shop/page-1</loc>`);
    expect(xsdProblems('shop.xml', shop)).toBe('');
  });

  it('serves a file source under the names it gives, with their lastmods in the index', async () => {
    const files: Record<string, number[]> = { products: [1, 2, 3], articles: [4] };
    const handler = createSitemapHandler({
      baseUrl: BASE,
      source: {
        files: async () => [
          { name: 'products', lastmod: '2024-03-01' },
          { name: 'articles', lastmod: undefined },
        ],
        entries: (name) => (files[name] ?? []).map((i) => entry(i)),
      },
    });
    const index = await (await handler(at('sitemap.xml'))).text();
    expect(index).toContain(`<sitemap><loc>${BASE}products.xml</loc><lastmod>2024-03-01</lastmod></sitemap>`);
    expect(index).toContain(`<sitemap><loc>${BASE}articles.xml</loc></sitemap>`);
    const products = await (await handler(at('products.xml'))).text();
    expect(products.match(/<url>/g)?.length).toBe(3);
    expect(xsdProblems('products.xml', products)).toBe('');
    expect((await handler(at('pages.xml'))).status).toBe(404);
  });

  it('answers 406 with a sentence when Accept-Encoding refuses every coding, identity included', async () => {
    const handler = createSitemapHandler({ baseUrl: BASE, source: pagedSource({ '': 3 }) });
    for (const refused of ['identity;q=0', '*;q=0', 'br;q=0, gzip;q=0, identity;q=0']) {
      const res = await handler(at('sitemap.xml', { 'accept-encoding': refused }));
      expect(res.status, refused).toBe(406);
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(await res.text()).toBe(
        `Accept-Encoding "${refused}" refuses every coding this server sends (gzip, identity): accept one of them\n`,
      );
    }
    // Named codings stay acceptable beside a refused identity.
    const gz = await handler(at('sitemap.xml', { 'accept-encoding': 'gzip, identity;q=0' }));
    expect(gz.status).toBe(200);
    expect(gz.headers.get('content-encoding')).toBe('gzip');
  });

  it('keeps generated files in any cache of the HandlerCache shape (async too), or in none with cache: false', async () => {
    const store = new Map<string, Uint8Array>();
    const cache = {
      get: async (key: string) => store.get(key),
      set: async (key: string, bytes: Uint8Array) => {
        store.set(key, bytes);
      },
    };
    const withCache = pagedSource({ '': 3 });
    const cached = createSitemapHandler({ baseUrl: BASE, source: withCache, cache });
    const first = await (await cached(at('sitemap.xml', { 'accept-encoding': 'gzip' }))).arrayBuffer();
    const second = await cached(at('sitemap.xml', { 'accept-encoding': 'gzip' }));
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(new Uint8Array(first));
    expect(second.headers.get('content-length')).toBe(String(first.byteLength));
    expect(withCache.pages).toEqual([':0']);
    expect([...store.keys()].length).toBe(1);
    const without = pagedSource({ '': 3 });
    const uncached = createSitemapHandler({ baseUrl: BASE, source: without, cache: false });
    for (let i = 0; i < 2; i++) await (await uncached(at('sitemap.xml'))).text();
    expect(without.pages).toEqual([':0', ':0']);
  });

  it('answers 405 to other methods and 500 in one sentence when the source fails', async () => {
    const errors: unknown[] = [];
    const handler = createSitemapHandler({
      baseUrl: BASE,
      onError: (e) => errors.push(e),
      source: () => {
        throw new Error('database down: password=secret');
      },
    });
    const post = await handler(new Request(`${BASE}sitemap.xml`, { method: 'POST' }));
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const failed = await handler(at('sitemap.xml'));
    expect(failed.status).toBe(500);
    expect(await failed.text()).toBe('/sitemap.xml could not be generated: the sitemap source failed\n');
    expect(errors.length).toBe(1);
    expect(handler.matches('/sitemap-00001.xml')).toBe(true);
    expect(handler.matches('/about')).toBe(false);
  });

  it('refuses bad options when it is created, naming the option', () => {
    const make = (o: object) => () => createSitemapHandler({ baseUrl: BASE, source: () => [], ...o });
    for (const [o, words] of [
      [{ baseUrl: 'example.com' }, 'baseUrl "example.com" must be an absolute http(s) URL'],
      [{ source: 42 }, 'source must be a function returning entries'],
      [{ maxUrlsPerFile: 60_000 }, 'maxUrlsPerFile'],
      [{ maxAge: -1 }, 'maxAge'],
      [{ cache: {} }, 'cache must be false or an object'],
      [{ format: 'json' }, 'format must be xml or txt, got "json"'],
    ] as const) {
      let error: unknown;
      try {
        make(o)();
      } catch (e) {
        error = e;
      }
      expect(isSitemapkitError(error, 'ERR_OPTIONS'), JSON.stringify(o)).toBe(true);
      expect((error as Error).message).toContain(words);
    }
  });

  it('picks the encoding by Accept-Encoding and its q-values', () => {
    expect(chooseEncoding(null, true)).toBe('identity');
    expect(chooseEncoding('gzip, br', true)).toBe('br');
    expect(chooseEncoding('gzip, br', false)).toBe('gzip');
    expect(chooseEncoding('br;q=0.5, gzip', true)).toBe('gzip');
    expect(chooseEncoding('*', true)).toBe('br');
    expect(chooseEncoding('gzip;q=0, identity', true)).toBe('identity');
    // RFC 9110 §12.5.3: identity is acceptable unless refused by name, or by `*;q=0` without a name.
    expect(chooseEncoding('gzip;q=0', true)).toBe('identity');
    expect(chooseEncoding('', true)).toBe('identity');
    expect(chooseEncoding('identity;q=0', true)).toBeNull();
    expect(chooseEncoding('gzip, identity;q=0', true)).toBe('gzip');
    expect(chooseEncoding('br;q=0, gzip;q=0, identity;q=0', true)).toBeNull();
    expect(chooseEncoding('*;q=0', true)).toBeNull();
    expect(chooseEncoding('*;q=0, identity', true)).toBe('identity');
    expect(chooseEncoding('compress, *;q=0', false)).toBeNull();
  });
});

describe('toNodeListener', () => {
  it('also runs any web handler with a matches(), through a web Request and Response', async () => {
    const web = Object.assign(
      async (r: Request) =>
        new Response(`${r.method} ${new URL(r.url).pathname} ${r.headers.get('x-test')}`, { status: 201 }),
      { matches: (path: string) => path === '/hello' },
    );
    const server = createServer(toNodeListener(web)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hello?x=1`, {
        headers: { 'x-test': 'yes' },
      });
      expect([res.statusCode, await res.body.text()]).toEqual([201, 'GET /hello yes']);
    } finally {
      server.close();
    }
  });
});

describe('a client that goes away', () => {
  it('stops the generation: the source is closed and nothing is cached', async () => {
    let closed!: () => void;
    const sourceClosed = new Promise<void>((r) => {
      closed = r;
    });
    let reads = 0;
    const source: PagedSource = {
      count: () => 50_000,
      async *page(index, size) {
        reads++;
        try {
          for (let i = index * size; i < (index + 1) * size; i++) yield entry(i);
        } finally {
          closed();
        }
      },
    };
    const server = createServer(toNodeListener(createNodeSitemapHandler({ baseUrl: BASE, source })));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sitemap.xml`;
    try {
      const res = await request(url);
      for await (const _ of res.body) break; // the first chunk, then the connection is dropped
      await sourceClosed;
      const again = await request(url);
      await again.body.dump();
      expect(reads).toBe(2);
    } finally {
      server.close();
    }
  });

  it('serves an empty page as a whole, empty urlset', async () => {
    const handler = createSitemapHandler({
      baseUrl: BASE,
      maxUrlsPerFile: 2,
      source: { count: () => 3, page: (index) => (index === 0 ? [entry(0), entry(1)] : []) },
    });
    expect(await (await handler(at('sitemap-00002.xml'))).text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n</urlset>\n',
    );
  });
});

describe('a 50,000-URL child', () => {
  it('streams to the client while its page is still being read, and is whole and valid at the end', async () => {
    let yielded = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const source: PagedSource = {
      count: () => 50_000,
      async *page(index, size) {
        for (let i = index * size; i < (index + 1) * size; i++) {
          // Held half-way until the client has bytes: a handler that buffered the file would never send any.
          if (i === 25_000) await gate;
          yielded++;
          yield entry(i);
        }
      },
    };
    const app = express();
    app.use(toNodeListener(createNodeSitemapHandler({ baseUrl: BASE, source })));
    const server = createServer(app).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sitemap.xml`);
      expect(res.statusCode).toBe(200);
      const chunks: Buffer[] = [];
      let releasedAfter = -1;
      for await (const chunk of res.body) {
        chunks.push(chunk as Buffer);
        if (releasedAfter < 0) {
          releasedAfter = yielded;
          release();
        }
      }
      expect(releasedAfter).toBeLessThanOrEqual(25_000);
      const text = Buffer.concat(chunks).toString('utf8');
      expect(text.match(/<url>/g)?.length).toBe(50_000);
      expect(xsdProblems('big.xml', text)).toBe('');
    } finally {
      server.close();
    }
  });
});
