/**
 * Discovery: where a site's sitemaps are. First the `Sitemap:` lines of robots.txt (the robots
 * module parses them: case-insensitive, indented, relative ones resolved against the robots.txt
 * URL), then the well-known paths that answer with something that sniffs as a sitemap.
 */
import { SitemapkitError } from '../core/errors.js';
import { fetchRobotsTxt } from '../robots/fetch.js';
import { fetchBody, type HttpOptions } from './http.js';
import { closeHttp, resolveHttpOptions } from './options.js';
import { makeDiagnostic } from './reporter.js';
import { checkAborted } from './run.js';
import type { DiscoveredSitemap, DiscoverOptions } from './types.js';

/** Paths tried on every site, in this order. */
export const WELL_KNOWN_PATHS: readonly string[] = [
  '/sitemap.xml',
  '/sitemap_index.xml',
  '/sitemap-index.xml',
  '/sitemap.xml.gz',
  '/sitemap.txt',
  '/sitemaps.xml',
  '/feed.xml',
  '/rss.xml',
  '/atom.xml',
  '/feed',
];

/** Bytes read from a well-known path to decide whether it is a sitemap. */
const PROBE_BYTES = 4096;

/**
 * Finds the sitemaps of the site `siteUrl` belongs to: robots.txt `Sitemap:` lines first, then the
 * well-known paths ({@link WELL_KNOWN_PATHS}) that answer 2xx with a sitemap, feed or URL list
 * (not HTML), deduplicated. Reports `discover-none` when there is none. Throws `ERR_OPTIONS` for a
 * URL that is not http(s), `ERR_ABORTED` on abort.
 */
export async function discoverSitemaps(
  siteUrl: string,
  options: DiscoverOptions = {},
): Promise<DiscoveredSitemap[]> {
  let origin: string;
  try {
    const u = new URL(siteUrl);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new TypeError('scheme');
    origin = u.origin;
  } catch (cause) {
    throw new SitemapkitError('ERR_OPTIONS', `"${siteUrl}" is not an http(s) URL`, {
      cause,
      hint: 'give the site root, such as https://www.example.com/',
    });
  }
  const http = resolveHttpOptions(options);
  try {
    return await discover(origin, siteUrl, http, options);
  } finally {
    await closeHttp(http);
  }
}

async function discover(
  origin: string,
  siteUrl: string,
  http: HttpOptions,
  options: DiscoverOptions,
): Promise<DiscoveredSitemap[]> {
  http.client.start(origin);
  const found: DiscoveredSitemap[] = [];
  const seen = new Set<string>();
  const add = (url: string, source: DiscoveredSitemap['source']): void => {
    if (seen.has(url)) return;
    seen.add(url);
    found.push({ url, source });
  };

  const robots = await fetchRobotsTxt(origin, {
    httpClient: http.client,
    timeoutMs: http.timeoutMs,
    maxRedirects: http.maxRedirects,
    ...(http.signal === undefined ? {} : { signal: http.signal }),
  });
  for (const url of robots.robots.sitemaps) add(url, 'robots');

  if (options.probeWellKnown !== false || found.length === 0) {
    const verdicts = await Promise.all(WELL_KNOWN_PATHS.map((path) => probe(`${origin}${path}`, http)));
    WELL_KNOWN_PATHS.forEach((path, i) => {
      if (verdicts[i] === true) add(`${origin}${path}`, 'well-known');
    });
  }
  checkAborted(http.signal, siteUrl);
  if (found.length === 0) {
    options.onDiagnostic?.(
      makeDiagnostic(
        'discover-none',
        `${origin}/robots.txt lists no sitemap (${robots.status === 'ok' ? 'no Sitemap: line' : `robots.txt ${robots.status}`}) and none of ${WELL_KNOWN_PATHS.join(', ')} answers with one`,
        origin,
        {},
      ),
    );
  }
  return found;
}

/** Whether `url` answers 2xx with content that sniffs as gzip, XML of a sitemap or feed, or a URL list. */
async function probe(url: string, http: HttpOptions): Promise<boolean> {
  let body: Awaited<ReturnType<typeof fetchBody>>;
  try {
    body = await fetchBody(url, http);
  } catch (error) {
    if (error instanceof SitemapkitError && error.code === 'ERR_ABORTED') throw error;
    return false;
  }
  const head = new Uint8Array(PROBE_BYTES);
  let length = 0;
  try {
    for await (const chunk of body.body) {
      const take = Math.min(chunk.length, PROBE_BYTES - length);
      head.set(chunk.subarray(0, take), length);
      length += take;
      if (length >= PROBE_BYTES) break;
    }
  } catch {
    return false;
  } finally {
    body.cancel();
  }
  return looksLikeSitemap(head.subarray(0, length));
}

/** The sniff of {@link probe}: gzip magic, a sitemap or feed root element, or a first line that is a URL. */
export function looksLikeSitemap(head: Uint8Array): boolean {
  if (head[0] === 0x1f && head[1] === 0x8b) return true;
  const text = new TextDecoder()
    .decode(head)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (text.startsWith('<')) {
    return /<(?:[\w.-]+:)?(?:urlset|sitemapindex|rss|feed|RDF)[\s>]/.test(text) && !/<html[\s>]/i.test(text);
  }
  return /^https?:\/\/\S+\s*(?:\n|$)/i.test(text);
}
