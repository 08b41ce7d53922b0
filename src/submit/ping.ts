/** The legacy sitemap ping (sitemaps.org), kept for endpoints that still take it. */
import { SitemapkitError } from '../core/errors.js';
import { HttpClient } from '../http/client.js';
import type { FetchLike } from '../http/types.js';

/** The note printed with every legacy ping. */
export const PING_NOTE =
  'note: Google (June 2023) and Bing (May 2022) no longer accept sitemap pings; list the sitemap in robots.txt, submit it in Search Console or Bing Webmaster Tools, or use IndexNow.';

/** The outcome of a legacy sitemap ping. */
export interface PingResult {
  url: string;
  httpStatus: number;
  ok: boolean;
}

/**
 * The legacy ping protocol (sitemaps.org): `GET ENDPOINT?sitemap=<url-encoded sitemap URL>`, only
 * to an endpoint the caller names (see {@link PING_NOTE}). Throws `ERR_HTTP` on a network error.
 */
export async function pingSitemap(
  endpoint: string,
  sitemapUrl: string,
  options: { fetch?: FetchLike; timeoutMs?: number } = {},
): Promise<PingResult> {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch (cause) {
    throw new SitemapkitError('ERR_OPTIONS', `ping endpoint "${endpoint}" is not an absolute URL`, { cause });
  }
  u.searchParams.set('sitemap', sitemapUrl);
  const client = new HttpClient({ fetch: options.fetch });
  client.start(u.href);
  try {
    const r = await client.request(u.href, { timeoutMs: options.timeoutMs ?? 30_000, redirect: 'manual' });
    r.cancel();
    return { url: u.href, httpStatus: r.status, ok: r.status === 200 };
  } catch (cause) {
    throw new SitemapkitError('ERR_HTTP', `ping failed: ${(cause as Error).message}`, {
      where: u.href,
      cause,
    });
  } finally {
    await client.close();
  }
}
