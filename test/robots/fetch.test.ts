import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { fetchRobotsTxt, RobotsCache, robotsTxtUrl } from '../../src/robots/fetch.js';
import { redirect, startServer, type TestServer, text } from '../support/http-server.js';

const RULES = 'User-agent: *\nDisallow: /private/\nCrawl-delay: 2\nSitemap: /sitemap.xml\n';
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  a = await startServer({}, { keepAlive: false });
  b = await startServer({}, { keepAlive: false });
});
afterAll(async () => {
  await a.close();
  await b.close();
});

describe('fetchRobotsTxt: the RFC 9309 status table', () => {
  it('200: parses the file, resolves relative Sitemap lines against it, exposes Crawl-delay', async () => {
    a.route('/robots.txt', text(RULES));
    const r = await fetchRobotsTxt(`${a.origin}/some/page`);
    expect(r.status).toBe('ok');
    expect(r.httpStatus).toBe(200);
    expect(r.url).toBe(`${a.origin}/robots.txt`);
    expect(r.robots.isAllowed(`${a.origin}/private/x`, 'Bot')).toBe(false);
    expect(r.robots.isAllowed(`${a.origin}/public`, 'Bot')).toBe(true);
    expect(r.robots.sitemaps).toEqual([`${a.origin}/sitemap.xml`]);
    expect(r.robots.crawlDelay('Bot')).toBe(2);
  });

  it('404: unavailable, everything allowed', async () => {
    a.route('/robots.txt', text('gone', 404));
    const r = await fetchRobotsTxt(a.origin);
    expect(r).toMatchObject({ status: 'unavailable', httpStatus: 404 });
    expect(r.robots.isAllowed(`${a.origin}/private/x`, 'Bot')).toBe(true);
    expect(r.robots.explain(`${a.origin}/x`, 'Bot').reason).toMatch(/unavailable \(HTTP 404\)/);
  });

  it('429: unreachable like a 5xx, everything disallowed', async () => {
    a.route('/robots.txt', text('slow down', 429));
    const r = await fetchRobotsTxt(a.origin);
    expect(r).toMatchObject({ status: 'unreachable', httpStatus: 429 });
    expect(r.robots.isAllowed(`${a.origin}/`, 'Bot')).toBe(false);
    expect(r.error?.code).toBe('ERR_HTTP');
  });

  it('500: unreachable, everything disallowed', async () => {
    a.route('/robots.txt', text('oops', 500));
    const r = await fetchRobotsTxt(a.origin);
    expect(r).toMatchObject({ status: 'unreachable', httpStatus: 500 });
    expect(r.robots.isAllowed(`${a.origin}/anything`, 'Bot')).toBe(false);
    expect(r.robots.explain(`${a.origin}/anything`, 'Bot')).toMatchObject({ allowed: false, line: null });
  });

  it('timeout before the headers: unreachable', async () => {
    a.route('/robots.txt', () => {
      // Never answers.
    });
    const r = await fetchRobotsTxt(a.origin, { timeoutMs: 150 });
    expect(r.status).toBe('unreachable');
    expect(r.error?.message).toMatch(/no complete answer within 150 ms/);
    expect(r.robots.isAllowed(`${a.origin}/`, 'Bot')).toBe(false);
  });

  it('timeout in the middle of the body: unreachable (the timeout covers the body)', async () => {
    a.route('/robots.txt', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('User-agent: *\nAllow: /\n');
    });
    const r = await fetchRobotsTxt(a.origin, { timeoutMs: 150 });
    expect(r.status).toBe('unreachable');
  });

  it('connection refused: unreachable', async () => {
    const port = await freePort();
    const r = await fetchRobotsTxt(`http://127.0.0.1:${port}/`);
    expect(r.status).toBe('unreachable');
    expect(r.error?.message).toMatch(/network error/);
  });

  it('a chain of 5 redirects is followed; the rules apply to the original authority', async () => {
    a.route('/robots.txt', redirect('/r1', 301));
    for (let i = 1; i < 5; i++) a.route(`/r${i}`, redirect(`/r${i + 1}`, i % 2 === 0 ? 302 : 308));
    a.route('/r5', text(RULES));
    const r = await fetchRobotsTxt(a.origin);
    expect(r.status).toBe('ok');
    expect(r.redirects).toHaveLength(5);
    expect(r.url).toBe(`${a.origin}/robots.txt`);
    expect(r.finalUrl).toBe(`${a.origin}/r5`);
    expect(r.robots.isAllowed(`${a.origin}/private/`, 'Bot')).toBe(false);
  });

  it('a chain of 6 redirects: unavailable, everything allowed', async () => {
    a.route('/robots.txt', redirect('/r1', 301));
    for (let i = 1; i < 6; i++) a.route(`/r${i}`, redirect(`/r${i + 1}`, 301));
    a.route('/r6', text('User-agent: *\nDisallow: /\n'));
    const r = await fetchRobotsTxt(a.origin);
    expect(r.status).toBe('unavailable');
    expect(r.redirects).toHaveLength(5);
    expect(r.error?.message).toMatch(/more than 5 consecutive redirects/);
    expect(r.robots.isAllowed(`${a.origin}/x`, 'Bot')).toBe(true);
  });

  it('a cross-authority redirect is followed and its rules are used for the original authority', async () => {
    a.route('/robots.txt', redirect(`${b.origin}/robots.txt`, 301));
    b.route('/robots.txt', text('User-agent: *\nDisallow: /from-b/\nSitemap: /b-sitemap.xml\n'));
    const cache = new RobotsCache();
    const r = await cache.get(`${a.origin}/from-b/page`);
    expect(r.status).toBe('ok');
    expect(r.url).toBe(`${a.origin}/robots.txt`);
    expect(r.finalUrl).toBe(`${b.origin}/robots.txt`);
    expect(await cache.isAllowed(`${a.origin}/from-b/page`, 'Bot')).toBe(false);
    // Relative Sitemap lines resolve against where the file was read.
    expect(r.robots.sitemaps).toEqual([`${b.origin}/b-sitemap.xml`]);
  });

  it('a 3xx without Location: unavailable', async () => {
    a.route('/robots.txt', (_req, res) => res.writeHead(302).end());
    expect((await fetchRobotsTxt(a.origin)).status).toBe('unavailable');
  });

  it('parses at most 500 KiB and does not read the rest', async () => {
    const filler = `# ${'x'.repeat(98)}\n`.repeat(6000); // 600,000 bytes
    a.route('/robots.txt', text(`User-agent: *\nDisallow: /early\n${filler}Disallow: /late\n`));
    const r = await fetchRobotsTxt(a.origin);
    expect(r.robots.truncated).toBe(true);
    expect(r.robots.isAllowed(`${a.origin}/early`, 'Bot')).toBe(false);
    expect(r.robots.isAllowed(`${a.origin}/late`, 'Bot')).toBe(true);
  });

  it('sends the given User-Agent', async () => {
    let seen: string | undefined;
    a.route('/robots.txt', (req, res) => {
      seen = req.headers['user-agent'];
      res.end('');
    });
    await fetchRobotsTxt(a.origin, { userAgent: 'sitemapkit-test/1.0' });
    expect(seen).toBe('sitemapkit-test/1.0');
  });

  it('an abort from the caller throws ERR_ABORTED instead of counting as unreachable', async () => {
    a.route('/robots.txt', () => {});
    const controller = new AbortController();
    const p = fetchRobotsTxt(a.origin, { signal: controller.signal, timeoutMs: 5000 });
    controller.abort();
    await expect(p).rejects.toSatisfy((e: unknown) => isSitemapkitError(e, 'ERR_ABORTED'));
  });

  it('rejects non-http URLs with ERR_OPTIONS', () => {
    expect(() => robotsTxtUrl('ftp://example.com/')).toThrow(/not an http/);
    expect(robotsTxtUrl('https://Example.com:8443/a/b?c')).toBe('https://example.com:8443/robots.txt');
  });
});

