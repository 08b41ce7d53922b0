import { mkdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { answer, redirect, startServer, startStaticServer, type TestServer, text } from './http-server.js';
import { tempDir } from './tmp.js';

const servers: TestServer[] = [];
async function server(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** One raw request (no client pool, no redirect following): status, headers and body as sent. */
function get(
  url: string,
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((done, fail) => {
    // Asks for keep-alive, so that only the server decides to close.
    const req = request(url, { method, agent: false, headers: { connection: 'keep-alive' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        body += d;
      });
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('the test HTTP server', () => {
  it('routes by exact target, then by path without the query; other paths get a 404 page', async () => {
    const routes = { '/a': text('a'), '/a?x=1': text('exact') };
    const s = await server(routes);
    expect(s.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.url).toBe(`${s.origin}/`);
    expect((await get(`${s.origin}/a?x=1`)).body).toBe('exact');
    expect((await get(`${s.origin}/a?y=2`)).body).toBe('a');
    const missing = await get(`${s.origin}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
  });

  it('reads the routes object at each request, and route() adds to it while running', async () => {
    const routes: Record<string, ReturnType<typeof text>> = {};
    const s = await server(routes);
    expect((await get(`${s.origin}/late`)).status).toBe(404);
    routes['/late'] = text('late');
    s.route('/later', redirect('/late', 301));
    expect((await get(`${s.origin}/late`)).body).toBe('late');
    const moved = await get(`${s.origin}/later`);
    expect([moved.status, moved.headers['location']]).toEqual([301, '/late']);
  });

  it('logs every request with its status, counts hits per target and gives handlers the hit', async () => {
    const s = await server({
      '/n': answer((_req, { hit }) => (hit === 1 ? { status: 503 } : { body: `hit ${hit}` })),
    });
    expect((await get(`${s.origin}/n`)).status).toBe(503);
    expect((await get(`${s.origin}/n`, 'POST')).body).toBe('hit 2');
    expect(s.hits('/n')).toBe(2);
    expect(s.hits('/other')).toBe(0);
    expect(s.requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', '/n', 503],
      ['POST', '/n', 200],
    ]);
    expect(s.requests[0]!.headers['host']).toBe(new URL(s.origin).host);
  });

  it('keeps the peak of requests in flight', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    const s = await server({
      '/hold': async (_req, res) => {
        await held;
        res.end('ok');
      },
    });
    const all = Promise.all([get(`${s.origin}/hold`), get(`${s.origin}/hold`), get(`${s.origin}/hold`)]);
    while (s.requests.length < 3) await new Promise((r) => setImmediate(r));
    release();
    await all;
    expect(s.peak).toBe(3);
  });

  it('closes each connection when keep-alive is off, and sends no body to HEAD', async () => {
    const s = await server({ '/': text('body') }, { keepAlive: false });
    expect((await get(s.origin)).headers['connection']).toBe('close');
    const head = await get(s.origin, 'HEAD');
    expect([head.status, head.body]).toEqual([200, '']);
    const open = await server({ '/': text('body') });
    expect((await get(open.origin)).headers['connection']).not.toBe('close');
  });

  it('a handler that throws answers 500', async () => {
    const s = await server({
      '/boom': () => {
        throw new Error('boom');
      },
    });
    expect((await get(`${s.origin}/boom`)).status).toBe(500);
  });

  it('serves a folder with Content-Types and index.html, and nothing outside it', async () => {
    const root = tempDir('sk-http-server');
    mkdirSync(join(root, 'site', 'sub'), { recursive: true });
    writeFileSync(join(root, 'secret.txt'), 'secret');
    writeFileSync(join(root, 'site', 'sitemap.xml'), '<urlset/>');
    writeFileSync(join(root, 'site', 'sub', 'index.html'), '<title>sub</title>');
    const s = await startStaticServer(join(root, 'site'), { headers: { 'x-test': 'yes' } });
    servers.push(s);
    const xml = await get(`${s.url}sitemap.xml`);
    expect([xml.status, xml.headers['content-type'], xml.headers['x-test'], xml.body]).toEqual([
      200,
      'application/xml; charset=utf-8',
      'yes',
      '<urlset/>',
    ]);
    expect((await get(`${s.url}sub/`)).body).toBe('<title>sub</title>');
    expect((await get(`${s.url}..%2Fsecret.txt`)).status).toBe(404);
    expect((await get(`${s.url}missing.xml`)).status).toBe(404);
    expect((await get(`${s.url}sitemap.xml`, 'POST')).status).toBe(405);
  });
});
