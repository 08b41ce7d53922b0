/**
 * A rendering crawl keeps the host's rate for the requests a page's scripts make: the page below
 * asks six APIs at once, and with `rate: 2` the server (in its own process, test/support/timed-site.mjs)
 * must never see seven requests within one second, pages, scripts' calls and robots.txt together.
 * Paced, seven requests span three seconds: the browser would have to hold them back two seconds
 * and then send them together to fail on a loaded machine; unpaced, they arrive at once.
 * Before the scripts' requests were paced, the six calls arrived together with their page. The
 * same holds for a crawl shared through PostgreSQL, where the calls claim send slots in the database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import { usePostgres } from '../support/postgres.js';
import { bursts, startTimedSite, type TimedSite } from '../support/timed-site.js';
import { tempDir } from '../support/tmp.js';

const pg = usePostgres();
const sites: TimedSite[] = [];
afterEach(() => {
  for (const s of sites.splice(0)) s.close();
});

/** Crawls the application with rendering at rate 2 and checks what the server saw; returns the site. */
async function crawlApp(state?: { url: string; crawlId: string }): Promise<TimedSite> {
  const site = await startTimedSite('app');
  sites.push(site);
  const dir = tempDir('render-rate');
  await crawl({
    start: `${site.origin}/`,
    outDir: join(dir, 'out'),
    render: true,
    rate: 2,
    concurrency: 4,
    ...(state === undefined ? {} : { state: state.url, crawlId: state.crawlId }),
  });
  const sitemap = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
  const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname).sort();
  // The script's answers are the only way to the pages: they were rendered, so the calls were made.
  expect(listed).toEqual(['/', '/p/1', '/p/2', '/p/3', '/p/4', '/p/5', '/p/6']);
  const arrivals = await site.arrivals();
  // robots.txt, the seven pages and the six calls.
  expect(arrivals).toHaveLength(14);
  expect(bursts(arrivals)).toEqual([]);
  return site;
}

describe('a rendering crawl at rate 2', () => {
  it("spaces the requests of a page's script like the pages", async () => {
    await crawlApp();
  });

  it('spaces them across a crawl shared through PostgreSQL, by send slots in the database', async () => {
    const site = await crawlApp({ url: pg().url, crawlId: 'render' });
    const slots = (
      await pg().query<{ ms: number }>(
        'SELECT (extract(epoch FROM at) * 1000)::float8 AS ms FROM crawl_render.sends WHERE origin = $1 ORDER BY at',
        [site.origin],
      )
    ).rows.map((r) => r.ms);
    // A slot for each page and each call (robots.txt takes none), and one more for a late wake-up.
    expect(slots.length).toBeGreaterThanOrEqual(13);
    const gaps = slots.slice(1).map((t, i) => t - slots[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(499.999);
  });
});
