/**
 * The warm path: cached files answered from what was prepared once (headers, the encoding of an
 * Accept-Encoding value, the path), and a cached gzip file asked for again sent smaller, at
 * gzip's best level, with the same decompressed bytes and validators.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/handler/cache.js';
import { chooseEncoding } from '../../src/handler/http.js';
import { createNodeSitemapHandler, toNodeListener } from '../../src/handler/node.js';
import type { HandlerCache } from '../../src/handler/types.js';
import { encodingChooser, PLAIN_PATH } from '../../src/handler/warm.js';
import { BASE, get, pagedSource } from './fixtures.js';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

async function serve(listener: ReturnType<typeof toNodeListener>): Promise<string> {
  const server = createServer((req, res) => listener(req, res));
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A memory cache that tells each `set` as it happens. */
function watchedCache(): HandlerCache & { sets: string[]; next(): Promise<string> } {
  const inner = new MemoryCache(64 * 1024 * 1024);
  const sets: string[] = [];
  let wake: ((key: string) => void) | undefined;
  return {
    sets,
    get: (key) => inner.get(key),
    set(key, bytes) {
      inner.set(key, bytes);
      sets.push(key);
      wake?.(key);
    },
    next: () =>
      new Promise((resolve) => {
        wake = resolve;
      }),
  };
}

describe('a cached gzip file', () => {
  it('asked for again is sent smaller from then on (gzip level 9, once): the same decompressed bytes, ETag and Last-Modified', async () => {
    const cache = watchedCache();
    const source = pagedSource({ '': 3000 });
    const origin = await serve(toNodeListener(createNodeSitemapHandler({ baseUrl: BASE, source, cache })));
    const gz = { 'accept-encoding': 'gzip' };
    const cached = cache.next();
    const first = await get(origin, '/sitemap.xml', gz);
    await cached;
    const recompressed = cache.next();
    const second = await get(origin, '/sitemap.xml', gz);
    expect(second.raw.equals(first.raw)).toBe(true);
    await recompressed;
    const third = await get(origin, '/sitemap.xml', gz);
    const fourth = await get(origin, '/sitemap.xml', gz);
    // What level 9 makes of the same text; the level-6 stream was larger.
    const best = gzipSync(Buffer.from(first.text), { level: 9 });
    expect(first.raw.length).toBeGreaterThan(best.length);
    expect(third.raw.length).toBe(best.length);
    expect(third.text).toBe(first.text);
    expect(fourth.raw.equals(third.raw)).toBe(true);
    expect(third.headers['content-length']).toBe(String(best.length));
    for (const h of ['etag', 'last-modified', 'content-type', 'content-encoding', 'vary', 'cache-control'])
      expect(third.headers[h]).toBe(first.headers[h]);
    // Generated once, recompressed once: the third and fourth requests changed nothing.
    expect(source.pages).toEqual([':0']);
    expect(cache.sets.length).toBe(2);
    expect(new Set(cache.sets).size).toBe(1);
  });

  it('generated for every request (a new version each time) is never recompressed', async () => {
    const cache = watchedCache();
    let version = 0;
    const source = pagedSource({ '': 300 });
    const handler = createNodeSitemapHandler({ baseUrl: BASE, source, cache, version: () => ++version });
    const origin = await serve(toNodeListener(handler));
    for (let i = 0; i < 3; i++) {
      const stored = cache.next();
      expect((await get(origin, '/sitemap.xml', { 'accept-encoding': 'gzip' })).status).toBe(200);
      await stored;
    }
    expect(new Set(cache.sets).size).toBe(3);
    expect(cache.sets.length).toBe(3);
  });
});

