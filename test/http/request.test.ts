import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpClient, HttpError, type HttpFailureReason } from '../../src/http/index.js';
import { listen, redirect, text, tracked } from './listen.js';

const t = tracked();
const server = t.server;
const client = t.client;
afterEach(t.closeAll);

/** The failure reason of a promise that must reject with an HttpError. */
async function reasonOf(p: Promise<unknown>): Promise<HttpFailureReason> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return (error as HttpError).reason;
}

describe('request(): redirects', () => {
  it('follows a chain and lists the targets; manual mode returns the 3xx', async () => {
    const s = await server();
    s.route('/a', redirect('/b', 301));
    s.route('/b', redirect(`${s.origin}/c`, 308));
    s.route('/c', text('done'));
    const c = client();
    const r = await c.request(`${s.origin}/a`, { timeoutMs: 5000 });
    expect([r.status, r.url, r.redirects, await r.text()]).toEqual([
      200,
      `${s.origin}/c`,
      [`${s.origin}/b`, `${s.origin}/c`],
      'done',
    ]);
    const m = await c.request(`${s.origin}/a`, { timeoutMs: 5000, redirect: 'manual' });
    m.cancel();
    expect([m.status, m.headers.get('location')]).toEqual([301, '/b']);
  });

  it('refuses loops, too many hops, a missing Location and a non-http target, each with its reason', async () => {
    const s = await server();
    s.route('/loop1', redirect('/loop2'));
    s.route('/loop2', redirect('/loop1'));
    for (let i = 0; i < 4; i++) s.route(`/hop${i}`, redirect(`/hop${i + 1}`));
    s.route('/hop4', text('end'));
    s.route('/bare', (_req, res) => void res.writeHead(302).end());
    s.route('/ftp', redirect('ftp://example.com/x'));
    const c = client();
    const o = { timeoutMs: 5000 };
    expect(await reasonOf(c.request(`${s.origin}/loop1`, o))).toBe('redirect-loop');
    expect(await reasonOf(c.request(`${s.origin}/hop0`, { ...o, maxRedirects: 3 }))).toBe(
      'too-many-redirects',
    );
    expect((await c.request(`${s.origin}/hop0`, { ...o, maxRedirects: 4 })).status).toBe(200);
    expect(await reasonOf(c.request(`${s.origin}/bare`, o))).toBe('bad-redirect');
    expect(await reasonOf(c.request(`${s.origin}/ftp`, o))).toBe('bad-scheme');
    expect(await reasonOf(c.request('file:///etc/passwd', o))).toBe('bad-scheme');
  });

  it('turns a POST into a GET on 303', async () => {
    const s = await server();
    s.route('/post', (req, res) => void res.writeHead(303, { location: '/seen' }).end(req.method));
    s.route('/seen', (req, res) => void res.end(req.method));
    const r = await client().request(`${s.origin}/post`, { method: 'POST', body: '{}', timeoutMs: 5000 });
    expect(await r.text()).toBe('GET');
  });
});

describe('request(): bodies', () => {
  it('undoes gzip, deflate and br', async () => {
    const s = await server();
    const plain = 'x'.repeat(10_000);
    s.route('/gz', text(gzipSync(plain), { 'content-encoding': 'gzip' }));
    s.route('/deflate', text(deflateSync(plain), { 'content-encoding': 'deflate' }));
    s.route('/br', text(brotliCompressSync(plain), { 'content-encoding': 'br' }));
    const c = client();
    for (const path of ['/gz', '/deflate', '/br']) {
      expect(await (await c.request(`${s.origin}${path}`, { timeoutMs: 5000 })).text(), path).toBe(plain);
    }
  });

  it('applies the cap to the inflated bytes: a gzip bomb fails with too-large, or is cut', async () => {
    const s = await server();
    const bomb = gzipSync(Buffer.alloc(20 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(100_000);
    s.route('/bomb', text(bomb, { 'content-encoding': 'gzip' }));
    const c = client();
    const r = await c.request(`${s.origin}/bomb`, { timeoutMs: 10_000, maxBytes: 1_000_000 });
    expect(await reasonOf(r.bytes())).toBe('too-large');
    const cut = await c.request(`${s.origin}/bomb`, {
      timeoutMs: 10_000,
      maxBytes: 1_000_000,
      overflow: 'truncate',
    });
    expect((await cut.bytes()).length).toBe(1_000_000);
    expect(cut.truncated).toBe(true);
  });

  it('one timeout covers the body: a body that stalls after its first bytes fails with timeout', async () => {
    const s = await server();
    s.route('/stall', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first bytes');
    });
    s.route('/silent', () => undefined);
    const c = client();
    const r = await c.request(`${s.origin}/stall`, { timeoutMs: 300 });
    expect(r.status).toBe(200);
    const error = await r.text().catch((e: unknown) => e);
    expect((error as HttpError).reason).toBe('timeout');
    expect((error as HttpError).message).toMatch(/no complete answer within 300 ms/);
    expect(await reasonOf(c.request(`${s.origin}/silent`, { timeoutMs: 300 }))).toBe('timeout');
  });
});

describe('request(): each() pushes the same body as body()', () => {
  /** The bytes `each()` hands over, joined. */
  async function pushed(r: Awaited<ReturnType<HttpClient['request']>>): Promise<Buffer> {
    const parts: Uint8Array[] = [];
    await r.each((c) => parts.push(c));
    return Buffer.concat(parts);
  }

  it('decoded, capped (too-large or cut), and a stalled body times out', async () => {
    const s = await server();
    const plain = 'y'.repeat(50_000);
    s.route('/gz', text(gzipSync(plain), { 'content-encoding': 'gzip' }));
    s.route('/plain', text(plain));
    s.route('/stall', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('first bytes');
    });
    const c = client();
    expect((await pushed(await c.request(`${s.origin}/gz`, { timeoutMs: 5000 }))).toString()).toBe(plain);
    const big = await c.request(`${s.origin}/plain`, { timeoutMs: 5000, maxBytes: 1000 });
    expect(await reasonOf(pushed(big))).toBe('too-large');
    const cut = await c.request(`${s.origin}/gz`, { timeoutMs: 5000, maxBytes: 1000, overflow: 'truncate' });
    expect([(await pushed(cut)).length, cut.truncated]).toEqual([1000, true]);
    const stalled = await c.request(`${s.origin}/stall`, { timeoutMs: 300 });
    expect(await reasonOf(pushed(stalled))).toBe('timeout');
  });

  it('what the callback throws comes back as it is, not as a network failure', async () => {
    const s = await server();
    s.route('/plain', text('z'.repeat(1000)));
    const c = client();
    const r = await c.request(`${s.origin}/plain`, { timeoutMs: 5000 });
    const mine = new Error('the reader failed');
    await expect(
      r.each(() => {
        throw mine;
      }),
    ).rejects.toBe(mine);
  });
});

