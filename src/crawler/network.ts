/**
 * The crawler's network, set up in one place so that it can be replaced as a whole (by the shared
 * HTTP layer, later): the `fetch` for robots.txt and sitemaps, the robots.txt cache, and page
 * requests over undici's keep-alive pool (or the user's `fetch`). Custom headers and basic auth go
 * to the start origins only, whoever asks (robots.txt too).
 */

import { isHtmlType } from '../page/verdict.js';
import { type FetchLike, RobotsCache } from '../robots/fetch.js';
import { fetchPage, type PageResponse, type PageTransport } from './fetch-page.js';
import { originOf } from './normalize-url.js';
import type { ResolvedCrawlOptions } from './options.js';

export interface CrawlNetwork {
  /** For robots.txt and sitemaps. */
  fetch: FetchLike;
  robots: RobotsCache;
  /** One GET of a page (`origin` is the URL's origin, known to the caller). */
  page(url: string, origin: string): Promise<PageResponse>;
  close(): Promise<void>;
}

const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5';

export async function openNetwork(o: ResolvedCrawlOptions): Promise<CrawlNetwork> {
  const fetchFor: FetchLike = (input, init) => {
    const extra = o.originHeaders.get(originOf(input));
    if (extra === undefined || Object.keys(extra).length === 0) return o.fetch(input, init);
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    return o.fetch(input, { ...init, headers });
  };
  const robots = new RobotsCache({
    fetch: fetchFor,
    userAgent: o.userAgent,
    timeoutMs: Math.min(o.timeoutMs, 30_000),
    now: o.now,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });
  let transport: PageTransport;
  let close = async (): Promise<void> => {};
  if (o.customFetch) {
    transport = { kind: 'fetch', fetch: fetchFor };
  } else {
    // One keep-alive pool for the pages: as many connections per origin as requests may run on it.
    const { Agent, request } = await import('undici');
    const agent = new Agent({ connections: o.hostConcurrency, keepAliveTimeout: 10_000 });
    transport = { kind: 'pool', dispatcher: agent, request };
    close = () => agent.destroy().catch(() => undefined);
  }
  const headers = new Map<string, Readonly<Record<string, string>>>();
  const headersFor = (origin: string): Readonly<Record<string, string>> => {
    let h = headers.get(origin);
    if (h === undefined) {
      h = { 'user-agent': o.userAgent, accept: ACCEPT, ...o.originHeaders.get(origin) };
      headers.set(origin, h);
    }
    return h;
  };
  return {
    fetch: fetchFor,
    robots,
    page: (url, origin) =>
      fetchPage(url, {
        transport,
        headers: headersFor(origin),
        timeoutMs: o.timeoutMs,
        maxBytes: o.maxPageBytes,
        signal: o.signal,
        bodyFor: (status, type) => (status === 200 && isHtmlType(type) ? 'html' : 'skip'),
      }),
    close: () => close(),
  };
}
