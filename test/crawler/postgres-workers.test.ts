/**
 * Four worker processes share one crawl through a real PostgreSQL (a throwaway cluster): every
 * reachable page is fetched exactly once, exactly one worker writes the output, and the sitemap
 * is the one a single-process SQLite crawl of the same site writes.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import { openPostgresCrawl } from '../../src/crawler/frontier-postgres-read.js';
import { html, startServer, type TestServer } from '../support/http-server.js';
import { usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import {
  countingSite,
  pageHits,
  resultOf,
  sitemapUrls,
  siteRoutes,
  startWorker,
} from './postgres-helpers.js';

const pg = usePostgres();
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('a crawl shared by four workers through PostgreSQL', () => {
  it('fetches every reachable page once, and one worker writes the sitemap a single-process crawl writes', async () => {
    const site = await countingSite(120);
    servers.push(site);
    const dir = tempDir('sk-pgw');
    const common = { start: site.url, outDir: join(dir, 'out'), report: join(dir, 'report'), retryBaseMs: 1 };
    const workers = [1, 2, 3, 4].map((i) =>
      startWorker({
        ...common,
        state: pg().url,
        crawlId: 'four',
        workerId: `w${i}`,
        leaseSeconds: 30,
        concurrency: 2,
      }),
    );
    const ends = await Promise.all(workers.map((w) => w.done));
    for (const e of ends)
      expect(e.code, e.stderr + e.lines.filter((l) => !l.startsWith('page ')).join('\n')).toBe(0);
    const results = ends.map((e) => resultOf(e.lines));
    expect(results.filter((r) => r.worker.wroteOutput)).toHaveLength(1);
    expect(results.every((r) => r.complete)).toBe(true);
    // One robots.txt fetch for the whole crawl, not one per worker.
    expect(site.hits('/robots.txt')).toBe(1);
    const hits = pageHits(site);
    const twice = [...hits].filter(([, n]) => n !== 1).map(([p]) => p);
    const who = twice.map((p) => [
      p,
      ends.map((e, i) => e.lines.filter((l) => l === `page ${site.origin}${p}`).length + i * 10),
    ]);
    expect(
      twice,
      JSON.stringify(who) + JSON.stringify(site.requests.filter((r) => twice.includes(r.path))),
    ).toEqual([]);
    // Each page recorded once over the workers: the fetched ones as pages, and apart /private/x,
    // which robots.txt refuses (finished without a fetch).
    expect(results.reduce((a, r) => a + r.worker.pages, 0)).toBe(hits.size);
    expect(results.reduce((a, r) => a + r.worker.withoutFetch, 0)).toBe(1);

    const single = await countingSite(120);
    servers.push(single);
    await crawl({
      start: single.url,
      outDir: join(dir, 'single'),
      retryBaseMs: 1,
      publicOrigin: site.origin,
    });
    expect(sitemapUrls(join(dir, 'out'))).toEqual(sitemapUrls(join(dir, 'single')));
    expect(sitemapUrls(join(dir, 'out')).length).toBeGreaterThan(90);

    const c = await openPostgresCrawl(pg().url, 'four');
    try {
      const s = await c.status();
      expect(s).toMatchObject({
        exists: true,
        status: 'complete',
        queued: 0,
        leased: 0,
        finisher: expect.any(String),
      });
      expect(s.done).toBe(s.total);
      expect(s.workers.map((w) => [w.id, w.alive, w.ended]).sort()).toEqual([
        ['w1', false, 'done'],
        ['w2', false, 'done'],
        ['w3', false, 'done'],
        ['w4', false, 'done'],
      ]);
    } finally {
      await c.close();
    }
  });

  it("reads the site's sitemaps once (seedSitemaps) and crawls a page only a sitemap lists", async () => {
    const routes = siteRoutes(30, 'User-agent: *\nDisallow: /private/\nSitemap: /sitemap.xml\n');
    const site = await startServer(routes);
    servers.push(site);
    routes['/orphan'] = html('Orphan', '<a href="/">home</a>');
    routes['/sitemap.xml'] = {
      headers: { 'content-type': 'application/xml' },
      body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${site.origin}/orphan</loc></url></urlset>`,
    };
    const dir = tempDir('sk-pgs');
    const ends = await Promise.all(
      [1, 2, 3].map(
        (i) =>
          startWorker({
            start: site.url,
            outDir: join(dir, 'out'),
            state: pg().url,
            crawlId: 'seeded',
            workerId: `w${i}`,
            seedSitemaps: true,
            retryBaseMs: 1,
          }).done,
      ),
    );
    for (const e of ends) expect(e.code, e.stderr).toBe(0);
    // One worker read them: discovery probes the well-known path, then the reader reads it (three
    // workers reading would make six requests).
    expect(site.hits('/sitemap.xml')).toBe(2);
    expect(site.hits('/orphan')).toBe(1);
    const twice = [...pageHits(site)].filter(([p, n]) => p !== '/sitemap.xml' && n !== 1);
    expect(twice).toEqual([]);
    expect(sitemapUrls(join(dir, 'out')).some((u) => u.includes(`${site.origin}/orphan<`))).toBe(true);
  });

  it('records a link too long for an index entry, and tells two such links apart', async () => {
    const long = (c: string) => `/long?q=${c.repeat(3000)}`;
    const site = await startServer({
      '/robots.txt': { body: '' },
      '/': html('Home', `<a href="${long('a')}">a</a><a href="${long('b')}">b</a>`),
    });
    servers.push(site);
    const dir = tempDir('sk-pgl');
    const r = await crawl({
      start: site.url,
      outDir: join(dir, 'out'),
      state: pg().url,
      crawlId: 'long',
      retryBaseMs: 1,
    });
    expect(r.worker?.wroteOutput).toBe(true);
    expect(r.stats.found).toBe(3);
    expect(site.requests.filter((q) => q.path.startsWith('/long')).length).toBe(2);
  });
});