describe('request(): failures as reasons', () => {
  it('refused, reset, tls, dns and aborted', async () => {
    const s = await server();
    const gone = await listen();
    const closedPort = gone.origin;
    await gone.close();
    s.route('/reset', (req) => req.socket.destroy());
    // Each request goes to another origin: the address policy is not what is tested here.
    const c = client({
      addressPolicy: 'off',
      lookup: (hostname, _options, callback) => {
        const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        (callback as (e: Error) => void)(error);
      },
    });
    const o = { timeoutMs: 5000 };
    expect(await reasonOf(c.request(`${closedPort}/`, o))).toBe('refused');
    expect(await reasonOf(c.request(`${s.origin}/reset`, o))).toBe('reset');
    expect(await reasonOf(c.request(`https://127.0.0.1:${s.port}/`, o))).toBe('tls');
    expect(await reasonOf(c.request('http://no-such-host.test/', o))).toBe('dns');
    const controller = new AbortController();
    controller.abort();
    const aborted = await c
      .request(`${s.origin}/`, { ...o, signal: controller.signal })
      .catch((e: unknown) => e);
    expect([(aborted as HttpError).reason, (aborted as HttpError).code]).toEqual(['aborted', 'ERR_ABORTED']);
  });
});

describe('request(): headers', () => {
  it('sends the User-Agent everywhere, and headers and credentials only to the start origin, across redirects', async () => {
    const a = await server();
    const b = await server();
    a.route('/start', redirect('/same'));
    a.route('/same', redirect(`${b.origin}/other`));
    b.route('/other', redirect(`${a.origin}/back`));
    a.route('/back', text('ok'));
    const c = client({ userAgent: 'TestBot/2', headers: { 'X-Token': 'secret' } });
    const start = `http://user:pa%20ss@${a.origin.slice('http://'.length)}/start`;
    c.start(start);
    expect(await (await c.request(start, { timeoutMs: 5000 })).text()).toBe('ok');
    const basic = `Basic ${Buffer.from('user:pa ss').toString('base64')}`;
    expect(a.requests.map((r) => [r.path, r.headers['x-token'], r.headers.authorization])).toEqual([
      ['/start', 'secret', basic],
      ['/same', 'secret', basic],
      ['/back', 'secret', basic],
    ]);
    expect(b.requests.map((r) => [r.path, r.headers['x-token'], r.headers.authorization])).toEqual([
      ['/other', undefined, undefined],
    ]);
    for (const r of [...a.requests, ...b.requests]) expect(r.headers['user-agent']).toBe('TestBot/2');
  });

  it('refuses header names and values that could inject a header', () => {
    expect(() => new HttpClient({ headers: { 'X-A': 'one\r\nX-B: two' } })).toThrow(/line break/);
    expect(() => new HttpClient({ headers: { 'X A': 'v' } })).toThrow(/is not a valid HTTP header name/);
    expect(() => new HttpClient({ userAgent: 'bot\nX: y' })).toThrow(/one line/);
  });
});
