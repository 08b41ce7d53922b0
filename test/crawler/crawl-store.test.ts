import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import type { CrawlOptions } from '../../src/crawler/options.js';
import { cli } from '../support/cli.js';
import { answer, html, type Route, type TestServer as Site, startServer } from '../support/http-server.js';
import { usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';

const sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});
beforeAll(() => assertXmllint());

const ROBOTS: Route = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };
const T1 = Date.parse('2026-11-20T08:00:00Z');
const T2 = Date.parse('2026-11-21T08:00:00Z');
const T3 = Date.parse('2026-11-22T08:00:00Z');
const T4 = Date.parse('2026-11-23T08:00:00Z');
const N = 24;

/**
 * A home page linking `N` pages. `text[i]` changes page i's main text; `status[i]` makes it answer
 * that status instead (404 gone, 503 down).
 */
async function livingSite(): Promise<{ s: Site; text: Map<number, string>; status: Map<number, number> }> {
  const text = new Map<number, string>();
  const status = new Map<number, number>();
  const routes: Record<string, Route> = { '/robots.txt': ROBOTS };
  routes['/'] = html('Home', Array.from({ length: N }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
  for (let i = 0; i < N; i++) {
    routes[`/p${i}`] = answer(() => {
      const st = status.get(i);
      if (st !== undefined) return { status: st, body: 'no' };
      return html(`Page ${i}`, `<p>Page ${i}: ${text.get(i) ?? 'first'}</p>`);
    });
  }
  const s = await startServer(routes);
  sites.push(s);
  return { s, text, status };
}

function options(s: Site, dir: string, at: number, extra: Partial<CrawlOptions> = {}): CrawlOptions {
  return {
    start: `${s.origin}/`,
    outDir: join(dir, 'out'),
    state: join(dir, 'state.db'),
    report: false,
    retries: 0,
    recrawl: true,
    store: join(dir, 'store.db'),
    sitemaps: { maxUrlsPerFile: 5 },
    now: () => at,
    ...extra,
  } as CrawlOptions;
}

/** The published XML files by name, with their bytes; each one valid against its XSD. */
function published(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(join(dir, 'out')).sort()) {
    if (!f.endsWith('.xml')) continue;
    const path = join(dir, 'out', f);
    expect(xmllint(path), f).toMatchObject({ ok: true });
    out.set(f, readFileSync(path, 'utf8'));
  }
  return out;
}

function changedFiles(a: Map<string, string>, b: Map<string, string>): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].filter((f) => a.get(f) !== b.get(f)).sort();
}

/** path → lastmod (or null) of every <url> in the child files. */
function lastmods(files: Map<string, string>): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const [name, xml] of files) {
    if (name === 'sitemap.xml') continue;
    for (const m of xml.matchAll(/<url><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?/g))
      out.set(new URL(m[1]!).pathname, m[2] ?? null);
  }
  return out;
}

function fileOf(files: Map<string, string>, path: string): string {
  for (const [name, xml] of files) if (name !== 'sitemap.xml' && xml.includes(`${path}</loc>`)) return name;
  throw new Error(`${path} is in no file`);
}

