import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { crawl } from '../../src/crawler/crawl.js';
import { type CrawlOptions, stateNameFor } from '../../src/crawler/options.js';
import { cli } from '../support/cli.js';
import { html, type Route, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const ROBOTS: Route = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

async function site(routes: Record<string, Route>): Promise<TestServer> {
  const s = await startServer({ '/robots.txt': ROBOTS, ...routes });
  servers.push(s);
  return s;
}

/** A home page linking to `n` pages. */
function pages(n: number, extra = ''): Record<string, Route> {
  const routes: Record<string, Route> = {};
  routes['/'] = html(
    'Home',
    Array.from({ length: n }, (_, i) => `<a href="/p${i}">${i}</a>`).join('') + extra,
  );
  for (let i = 0; i < n; i++) routes[`/p${i}`] = html(`P${i}`, '<a href="/">home</a>');
  return routes;
}

function setup(extra: Partial<CrawlOptions> & { start: string }): CrawlOptions & { dir: string } {
  const dir = tempDir('sk-crawl-publish');
  return {
    outDir: join(dir, 'out'),
    state: join(dir, 'state.db'),
    report: join(dir, 'report'),
    ...extra,
    dir,
  };
}

function locs(outDir: string): string[] {
  const xml = readFileSync(join(outDir, 'sitemap.xml'), 'utf8');
  return [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
}

describe('start URL, publicOrigin and baseUrl are checked against each other before the first request (defect 6)', () => {
  it('a baseUrl the published pages cannot lie under: refused with zero requests, no state, no output', async () => {
    const s = await site(pages(5));
    const o = setup({
      start: `${s.origin}/`,
      publicOrigin: 'https://example.com',
      baseUrl: 'https://example.com/docs/15/',
    });
    const error = await crawl(o).catch((e: unknown) => e);
    expect(isSitemapkitError(error, 'ERR_OPTIONS')).toBe(true);
    expect((error as Error).message).toContain(
      `the start URL ${s.origin}/ is published as https://example.com/, which lies outside baseUrl's folder https://example.com/docs/15/`,
    );
    expect((error as { hint?: string }).hint).toContain('publicOrigin "https://example.com/docs/15/"');
    expect(s.requests).toEqual([]);
    expect(existsSync(o.state as string)).toBe(false);
    expect(existsSync(o.outDir)).toBe(false);
    // A crawl of another host without publicOrigin cannot be published there either.
    const other = await crawl({ ...o, publicOrigin: undefined as unknown as string }).catch(
      (e: unknown) => e,
    );
    expect(isSitemapkitError(other, 'ERR_OPTIONS')).toBe(true);
    expect(s.requests).toEqual([]);
  });

  it('the CLI says what to do, --resume included, and exits 2 having made zero requests', async () => {
    const s = await site(pages(5));
    const dir = tempDir('sk-crawl-publish');
    const r = await cli([
      'crawl',
      `${s.origin}/`,
      '--out',
      join(dir, 'out'),
      '--state',
      join(dir, 'state.db'),
      '--report',
      join(dir, 'report'),
      '--public-origin',
      'https://example.com',
      '--base-url',
      'https://example.com/docs/15/',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing was fetched');
    expect(r.stderr).toContain('--resume');
    expect(r.stderr).toContain(`outside --base-url's folder https://example.com/docs/15/`);
    expect(r.stderr).toContain('pass --public-origin "https://example.com/docs/15/"');
    expect(r.stderr.trim().split('\n')[0]).not.toMatch(/^\s+at /);
    expect(s.requests).toEqual([]);
  });

  it('resume with corrected output options rewrites the output without a single request (robots.txt included)', async () => {
    const s = await site(pages(3));
    const o = setup({ start: `${s.origin}/`, publicOrigin: 'https://example.com' });
    await crawl(o);
    expect(locs(o.outDir)).toContain('https://example.com/p0');
    const asked = s.requests.length;
    const r = await crawl({ ...o, resume: true, publicOrigin: 'https://example.com/docs/15/' });
    expect(s.requests.length).toBe(asked);
    expect(r.stats.requests).toBe(0);
    expect(r.complete).toBe(true);
    expect(locs(o.outDir).sort()).toEqual(
      ['', 'p0', 'p1', 'p2'].map((p) => `https://example.com/docs/15/${p}`).sort(),
    );
    // Even when the crawled site is gone by now.
    await s.close();
    servers.splice(servers.indexOf(s), 1);
    const again = await crawl({ ...o, resume: true, publicOrigin: 'https://www.example.com' });
    expect(again.stats.listed).toBe(4);
    expect(locs(o.outDir)).toContain('https://www.example.com/p1');
  });
});

describe('--public-origin takes a base URL', () => {
  it('http://127.0.0.1:PORT/ publishes as https://example.com/docs/15/; links to the published site map back', async () => {
    const s = await site({
      '/': html(
        'Home',
        '<a href="https://example.com/docs/15/about">about</a><a href="https://example.com/other">other</a>',
        '<link rel="canonical" href="https://example.com/docs/15/">',
      ),
      '/about': html('About', '', '<link rel="canonical" href="https://example.com/docs/15/about">'),
    });
    for (const publicOrigin of ['https://example.com/docs/15/', 'https://example.com/docs/15']) {
      const o = setup({ start: `${s.origin}/`, publicOrigin });
      const r = await crawl(o);
      expect(locs(o.outDir).sort()).toEqual([
        'https://example.com/docs/15/',
        'https://example.com/docs/15/about',
      ]);
      expect(r.sitemaps!.entry.url).toBe('https://example.com/docs/15/sitemap.xml');
      // Outside the published base: another site, never fetched.
      expect(s.hits('/other')).toBe(0);
      expect(s.hits('/docs/15/about')).toBe(0);
    }
    expect(s.hits('/about')).toBe(2);
  });

  it('a query, a fragment or credentials are still refused', async () => {
    for (const publicOrigin of ['https://example.com/?a=1', 'https://u:p@example.com/']) {
      const e = await crawl(setup({ start: 'http://127.0.0.1:9/', publicOrigin })).catch((x: unknown) => x);
      expect(isSitemapkitError(e, 'ERR_OPTIONS')).toBe(true);
    }
  });
});

describe('state of a finished crawl, and where a library call writes', () => {
  it("a finished crawl's state is started over by the next crawl, without fresh (a weekly cron job)", async () => {
    const s = await site(pages(2));
    const o = setup({ start: `${s.origin}/` });
    await crawl(o);
    const seen: Diagnostic[] = [];
    const r = await crawl({ ...o, onDiagnostic: (d) => seen.push(d) });
    expect(r.stats.listed).toBe(3);
    expect(s.hits('/')).toBe(2);
    expect(seen.map((d) => d.code)).toContain('crawl-state-restarted');
  });

  it('without state and report, a library crawl writes only outDir (breaking: no ./.sitemapkit, no ./sitemapkit-report)', async () => {
    const s = await site(pages(2));
    const dir = tempDir('sk-crawl-publish');
    const r = await crawl({ start: `${s.origin}/`, outDir: join(dir, 'out') });
    expect(r.state).toBeUndefined();
    expect(r.report).toBeUndefined();
    expect(r.stats.listed).toBe(3);
    expect(existsSync(join(process.cwd(), '.sitemapkit', stateNameFor(`${s.origin}/`)))).toBe(false);
    // Twice in a row: nothing was left behind to refuse the second.
    expect((await crawl({ start: `${s.origin}/`, outDir: join(dir, 'out') })).stats.listed).toBe(3);
    const e = await crawl({ start: `${s.origin}/`, outDir: join(dir, 'out'), resume: true }).catch(
      (x: unknown) => x,
    );
    expect(isSitemapkitError(e, 'ERR_OPTIONS')).toBe(true);
  });
});

describe('findings name their page', () => {
  it("the writer's findings name the URL, not a record number; the CLI prints the page of every finding", async () => {
    const s = await site({
      '/docs/': html('Docs', '<a href="/elsewhere">e</a><a href="/docs/bad">b</a>'),
      '/docs/bad': html('Bad', '', '<link rel="canonical" href="mailto:x@example.com">'),
      '/elsewhere': html('Elsewhere'),
    });
    const seen: Diagnostic[] = [];
    const o = setup({
      start: `${s.origin}/docs/`,
      baseUrl: `${s.origin}/docs/`,
      onDiagnostic: (d) => seen.push(d),
    });
    await crawl(o);
    const outside = seen.find((d) => d.code === 'url-outside-location');
    expect(outside).toMatchObject({ url: `${s.origin}/elsewhere` });
    expect(outside?.record).toBeUndefined();
    const dir = tempDir('sk-crawl-publish');
    const r = await cli([
      'crawl',
      `${s.origin}/docs/`,
      '--base-url',
      `${s.origin}/docs/`,
      '--out',
      join(dir, 'out'),
      '--state',
      join(dir, 'state.db'),
      '--no-report',
    ]);
    expect(r.code).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines.find((l) => l.includes('url-outside-location'))).not.toMatch(/record \d/);
    expect(lines.find((l) => l.includes('canonical-ignored'))).toMatch(
      new RegExp(`^${s.origin.replace(/\./g, '\\.')}/docs/bad: warning canonical-ignored`),
    );
  });

  it('lastmod has one form in a crawl: UTC with Z, from Last-Modified or a page-given offset alike', async () => {
    const date = new Date().toUTCString();
    const ld = (v: string): string => `<script type="application/ld+json">{"dateModified":"${v}"}</script>`;
    const s = await site({
      '/': html('Home', '<a href="/a">a</a><a href="/b">b</a><a href="/c">c</a><a href="/d">d</a>'),
      '/a': html('A', '', ld('2024-02-03T04:05:06+00:00')),
      '/b': {
        headers: { 'content-type': 'text/html', 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT', date },
        body: '<title>B</title>',
      },
      '/c': html('C', '', ld('2024-02-03T06:05:06.250+02:00')),
      '/d': html('D', '', ld('2024-02-03')),
    });
    const o = setup({ start: `${s.origin}/` });
    await crawl(o);
    const xml = readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8');
    const lastmods = [...xml.matchAll(/<loc>[^<]*\/(\w?)<\/loc><lastmod>([^<]*)</g)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(lastmods)).toEqual({
      a: '2024-02-03T04:05:06Z',
      b: '2024-01-01T00:00:00Z',
      c: '2024-02-03T04:05:06Z',
      d: '2024-02-03',
    });
    // A state written by an earlier release holds the page's own form: resuming writes one form too.
    const db = new Database(o.state as string);
    db.prepare("UPDATE urls SET lastmod = '2024-02-03T04:05:06+00:00' WHERE url LIKE '%/a'").run();
    db.close();
    await crawl({ ...o, resume: true });
    expect(readFileSync(join(o.outDir, 'sitemap.xml'), 'utf8')).toContain(
      `<loc>${s.origin}/a</loc><lastmod>2024-02-03T04:05:06Z</lastmod>`,
    );
  });
});
