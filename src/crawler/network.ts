/**
 * The crawler's network: one HTTP client for the whole crawl (pages, robots.txt and sitemap
 * seeds), so one keep-alive pool, or the user's `fetch` or undici `Dispatcher` for every request,
 * and one address policy. The start URLs are the client's starts: the caller's headers and basic
 * auth go to their origins only, whoever asks (robots.txt too).
 */
import { HttpClient } from '../http/client.js';
import { isHtmlType } from '../page/verdict.js';
import { RobotsCache } from '../robots/fetch.js';
import { fetchPage, type PageResponse } from './fetch-page.js';
import type { ResolvedCrawlOptions } from './options.js';

export interface CrawlNetwork {
  /** For robots.txt and sitemaps, and the pages. */
  client: HttpClient;
  robots: RobotsCache;
  /** One GET of a page (conditional, with a recrawl's validators). */
  page(url: string, conditional?: Readonly<Record<string, string>>): Promise<PageResponse>;
  close(): Promise<void>;
}

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
};

const bodyFor = (status: number, type: string): 'html' | 'skip' =>
  status === 200 && isHtmlType(type) ? 'html' : 'skip';

/** `fingerprint`: fingerprint the main text of HTML pages (a recrawl's, src/page/main-text.ts). */
export function openNetwork(o: ResolvedCrawlOptions, fingerprint: boolean): CrawlNetwork {
  const own = o.httpClient === undefined;
  const client =
    o.httpClient ??
    new HttpClient({
      fetch: o.fetch,
      dispatcher: o.dispatcher,
      userAgent: o.userAgent,
      headers: o.headers,
      addressPolicy: o.addressPolicy,
      // As many connections per origin as requests may run on it.
      connections: o.hostConcurrency,
    });
  for (const start of o.startUrls) client.start(start);
  const robots = new RobotsCache({
    httpClient: client,
    timeoutMs: Math.min(o.timeoutMs, 30_000),
    now: o.now,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });
  const page = {
    client,
    headers: PAGE_HEADERS,
    timeoutMs: o.timeoutMs,
    maxBytes: o.maxPageBytes,
    signal: o.signal,
    bodyFor,
    fingerprint,
    // A page to render is handed to the browser as it was read: the browser asks for it no more.
    keepText: o.render.mode !== false,
  };
  // Closed once: the crawl closes it when its last page is done (the output needs no network),
  // and again, as a no-op, on its way out.
  let closed: Promise<void> | undefined;
  return {
    client,
    robots,
    page: (url, conditional) => fetchPage(url, page, conditional),
    close: () => {
      closed ??= own ? client.close() : Promise.resolve();
      return closed;
    },
  };
}