describe('crawl published through the store', () => {
  it('a recrawl rewrites exactly the file of a changed page and the index; a gone page leaves its file; the gate refuses a site half gone', async () => {
    const { s, text, status } = await livingSite();
    const dir = tempDir('sk-crawl-store');
    const first = await crawl(options(s, dir, T1, { changes: join(dir, 'c1.jsonl') }));
    expect(first.sitemaps).toBeUndefined();
    expect(first.store).toMatchObject({ urls: N + 1, added: N + 1, changed: 0, removed: 0 });
    const v1 = published(dir);
    // 25 URLs, 5 a file: five children and the index; a first crawl claims no change time.
    expect(v1.size).toBe(6);
    expect([...lastmods(v1).values()].every((l) => l === null)).toBe(true);
    expect(existsSync(join(dir, 'out/sitemap.html'))).toBe(false);

    // One page's text changes: its file and the index, nothing else; its lastmod is the observation time.
    text.set(12, 'second');
    const second = await crawl(options(s, dir, T2, { changes: join(dir, 'c2.jsonl') }));
    expect(second.stats.changes).toMatchObject({ changed: 1, removed: 0, added: 0 });
    expect(second.store).toMatchObject({ urls: N + 1, added: 0, changed: 1, removed: 0 });
    const v2 = published(dir);
    expect(changedFiles(v1, v2)).toEqual([fileOf(v1, '/p12'), 'sitemap.xml'].sort());
    expect(lastmods(v2).get('/p12')).toBe('2026-11-21T08:00:00Z');
    expect(lastmods(v2).get('/p11')).toBeNull();
    // One change set, the store's: the changed URL and the files it rewrote.
    const c2 = readFileSync(join(dir, 'c2.jsonl'), 'utf8');
    expect(c2).toContain('/p12');
    expect(c2).not.toContain('/p11"');

    // A page is gone (404): it leaves, only its file and the index are rewritten.
    status.set(3, 404);
    const third = await crawl(options(s, dir, T3));
    expect(third.store).toMatchObject({ urls: N, removed: 1 });
    const v3 = published(dir);
    expect(changedFiles(v2, v3)).toEqual([fileOf(v2, '/p3'), 'sitemap.xml'].sort());
    expect(lastmods(v3).has('/p3')).toBe(false);

    // Most of the site answers 404 or 503: the 404s would drop far more than 10%; nothing is published.
    for (let i = 0; i < N; i++) if (i !== 3) status.set(i, i % 2 === 0 ? 404 : 503);
    await expect(crawl(options(s, dir, T4))).rejects.toMatchObject({
      code: 'ERR_GATE',
      hint: expect.stringContaining('check the site'),
      message: expect.stringMatching(/\b12 /),
    });
    expect(published(dir)).toEqual(v3);
    // Forced: published (the 503s keep their pages, as a recrawl keeps a failing page).
    const forced = await crawl(options(s, dir, T4, { store: { path: join(dir, 'store.db'), force: true } }));
    expect(forced.store).toMatchObject({ removed: 12 });
    expect(lastmods(published(dir)).size).toBe(12);
  });

  it('after a refusal, resume with force publishes without a request; a store of another site is refused before any', async () => {
    const { s, status } = await livingSite();
    const dir = tempDir('sk-crawl-store');
    await crawl(options(s, dir, T1));
    for (let i = 0; i < 8; i++) status.set(i, 410);
    await expect(crawl(options(s, dir, T2))).rejects.toMatchObject({ code: 'ERR_GATE' });
    const asked = s.requests.length;
    const forced = await crawl(
      options(s, dir, T2, {
        recrawl: false,
        resume: true,
        store: { path: join(dir, 'store.db'), force: true },
      }),
    );
    expect(s.requests.length).toBe(asked);
    expect(forced.store).toMatchObject({ urls: N + 1 - 8, removed: 8 });
    expect(lastmods(published(dir)).has('/p0')).toBe(false);
    // The store keeps its base URL: a crawl published elsewhere is refused before it fetches.
    await expect(
      crawl(options(s, dir, T3, { baseUrl: `${s.origin}/other/`, start: `${s.origin}/other/` })),
    ).rejects.toMatchObject({ code: 'ERR_OPTIONS', message: expect.stringContaining('baseUrl') });
    expect(s.requests.length).toBe(asked);
  });

  it('refuses the HTML site map and a bad maxDrop before any request', async () => {
    const { s } = await livingSite();
    const dir = tempDir('sk-crawl-store');
    await expect(crawl(options(s, dir, T1, { sitemaps: { html: true } }))).rejects.toMatchObject({
      code: 'ERR_OPTIONS',
      message: expect.stringContaining('HTML site map'),
    });
    await expect(
      crawl(options(s, dir, T1, { store: { path: join(dir, 'store.db'), maxDrop: 'lots' } })),
    ).rejects.toMatchObject({ code: 'ERR_OPTIONS', message: expect.stringContaining('maxDrop') });
    expect(s.requests).toHaveLength(0);
  });
});

