/**
 * The address policy over real loopback servers. 127.0.0.2 plays a public address (an injected
 * classifier); 127.0.0.1 and ::1 are what they are. Names resolve through an injected lookup, so
 * a DNS case (and a name that rebinds between two connections) needs no resolver.
 */
import type { LookupFunction } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type AddressKind,
  classifyAddress,
  type HttpClient,
  type HttpClientOptions,
  HttpError,
} from '../../src/http/index.js';
import { parseSitemapTree } from '../../src/parser/tree.js';
import { redirect, text, tracked } from './listen.js';

const t = tracked();
const server = t.server;
const client = (o: HttpClientOptions = {}): HttpClient => t.client({ classifyAddress: playPublic, ...o });
afterEach(t.closeAll);

/** 127.0.0.2 is "public"; everything else as the built-in classifier says. */
const playPublic = (address: string): AddressKind =>
  address === '127.0.0.2' ? 'public' : classifyAddress(address);

/** A lookup from a table; a name with several answers gives the next one on each call. */
function table(names: Record<string, string | string[]>): LookupFunction {
  const calls = new Map<string, number>();
  return ((hostname: string, options: { all?: boolean }, callback: (...a: unknown[]) => void) => {
    const entry = names[hostname];
    if (entry === undefined) {
      return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    }
    const list = typeof entry === 'string' ? [entry] : entry;
    const n = calls.get(hostname) ?? 0;
    calls.set(hostname, n + 1);
    const address = list[Math.min(n, list.length - 1)]!;
    const family = address.includes(':') ? 6 : 4;
    if (options?.all === true) return callback(null, [{ address, family }]);
    callback(null, address, family);
  }) as LookupFunction;
}

async function outcome(c: HttpClient, url: string): Promise<string> {
  c.start(url);
  try {
    const r = await c.request(url, { timeoutMs: 5000 });
    return `${r.status} ${await r.text()}`;
  } catch (e) {
    return e instanceof HttpError ? e.reason : String(e);
  }
}

describe('the address classifier', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['100.64.0.1', 'carrier-nat'],
    ['100.128.0.1', 'public'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['8.8.8.8', 'public'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1%lo', 'link-local'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::808:808', 'public'],
    ['2001:4860:4860::8888', 'public'],
    ['[::1]', 'loopback'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('the address policy', () => {
  it('refuses a redirect from a public start to 127.0.0.1 by default; off lets it through', async () => {
    const inside = await server('127.0.0.1');
    inside.route('/secret', text('secret'));
    const outside = await server('127.0.0.2');
    outside.route('/go', redirect(`${inside.origin}/secret`));
    expect(await outcome(client(), `${outside.origin}/go`)).toBe('address-refused');
    expect(inside.requests).toEqual([]);
    expect(await outcome(client({ addressPolicy: 'off' }), `${outside.origin}/go`)).toBe('200 secret');
  });

  it('refuses an index child on 127.0.0.1 listed by a public index, with a diagnostic', async () => {
    const inside = await server('127.0.0.1');
    inside.route('/child.xml', text('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>'));
    const outside = await server('127.0.0.2');
    outside.route(
      '/index.xml',
      text(
        `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${inside.origin}/child.xml</loc></sitemap></sitemapindex>`,
      ),
    );
    const tree = parseSitemapTree(`${outside.origin}/index.xml`, { httpClient: client() });
    for await (const _ of tree);
    // The child is on another host, which the location rule reports too; the fetch is refused.
    const failed = tree.diagnostics.filter((d) => d.code === 'fetch-failed');
    expect(failed.map((d) => d.sitemap)).toEqual([`${inside.origin}/child.xml`]);
    expect(failed[0]!.message).toMatch(/address refused: .*loopback address 127\.0\.0\.1/);
    expect(inside.requests).toEqual([]);
  });

  it('allows a start on localhost on purpose, and its moves to other private addresses', async () => {
    const other = await server('127.0.0.1');
    other.route('/page', text('page'));
    const local = await server('127.0.0.1');
    local.route('/go', redirect(`${other.origin}/page`));
    expect(await outcome(client(), `${local.origin}/go`)).toBe('200 page');
  });

  it('strict refuses a private start and a private move alike', async () => {
    const inside = await server('127.0.0.1');
    inside.route('/x', text('x'));
    const outside = await server('127.0.0.2');
    outside.route('/go', redirect(`${inside.origin}/x`));
    outside.route('/fine', text('fine'));
    expect(await outcome(client({ addressPolicy: 'strict' }), `${inside.origin}/x`)).toBe('address-refused');
    expect(await outcome(client({ addressPolicy: 'strict' }), `${outside.origin}/go`)).toBe(
      'address-refused',
    );
    expect(await outcome(client({ addressPolicy: 'strict' }), `${outside.origin}/fine`)).toBe('200 fine');
  });

  it('IPv6: a start on [::1] works, a public start moving to [::1] is refused', async () => {
    const six = await server('::1');
    six.route('/x', text('six'));
    const outside = await server('127.0.0.2');
    outside.route('/go', redirect(`${six.origin}/x`));
    expect(await outcome(client(), `${six.origin}/x`)).toBe('200 six');
    expect(await outcome(client(), `${outside.origin}/go`)).toBe('address-refused');
  });

  it('names: judged by the address they resolve to, on every new connection (DNS rebinding)', async () => {
    const inside = await server('127.0.0.1');
    inside.route('/x', text('inside'));
    const outside = await server('127.0.0.2');
    outside.route('/go', redirect(`http://internal.test:${inside.port}/x`));
    const lookup = table({
      'public.test': '127.0.0.2',
      'internal.test': '127.0.0.1',
      localhost: '127.0.0.1',
      // First answer public, then private: the second connection must be judged again.
      'rebind.test': ['127.0.0.2', '127.0.0.1'],
    });
    expect(await outcome(client({ lookup }), `http://public.test:${outside.port}/go`)).toBe(
      'address-refused',
    );
    expect(await outcome(client({ lookup }), `http://localhost:${inside.port}/x`)).toBe('200 inside');

    const rebind = await server('0.0.0.0');
    rebind.route('/one', (_req, res) => void res.writeHead(200, { connection: 'close' }).end('one'));
    rebind.route('/two', text('two'));
    const c = client({ lookup });
    expect(await outcome(c, `http://rebind.test:${rebind.port}/one`)).toBe('200 one');
    const again = await c
      .request(`http://rebind.test:${rebind.port}/two`, { timeoutMs: 5000 })
      .catch((e) => e);
    expect((again as HttpError).reason).toBe('address-refused');
  });

  it("through a user's fetch, judges the IP literals it can see", async () => {
    const inside = await server('127.0.0.1');
    inside.route('/x', text('x'));
    const outside = await server('127.0.0.2');
    outside.route('/go', redirect(`${inside.origin}/x`));
    expect(await outcome(client({ fetch: globalThis.fetch }), `${outside.origin}/go`)).toBe(
      'address-refused',
    );
    expect(await outcome(client({ fetch: globalThis.fetch }), `${inside.origin}/x`)).toBe('200 x');
  });
});
