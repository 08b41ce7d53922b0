/**
 * The sitemap entries of a finished crawl, read from its state: the listed pages with their
 * lastmod, images, alternates and title, moved to `--public-origin`, with the priority by depth.
 */
import type { EntryInput } from '../core/entry.js';
import { ImageFilter } from '../page/image-filter.js';
import type { ResolvedCrawlOptions } from './options.js';
import type { UrlRecord } from './records.js';
import type { CrawlState } from './state.js';

/** Rewrites a URL of `from` (an origin) to `to`; other URLs are returned as they are. */
export function rewriteOrigin(url: string, from: string, to: string | undefined): string {
  if (to === undefined || from === to) return url;
  if (url === from || url.startsWith(`${from}/`) || url.startsWith(`${from}?`))
    return to + url.slice(from.length);
  return url;
}

/**
 * The priority of a page `depth` link hops from a start URL, from a table indexed by depth whose
 * last value applies to every deeper page (`[1, 0.8, 0.5, 0.3]` by default).
 */
export function priorityForDepth(depth: number, table: readonly number[]): number | undefined {
  if (table.length === 0) return undefined;
  return table[Math.min(depth, table.length - 1)];
}

interface Extra {
  images?: string[];
  alternates?: Array<{ hreflang: string; href: string }>;
}

/** What a listed page's sitemap entry is made of, by position (read as arrays: no object a page). */
type ListedRow = [
  url: string,
  depth: number,
  lastmod: string | null,
  title: string | null,
  extra: string | null,
  changedAt: string | null,
];
const LISTED_COLUMNS = 'url, depth, lastmod, title, extra, changed_at';

/**
 * The listed pages as entries. A template's images (on more than `images.maxShare` of the listed
 * pages) are known only after every page, so the pages are read twice from the state (cheap: one
 * SQLite scan) rather than held in memory.
 */
export function* sitemapEntries(state: CrawlState, o: ResolvedCrawlOptions): Generator<EntryInput> {
  const from = o.origins[0]!;
  const rw = (u: string): string => rewriteOrigin(u, from, o.publicOrigin);
  const filter = new ImageFilter(o.images);
  if (filter.needsCounts) {
    // The counting pass reads one column, the writing pass the six it uses: at a million pages
    // every column read and converted was seconds between the last page and the sitemaps.
    for (const [extra] of state.listed<[string | null]>('extra', true)) {
      if (extra === null) filter.count([]);
      else filter.count((JSON.parse(extra) as Extra).images ?? []);
    }
  }
  for (const [url, depth, lastmodOwn, title, extra, changedAt] of state.listed<ListedRow>(
    LISTED_COLUMNS,
    true,
  )) {
    const e: EntryInput = { loc: rw(url) };
    // Honest lastmod: the page's own trustworthy date, else when a recrawl saw its text change
    // (never the crawl date: a first crawl gives none).
    const lastmod = publishedLastmod({ lastmod: lastmodOwn, changedAt });
    if (lastmod !== undefined) e.lastmod = lastmod;
    if (o.changefreq !== undefined) e.changefreq = o.changefreq;
    if (o.priorityMap !== undefined) {
      const p = priorityForDepth(depth, o.priorityMap);
      if (p !== undefined) e.priority = p;
    }
    if (title !== null) e.title = title;
    if (extra !== null) {
      const x = JSON.parse(extra) as Extra;
      const images = x.images === undefined ? [] : filter.keep(x.images);
      if (images.length > 0) e.images = images.map(rw);
      if (x.alternates !== undefined)
        e.alternates = x.alternates.map((a) => ({ hreflang: a.hreflang, href: rw(a.href) }));
    }
    yield e;
  }
}

/** The lastmod a listed page is published with: its own date, else the last observed change. */
export function publishedLastmod(r: Pick<UrlRecord, 'lastmod' | 'changedAt'>): string | undefined {
  return r.lastmod ?? r.changedAt ?? undefined;
}

/** Hosts other than the sitemap's own whose pages were listed (they must cross-submit). */
export function otherHosts(state: CrawlState, o: ResolvedCrawlOptions): string[] {
  if (o.hosts.length === 0 && !o.subdomains && o.origins.length === 1) return [];
  const own = new URL(o.baseUrl).host;
  const hosts = new Set<string>();
  const from = o.origins[0]!;
  for (const r of state.listed<{ url: string }>('url')) {
    const h = new URL(rewriteOrigin(r.url, from, o.publicOrigin)).host;
    if (h !== own) hosts.add(h);
  }
  return [...hosts];
}