describe('the warm path', () => {
  it('gives each version its own validators even when a cache hands back one bytes object for both', async () => {
    // A content-addressed cache: equal bytes are stored once and shared between keys.
    const byKey = new Map<string, Uint8Array>();
    const shared: Uint8Array[] = [];
    const cache: HandlerCache = {
      get: (key) => byKey.get(key),
      set(key, bytes) {
        const same = shared.find((b) => Buffer.from(b).equals(Buffer.from(bytes)));
        if (same === undefined) shared.push(bytes);
        byKey.set(key, same ?? bytes);
      },
    };
    let version = 1;
    const handler = createNodeSitemapHandler({
      baseUrl: BASE,
      source: pagedSource({ '': 3 }),
      cache,
      version: () => version,
    });
    const etagOf = async (): Promise<string | null> => {
      const r = await handler(new Request(`${BASE}sitemap.xml`));
      await r.arrayBuffer();
      return r.headers.get('etag');
    };
    const one = [await etagOf(), await etagOf()];
    version = 2;
    const two = [await etagOf(), await etagOf()];
    expect(shared.length).toBe(1);
    expect(one[1]).toBe(one[0]);
    expect(two[1]).toBe(two[0]);
    expect(two[0]).not.toBe(one[0]);
  });

  it('keeps in its memory cache the files a plain least-recently-used list keeps, however hits and stores interleave', () => {
    const op = fc.oneof(
      fc.tuple(fc.constant('get' as const), fc.integer({ min: 0, max: 7 })),
      fc.tuple(fc.constant('set' as const), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 1, max: 20 })),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 10, maxLength: 80 }), (ops) => {
        // 60 bytes; a file over a quarter of that (15) is not kept.
        const cache = new MemoryCache(60);
        // The model: keys from least to most recently used, and their sizes.
        let order: number[] = [];
        const sizes = new Map<number, number>();
        for (const o of ops) {
          const key = `k${o[1]}`;
          if (o[0] === 'get') {
            const hit = sizes.has(o[1]);
            expect(cache.get(key)?.byteLength).toBe(hit ? sizes.get(o[1]) : undefined);
            if (hit) order = [...order.filter((k) => k !== o[1]), o[1]];
          } else {
            cache.set(key, new Uint8Array(o[2]));
            if (o[2] > 15) continue;
            order = [...order.filter((k) => k !== o[1]), o[1]];
            sizes.set(o[1], o[2]);
            let total = order.reduce((t, k) => t + sizes.get(k)!, 0);
            while (total > 60) {
              const oldest = order.shift()!;
              total -= sizes.get(oldest)!;
              sizes.delete(oldest);
            }
          }
          expect(cache.bytes).toBe(order.reduce((t, k) => t + sizes.get(k)!, 0));
        }
      }),
    );
  });

  it('chooses the encoding of an Accept-Encoding value as chooseEncoding does, however often it is asked', () => {
    const coding = fc.constantFrom('gzip', 'br', 'deflate', 'identity', '*', 'x-gzip', 'GZIP', 'zstd');
    const part = fc
      .tuple(coding, fc.option(fc.constantFrom('0', '1', '0.5', '0.001', '1.0', 'x'), { nil: undefined }))
      .map(([c, q]) => (q === undefined ? c : `${c};q=${q}`));
    const header = fc.array(part, { maxLength: 4 }).map((ps) => ps.join(', '));
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.option(header, { nil: null }), { maxLength: 80 }),
        (brotli, hs) => {
          const choose = encodingChooser(brotli);
          for (const h of [...hs, ...hs]) expect(choose(h)).toBe(chooseEncoding(h, brotli));
        },
      ),
    );
  });

  it('takes a request path as it is only when the URL parser would give it back unchanged', () => {
    const char = fc.constantFrom(...'abcXYZ019._-%~!$&+,;=:@ '.split(''));
    const segment = fc.array(char, { minLength: 0, maxLength: 6 }).map((cs) => cs.join(''));
    const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((ss) => `/${ss.join('/')}`);
    fc.assert(
      fc.property(path, (p) => {
        if (PLAIN_PATH.test(p)) expect(new URL(p, 'http://localhost').pathname).toBe(p);
      }),
    );
    for (const p of ['/sitemap.xml', '/sitemap-00001.xml', '/dir/sitemap.xml', '/', '/a/'])
      expect(PLAIN_PATH.test(p)).toBe(true);
    for (const p of ['/a/../sitemap.xml', '/./sitemap.xml', '/%73itemap.xml', '//sitemap.xml', '/a b'])
      expect(PLAIN_PATH.test(p)).toBe(false);
  });

  it('still answers a path the URL parser must read (dot segments) as the same route', async () => {
    const origin = await serve(
      toNodeListener(createNodeSitemapHandler({ baseUrl: BASE, source: pagedSource({ '': 3 }) })),
    );
    const plain = await get(origin, '/sitemap.xml');
    expect(plain.status).toBe(200);
    for (const p of ['/a/../sitemap.xml', '/./sitemap.xml', '/sitemap.xml?x=1']) {
      const r = await get(origin, p);
      expect([p, r.status, r.text]).toEqual([p, 200, plain.text]);
    }
  });
});
