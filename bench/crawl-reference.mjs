// The reference breadth-first crawl for the coverage figure: every same-site, in-mount HTML page
// reachable by <a href> links from the start URL, fetched plainly (no robots, no politeness).
// Prints one URL a line (normalised like sitemapkit does, so the sets compare).
import { normalizeCrawlUrl } from '../dist/crawler/index.js';
import { readPageMeta } from '../dist/page/index.js';

const [start, mount = '/'] = process.argv.slice(2);
const origin = new URL(start).origin;
const seen = new Set([normalizeCrawlUrl(start)]);
let frontier = [...seen];
const pages = [];
while (frontier.length > 0) {
  const next = [];
  for (let i = 0; i < frontier.length; i += 16) {
    await Promise.all(
      frontier.slice(i, i + 16).map(async (url) => {
        const res = await fetch(url, { redirect: 'manual' });
        const type = res.headers.get('content-type') ?? '';
        if (res.status !== 200 || !type.startsWith('text/html')) {
          await res.body?.cancel();
          return;
        }
        pages.push(url);
        const meta = readPageMeta(await res.text());
        const base = meta.baseHref ? new URL(meta.baseHref, url).href : url;
        for (const l of meta.links) {
          const n = normalizeCrawlUrl(l.href, base);
          if (n === undefined || !n.startsWith(origin + mount) || seen.has(n)) continue;
          seen.add(n);
          next.push(n);
        }
      }),
    );
  }
  frontier = next;
}
process.stdout.write(`${pages.join('\n')}\n`);
