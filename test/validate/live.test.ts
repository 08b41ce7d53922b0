import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { validateSitemap } from '../../src/validate/validate.js';
import { BIN } from '../support/cli.js';
import { answer, type Route, type TestServer as Site, startServer } from '../support/http-server.js';
import { page } from './helpers.js';

const OLD = 'Mon, 01 Jan 2024 00:00:00 GMT';
const LATER = 'Fri, 01 Mar 2024 10:00:00 GMT';
const NOW_HEADER = 'Sat, 01 Jun 2024 12:00:00 GMT';

/** Each planted problem: path → [its answer(s), the lastmod listed, the code expected (or none)]. */
let site: Site;
let diagnostics: Diagnostic[];
let result: Awaited<ReturnType<typeof validateSitemap>>;
const lastmods: Record<string, string> = {};

function at(path: string): Diagnostic[] {
  return diagnostics.filter((d) => d.url === `${site.origin}${path}`);
}

function codes(path: string): string[] {
  return at(path)
    .map((d) => d.code)
    .sort();
}

beforeAll(async () => {
  site = await startServer();
  const o = (): string => site.origin;
  const routes: Record<string, Route> = {
    // Healthy pages: never flagged.
    '/ok': {
      headers: { 'last-modified': OLD, date: NOW_HEADER },
      body: page(`<link rel="canonical" href="${o()}/ok">`),
    },
    '/ok-relative': { body: page('<base href="/"><link rel="canonical" href="ok-relative">') },
    '/ok-pdf': { headers: { 'content-type': 'application/pdf' }, body: '%PDF-1.4' },
    '/ok-dynamic': { headers: { 'last-modified': NOW_HEADER, date: NOW_HEADER }, body: page('') },
    '/busy': answer((_req, { hit: nth }) =>
      nth <= 2 ? { status: 429, headers: { 'retry-after': '1' }, body: 'slow down' } : { body: page('') },
    ),
    '/head-405': answer((req) => (req.method === 'HEAD' ? { status: 405 } : { body: page('') })),
    // Planted problems.
    '/missing': { status: 404, body: 'not here' },
    '/gone': { status: 410 },
    '/broken': { status: 500, body: 'oops' },
    '/moved': { status: 301, headers: { location: '/ok' } },
    '/noindex-meta': { body: page('<meta name="robots" content="noindex, follow">') },
    '/noindex-header': { headers: { 'x-robots-tag': 'noindex' }, body: page('') },
    '/noindex-googlebot': { body: page('<meta name="googlebot" content="noindex">') },
    '/noindex-otherbot': { body: page('<meta name="bingbot" content="noindex">') },
    '/canonical-elsewhere': { body: page('<base href="/blog/"><link rel="canonical" href="post">') },
    '/canonical-header': { headers: { link: `<${'/ok'}>; rel="canonical"` }, body: page('') },
    '/canonical-bad': { body: page('<link rel="canonical" href="javascript:void(0)">') },
    '/stale': { headers: { 'last-modified': LATER, date: NOW_HEADER }, body: page('') },
    '/logo.png': { headers: { 'content-type': 'image/png' }, body: new Uint8Array([137, 80, 78, 71]) },
    '/data': { headers: { 'content-type': 'application/json' }, body: '{}' },
    // Past any timeout; the others get one no loaded machine reaches (500 ms did, and a retried
    // HEAD then showed up in the methods asked for).
    '/slow': { delayMs: 120_000, body: page('') },
  };
  for (const [path, route] of Object.entries(routes)) site.route(path, route);
  lastmods['/ok'] = '2024-02-01';
  lastmods['/stale'] = '2024-02-01T00:00:00Z';
  lastmods['/ok-dynamic'] = '2024-02-01';
  const body = Object.keys(routes)
    .map((p) => `<url><loc>${o()}${p}</loc>${lastmods[p] ? `<lastmod>${lastmods[p]}</lastmod>` : ''}</url>`)
    .join('\n');
  site.route('/sitemap.xml', {
    headers: { 'content-type': 'application/xml' },
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`,
  });
  site.route('/robots.txt', {
    headers: { 'content-type': 'text/plain' },
    body: `User-agent: *\nAllow: /\n\nSitemap: ${o()}/sitemap.xml\n`,
  });
  result = await validateSitemap(`${o()}/sitemap.xml`, {
    live: { timeoutMs: 5_000, retries: 2, concurrency: 4, perHost: 2 },
  });
  diagnostics = result.diagnostics;
}, 60_000);

afterAll(() => site.close());

describe('live checks against a real local site', () => {
  it.each([
    ['/missing', 'live-client-error', 'HTTP 404'],
    ['/gone', 'live-client-error', 'HTTP 410'],
    ['/broken', 'live-server-error', 'HTTP 500'],
    ['/moved', 'live-redirect', '/ok: list the target'],
    ['/noindex-meta', 'live-noindex', 'meta name="robots"'],
    ['/noindex-header', 'live-noindex', 'X-Robots-Tag'],
    ['/noindex-googlebot', 'live-noindex', 'googlebot'],
    ['/canonical-elsewhere', 'live-canonical-elsewhere', '/blog/post'],
    ['/canonical-header', 'live-canonical-elsewhere', '/ok'],
    ['/canonical-bad', 'canonical-ignored', 'not an http(s) URL'],
    ['/stale', 'live-lastmod-stale', 'Last-Modified'],
    ['/logo.png', 'live-not-html', 'image/png'],
    ['/data', 'live-not-html', 'application/json'],
    ['/slow', 'live-fetch-failed', 'no answer within 5000 ms'],
  ])('%s: %s', (path, code, text) => {
    const found = at(path).filter((d) => d.code === code);
    expect(found, JSON.stringify(at(path))).toHaveLength(1);
    const d = found[0]!;
    expect(d.message).toContain(text);
    expect(d.severity).toBe(code === 'canonical-ignored' ? 'warning' : 'error');
    expect(d.sitemap).toBe(`${site.origin}/sitemap.xml`);
    expect(d.line).toBeGreaterThan(2);
    expect(d.fix).toBeTruthy();
  });

  it('never flags a healthy page (after a 429 with Retry-After, a HEAD refused with 405, a PDF, a dynamic Last-Modified)', () => {
    for (const path of [
      '/ok',
      '/ok-relative',
      '/ok-pdf',
      '/ok-dynamic',
      '/busy',
      '/head-405',
      '/noindex-otherbot',
    ]) {
      expect(at(path), path).toEqual([]);
    }
  });

  it('reports the redirect target and the status of every page', () => {
    expect(at('/moved')[0]!.message).toBe(`redirects (301) to ${site.origin}/ok: list the target instead`);
    expect(result.stats.statusCodes).toMatchObject({
      '200': 16,
      '301': 1,
      '404': 1,
      '410': 1,
      '500': 1,
      failed: 1,
    });
    expect(result.summary.checked).toBe(Object.values(result.stats.statusCodes).reduce((a, b) => a + b, 0));
    expect(result.summary.checked).toBe(result.summary.urls);
  });

  it('is polite: a clear User-Agent, at most 2 requests at once per host, Retry-After waited for', () => {
    const pages = site.requests.filter((r) => r.path !== '/sitemap.xml' && r.path !== '/robots.txt');
    expect(pages.length).toBeGreaterThan(20);
    for (const r of pages) expect(r.headers['user-agent']).toMatch(/^sitemapkit\/\S+ \(\+https:\/\//);
    expect(site.peak).toBeLessThanOrEqual(2);
    expect(site.requests.filter((r) => r.path === '/busy' && r.method === 'GET')).toHaveLength(2);
  });

  it('uses HEAD first and GET only where the body matters (HTML pages, or a HEAD error to confirm)', () => {
    const methods = (path: string): string[] =>
      site.requests.filter((r) => r.path === path).map((r) => r.method);
    expect(methods('/logo.png')).toEqual(['HEAD']);
    expect(methods('/ok-pdf')).toEqual(['HEAD']);
    expect(methods('/ok')).toEqual(['HEAD', 'GET']);
    expect(methods('/head-405')).toEqual(['HEAD', 'GET']);
    expect(methods('/moved')).toEqual(['HEAD']);
  });

  it('the offline rules still run next to the live ones (the PNG is also an asset listed as a page)', () => {
    expect(codes('/logo.png')).toEqual(['live-not-html', 'url-asset']);
    expect(result.summary.valid).toBe(false);
  });
});

describe('aborting', () => {
  it('rejects with ERR_ABORTED while pages are being fetched, and the CLI exits 130 on SIGINT', async () => {
    const slow = await startServer();
    try {
      const locs = Array.from({ length: 30 }, (_, i) => `${slow.origin}/p${i}`);
      for (const l of locs) slow.route(new URL(l).pathname, { delayMs: 5000, body: page('') });
      slow.route('/sitemap.xml', {
        headers: { 'content-type': 'application/xml' },
        body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`,
      });
      const controller = new AbortController();
      const run = validateSitemap(`${slow.origin}/sitemap.xml`, {
        robots: false,
        live: { timeoutMs: 10_000 },
        signal: controller.signal,
        onProgress: () => undefined,
      });
      setTimeout(() => controller.abort(new Error('stop')), 300);
      const error = await run.catch((e: unknown) => e);
      expect(isSitemapkitError(error, 'ERR_ABORTED'), String(error)).toBe(true);

      const before = slow.requests.length;
      const child = spawn(
        process.execPath,
        [BIN, 'validate', `${slow.origin}/sitemap.xml`, '--live', '--no-robots'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      // Once the server sees page requests, the run is in its live phase.
      await new Promise<void>((resolve) => {
        const poll = setInterval(() => {
          if (slow.requests.slice(before).filter((r) => r.path.startsWith('/p')).length >= 2) {
            clearInterval(poll);
            resolve();
          }
        }, 20);
      });
      child.kill('SIGINT');
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(130);
      expect(stderr).toContain('interrupted');
    } finally {
      await slow.close();
    }
  });
});