describe('sitemapkit crawl --store', () => {
  it('publishes through the store, says what moved, and exits 1 when the gate refuses', async () => {
    const { s, status } = await livingSite();
    const dir = tempDir('sk-crawl-store-cli');
    const args = [
      `${s.origin}/`,
      '--out',
      join(dir, 'out'),
      '--state',
      join(dir, 'state.db'),
      '--store',
      join(dir, 'store.db'),
      '--no-report',
      '--recrawl',
      '--retries',
      '0',
      '--max-urls',
      '5',
    ];
    const first = await cli(['crawl', ...args]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/through the store .*store\.db: 25 URLs in 6 files/);
    expect(first.stdout).toContain('URLs 25 added, 0 changed, 0 removed; files 6 added');
    expect(first.stdout).toContain('HTML site map: none with --store');
    expect(existsSync(join(dir, 'out/sitemap.html'))).toBe(false);
    for (let i = 0; i < 10; i++) status.set(i, 404);
    const refused = await cli(['crawl', ...args]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^sitemapkit: .*10 .*\[ERR_GATE\]\n {2}check the site .*--force/);
    const forced = await cli(['crawl', ...args, '--max-drop', '50%', '--changes', join(dir, 'c.jsonl')]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('10 removed');
    expect(readFileSync(join(dir, 'c.jsonl'), 'utf8')).toContain('/p0');
  });

  it('refuses --max-drop and --force without --store', async () => {
    const r = await cli(['crawl', 'http://127.0.0.1:9/', '--out', tempDir('sk-x'), '--force']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--force needs --store');
  });
});

describe('crawl with a delta feed, a news window and a lastmod policy', () => {
  it('through the store: the feed lists what the recrawl saw change', async () => {
    const { s, text } = await livingSite();
    const dir = tempDir('sk-crawl-feed');
    const feed = { format: 'atom' as const, size: 3, title: 'Changes' };
    await crawl(options(s, dir, T1, { sitemaps: { maxUrlsPerFile: 5, feed } }));
    expect(existsSync(join(dir, 'out/feed.xml'))).toBe(true);
    text.set(7, 'second');
    await crawl(options(s, dir, T2, { sitemaps: { maxUrlsPerFile: 5, feed } }));
    const atom = readFileSync(join(dir, 'out/feed.xml'), 'utf8');
    expect(atom).toContain('<title>Changes</title>');
    // The one page that changed, at the time its change was first seen.
    expect(
      [...atom.matchAll(/<entry><id>([^<]+)<\/id>.*?<updated>([^<]+)<\/updated>/g)].map((m) => [m[1], m[2]]),
    ).toEqual([[`${s.origin}/p7`, '2026-11-21T08:00:00Z']]);
  });

  it('sitemapkit crawl --feed rss --lastmod-policy drop: one Last-Modified for every page is dropped, the feed is written', async () => {
    const same = 'Mon, 02 Nov 2026 10:00:00 GMT';
    const routes: Record<string, Route> = { '/robots.txt': ROBOTS };
    const page = (title: string, body: string): Route => {
      const a = html(title, body);
      return { ...a, headers: { ...a.headers, 'last-modified': same } };
    };
    routes['/'] = page('Home', Array.from({ length: N }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
    for (let i = 0; i < N; i++) routes[`/p${i}`] = page(`Page ${i}`, `<p>Page ${i}</p>`);
    const site = await startServer(routes);
    sites.push(site);
    const dir = tempDir('sk-crawl-feed-cli');
    const args = ['crawl', `${site.origin}/`, '--out', join(dir, 'out'), '--state', join(dir, 'state.db')];
    const warned = await cli([...args, '--no-report', '--feed', 'rss', '--feed-size', '5']);
    expect(warned.code, warned.stderr).toBe(0);
    expect(warned.stderr).toContain('lastmod-untrustworthy');
    expect(readFileSync(join(dir, 'out/sitemap.xml'), 'utf8')).toContain('<lastmod>');
    const rss = readFileSync(join(dir, 'out/feed.xml'), 'utf8');
    expect(rss).toContain('<rss version="2.0"');
    expect(rss.match(/<item>/g)).toHaveLength(5);
    const dropped = await cli([...args, '--fresh', '--no-report', '--lastmod-policy', 'drop']);
    expect(dropped.code, dropped.stderr).toBe(0);
    expect(readFileSync(join(dir, 'out/sitemap.xml'), 'utf8')).not.toContain('<lastmod>');
    expect(existsSync(join(dir, 'out/feed.xml'))).toBe(false);
    const bad = await cli([...args, '--feed-size', '5']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--feed-size needs --feed atom|rss');
  });
});

describe('crawl published through a PostgreSQL store', () => {
  const server = usePostgres();

  it('keeps the store in a schema, rewrites only the changed file, and never prints the password', async () => {
    const { s, text } = await livingSite();
    const dir = tempDir('sk-crawl-store-pg');
    const store = `${server().url}?schema=crawl_store`;
    const first = await crawl(options(s, dir, T1, { store }));
    expect(first.store).toMatchObject({ urls: N + 1, added: N + 1 });
    const v1 = published(dir);
    expect(v1.size).toBe(6);
    text.set(7, 'second');
    const second = await crawl(options(s, dir, T2, { store }));
    expect(second.store).toMatchObject({ urls: N + 1, changed: 1 });
    const v2 = published(dir);
    expect(changedFiles(v1, v2)).toEqual([fileOf(v1, '/p7'), 'sitemap.xml'].sort());
    expect(lastmods(v2).get('/p7')).toBe('2026-11-21T08:00:00Z');

    // The command line names the store without its password.
    const password = new URL(server().url).password;
    expect(password).not.toBe('');
    const r = await cli([
      'crawl',
      `${s.origin}/`,
      '--out',
      join(dir, 'out'),
      '--state',
      join(dir, 'state.db'),
      '--recrawl',
      '--store',
      store,
      '--no-report',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain(password);
    expect(r.stdout).toMatch(/crawl_store/);
  });
});