describe('RobotsCache', () => {
  // Each test has its own server: a request aborted by an earlier test may still arrive late.
  it('reuses a copy for at most 24 hours (injected clock) and shares concurrent fetches', async () => {
    const a = await startServer({}, { keepAlive: false });
    let clock = 1_000_000;
    let hits = 0;
    a.route('/robots.txt', (_req, res) => {
      hits++;
      res.end(`User-agent: *\nDisallow: /v${hits}\n`);
    });
    const cache = new RobotsCache({ now: () => clock, maxAgeMs: 7 * 86_400_000 });
    const [r1, r2] = await Promise.all([cache.get(`${a.origin}/a`), cache.get(`${a.origin}/b`)]);
    expect(hits).toBe(1);
    expect(r1).toBe(r2);
    clock += 86_400_000 - 1;
    expect(await cache.isAllowed(`${a.origin}/v1`, 'Bot')).toBe(false);
    expect(hits).toBe(1);
    // A maxAgeMs above 24 h is capped at 24 h (RFC 9309 §2.4).
    clock += 1;
    expect(await cache.isAllowed(`${a.origin}/v1`, 'Bot')).toBe(true);
    expect(await cache.isAllowed(`${a.origin}/v2`, 'Bot')).toBe(false);
    expect(hits).toBe(2);
    await a.close();
  });

  it('keeps the last good copy when a refresh finds the file unreachable', async () => {
    const a = await startServer({}, { keepAlive: false });
    let clock = 0;
    let fail = false;
    a.route('/robots.txt', (_req, res) => {
      if (fail) res.writeHead(503).end();
      else res.end('User-agent: *\nDisallow: /secret\n');
    });
    const cache = new RobotsCache({ now: () => clock, unreachableTtlMs: 1000 });
    expect((await cache.get(a.origin)).status).toBe('ok');
    fail = true;
    clock += 86_400_000;
    const stale = await cache.get(a.origin);
    expect(stale).toMatchObject({ status: 'ok', stale: true });
    expect(stale.robots.isAllowed(`${a.origin}/open`, 'Bot')).toBe(true);
    // Past 30 days without a good answer the failure itself is used: disallow all.
    clock += 31 * 86_400_000;
    const down = await cache.get(a.origin);
    expect(down.status).toBe('unreachable');
    expect(down.robots.isAllowed(`${a.origin}/open`, 'Bot')).toBe(false);
    await a.close();
  });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}
