// Defects found in the first release of the crawler, each pinned by a test that failed before its
// fix: against real servers on 127.0.0.1 and a real state file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { crawl } from '../../src/crawler/crawl.js';
import type { CrawlOptions } from '../../src/crawler/options.js';
import { CrawlState } from '../../src/crawler/state.js';
import { html, type Route, type TestServer as Site, startServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

async function site(routes: Record<string, Route>): Promise<Site> {
  const s = await startServer(routes);
  sites.push(s);
  return s;
}

function setup(
  extra: Partial<CrawlOptions> & { start: string | string[] },
): CrawlOptions & { dir: string; state: string; report: string } {
  const dir = tempDir('sk-crawl-defects');
  return {
    outDir: join(dir, 'out'),
    retryBaseMs: 1,
    ...extra,
    dir,
    state: join(dir, 'state.db'),
    report: join(dir, 'report'),
  };
}

function verdicts(reportDir: string): Map<string, Record<string, unknown>> {
  const rows = readFileSync(join(reportDir, 'urls.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return new Map(rows.map((r) => [String(r['url']), r]));
}

const ROBOTS = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

describe('--fresh and the state lock', () => {
  it('refuses a state that another crawl holds, and leaves that state intact', async () => {
    const s = await site({ '/robots.txt': ROBOTS, '/': html('Home') });
    const o = setup({ start: `${s.origin}/` });
    await crawl(o);
    const other = await CrawlState.open(o.state, 'resume');
    try {
      const error = await crawl({ ...o, fresh: true }).catch((e: unknown) => e);
      expect(isSitemapkitError(error, 'ERR_STATE')).toBe(true);
      expect((error as Error).message).toMatch(/in use/);
      // The holder's file is still the one on disk, with its rows.
      expect(other.find(`${s.origin}/`)?.verdict).toBe('listed');
      expect(other.getMeta('status')).toBe('complete');
    } finally {
      other.close();
    }
    const reopened = await CrawlState.open(o.state, 'resume');
    expect(reopened.find(`${s.origin}/`)?.verdict).toBe('listed');
    reopened.close();
    // Once free, --fresh starts over: the page is fetched again.
    await crawl({ ...o, fresh: true });
    expect(s.hits('/')).toBe(2);
  });

  it('--fresh replaces a file that is not a crawl state at all', async () => {
    const s = await site({ '/robots.txt': ROBOTS, '/': html('Home') });
    const o = setup({ start: `${s.origin}/` });
    writeFileSync(o.state, 'not a database, just some text that is long enough '.repeat(20));
    const r = await crawl({ ...o, fresh: true });
    expect(r.stats.listed).toBe(1);
    expect(existsSync(o.state)).toBe(true);
  });
});

describe('X-Robots-Tag sent as several header lines', () => {
  it('a directive without an agent after an agent line applies to every crawler', async () => {
    const s = await site({
      '/robots.txt': ROBOTS,
      '/': html('Home', '<a href="/hidden">h</a><a href="/agent-only">a</a>'),
      '/hidden': (_req, res) => {
        res.setHeader('content-type', 'text/html');
        res.setHeader('x-robots-tag', ['otherbot: nofollow', 'noindex']);
        res.end('<title>Hidden</title>');
      },
      '/agent-only': (_req, res) => {
        res.setHeader('content-type', 'text/html');
        res.setHeader('x-robots-tag', ['noarchive', 'otherbot: noindex']);
        res.end('<title>Agent</title>');
      },
    });
    const o = setup({ start: `${s.origin}/` });
    await crawl(o);
    const v = verdicts(o.report);
    expect(v.get(`${s.origin}/hidden`)?.['verdict']).toBe('noindex');
    expect(v.get(`${s.origin}/hidden`)?.['reason']).toBe('noindex in X-Robots-Tag');
    // otherbot is not one of the agents the sitemap is for: its noindex does not count.
    expect(v.get(`${s.origin}/agent-only`)?.['verdict']).toBe('listed');
  });
});

describe('depth', () => {
  it('a URL first found too deep and later found shallower is crawled', async () => {
    const s = await site({
      '/robots.txt': ROBOTS,
      '/fast': html('Fast', '<a href="/a">a</a>'),
      '/a': html('A', '<a href="/x">x</a>'),
      // The second start page answers late: /x is first seen at depth 2 (too deep) through /a.
      '/slow': { ...html('Slow', '<a href="/x">x</a>'), delayMs: 300 },
      '/x': html('X'),
    });
    const o = setup({ start: [`${s.origin}/fast`, `${s.origin}/slow`], maxDepth: 1, concurrency: 2 });
    const r = await crawl(o);
    const x = verdicts(o.report).get(`${s.origin}/x`);
    expect(x?.['verdict']).toBe('listed');
    expect(x?.['depth']).toBe(1);
    expect(s.hits('/x')).toBe(1);
    expect(r.stats.listed).toBe(4);
    expect(r.stats.queued).toBe(0);
  });

  it('sitemap seeds are entry points: --max-depth does not keep them out; their links count from them', async () => {
    const s = await site({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n',
      },
      '/': html('Home', '<a href="/linked">l</a>'),
      '/linked': html('Linked', '<a href="/linked-child">c</a>'),
      '/linked-child': html('Linked child'),
      '/orphan': html('Orphan', '<a href="/orphan-child">c</a><a href="/orphan-child-2">c</a>'),
      '/orphan-child': html('Orphan child', '<a href="/orphan-grandchild">g</a>'),
      '/orphan-child-2': html('Orphan child 2'),
      '/orphan-grandchild': html('Orphan grandchild'),
      '/sitemap.xml': (req, res) => {
        const origin = `http://${req.headers.host}`;
        res.setHeader('content-type', 'application/xml');
        res.end(
          `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/orphan</loc></url><url><loc>${origin}/linked</loc></url></urlset>`,
        );
      },
    });
    const o = setup({ start: `${s.origin}/`, maxDepth: 1, seedSitemaps: true });
    await crawl(o);
    const v = verdicts(o.report);
    // Linked from the start page: its link depth (1), not a seed depth.
    expect(v.get(`${s.origin}/linked`)?.['depth']).toBe(1);
    expect(v.get(`${s.origin}/linked-child`)?.['verdict']).toBe('too-deep');
    // Only in the sitemap: depth 0, like a start URL; its links are depth 1 and crawled.
    expect(v.get(`${s.origin}/orphan`)?.['verdict']).toBe('listed');
    expect(v.get(`${s.origin}/orphan`)?.['depth']).toBe(0);
    expect(v.get(`${s.origin}/orphan-child`)?.['verdict']).toBe('listed');
    expect(v.get(`${s.origin}/orphan-grandchild`)?.['verdict']).toBe('too-deep');
  });

  it('a sitemap seed a link reaches once the link frontier ran dry is crawled at its link depth, not as an entry point (crawl --audit saw /l6 at depth 0)', async () => {
    const chain = ['/c1', '/c2', '/c3', '/c4', '/c5'];
    const s = await site({
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n',
      },
      '/': html('Home', '<a href="/c1">1</a>'),
      ...Object.fromEntries(
        chain.map((p, i) => [p, html(p, i + 1 < chain.length ? `<a href="${chain[i + 1]}">n</a>` : '')]),
      ),
      '/sitemap.xml': (req, res) => {
        const origin = `http://${req.headers.host}`;
        res.setHeader('content-type', 'application/xml');
        res.end(
          `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${chain.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('')}</urlset>`,
        );
      },
    });
    const o = setup({ start: `${s.origin}/`, seedSitemaps: true });
    await crawl(o);
    const v = verdicts(o.report);
    expect(chain.map((p) => v.get(`${s.origin}${p}`)?.['depth'])).toEqual([1, 2, 3, 4, 5]);
  });
});
