/** The sources of one validation run: their names, their keys, and discovery from a site. */
import type { Diagnostic } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { toUri } from '../core/url.js';
import { discoverSitemaps } from '../parser/discover.js';
import type { SitemapSource } from '../parser/types.js';
import type { ResolvedValidateOptions } from './options.js';

export function isHttp(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

export function nameOf(source: SitemapSource): string {
  if (typeof source === 'string') return source;
  if (source instanceof URL) return source.href;
  if (source instanceof Uint8Array) return '<bytes>';
  if (typeof source === 'object' && source !== null && 'text' in source) return '<text>';
  return '<stream>';
}

/** A sitemap's key: its URL through the shared URL rule (as the parser serialises locs), unfragmented. */
export function keyOf(url: string): string {
  const r = toUri(url);
  return (r.url ?? url).replace(/#.*$/s, '');
}

/**
 * The sitemaps a site names: robots.txt first, the well-known paths only when it names none.
 * `list` must be the one http(s) URL of the site.
 */
export async function discoverList(
  list: readonly SitemapSource[],
  o: ResolvedValidateOptions,
  onDiagnostic: (d: Diagnostic) => void,
): Promise<string[]> {
  const site = list.length === 1 && typeof list[0] === 'string' ? list[0] : undefined;
  if (site === undefined || !isHttp(site)) {
    throw new SitemapkitError('ERR_OPTIONS', 'discover needs one http(s) URL of a site', {
      hint: 'give the site root, such as https://www.example.com/',
    });
  }
  o.client.start(site);
  const found = await discoverSitemaps(site, {
    onDiagnostic,
    httpClient: o.client,
    probeWellKnown: false,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
  });
  return found.map((f) => f.url);
}
