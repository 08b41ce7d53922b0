/**
 * What a fetched page means for the sitemap, as pure functions: robots directives from meta tags
 * and `X-Robots-Tag`, the canonical from `<link>` or the `Link` header, and lastmod in the order
 * the issue fixes (JSON-LD `dateModified`, `article:modified_time`, then `Last-Modified` only when
 * it is more than a minute older than the response's `Date`; never the crawl date).
 */
import { normalizeLastmod } from '../core/lastmod.js';
import type { PageMeta } from '../page/page-meta.js';

// The robots-directive rule is shared with `generate --from-dir` and lives with page reading.
export { parseXRobotsTag, type RobotsDirectives, robotsDirectives } from '../page/robots-directives.js';

/** The `rel="canonical"` target of a `Link` header (RFC 8288), if any. */
export function canonicalFromLinkHeader(value: string | null): string | undefined {
  if (value === null) return undefined;
  // Links are separated by commas outside <…>; parameters by semicolons.
  for (const m of value.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]*)*)/g)) {
    const params = m[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('canonical')) return m[1]!.trim();
  }
  return undefined;
}

/** Where a page's lastmod came from. */
export type LastmodSource = 'json-ld' | 'article:modified_time' | 'last-modified';

/** Slack between Last-Modified and Date: a server that stamps "now" is not stating a change. */
export const DYNAMIC_LASTMOD_SLACK_MS = 60_000;

/**
 * The page's lastmod, or undefined. `date` is the response's `Date` header; when it is missing
 * or unreadable, `fetchedAt` (ms) stands in for it.
 */
export function pageLastmod(
  meta: Pick<PageMeta, 'jsonLdDateModified' | 'articleModifiedTime'> | undefined,
  lastModified: string | null,
  date: string | null,
  fetchedAt: number,
): { value: string; source: LastmodSource } | undefined {
  for (const [v, source] of [
    [meta?.jsonLdDateModified, 'json-ld'],
    [meta?.articleModifiedTime, 'article:modified_time'],
  ] as const) {
    if (v === undefined || v.trim() === '') continue;
    const r = normalizeLastmod(v.trim());
    if (r.ok) return { value: r.value, source };
  }
  if (lastModified === null) return undefined;
  const lm = Date.parse(lastModified);
  if (Number.isNaN(lm)) return undefined;
  const d = date === null ? Number.NaN : Date.parse(date);
  const reference = Number.isNaN(d) ? fetchedAt : d;
  if (reference - lm <= DYNAMIC_LASTMOD_SLACK_MS) return undefined;
  const r = normalizeLastmod(new Date(lm));
  return r.ok ? { value: r.value, source: 'last-modified' } : undefined;
}

/** Whether a Content-Type is an HTML page. */
export function isHtmlType(contentType: string): boolean {
  const t = contentType.split(';')[0]!.trim().toLowerCase();
  return t === 'text/html' || t === 'application/xhtml+xml';
}

/** Whether a Content-Type is a PDF. */
export function isPdfType(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/pdf';
}

/**
 * The priority of a page `depth` link hops from a start URL, from a table indexed by depth whose
 * last value applies to every deeper page (`[1, 0.8, 0.5, 0.3]` by default).
 */
export function priorityForDepth(depth: number, table: readonly number[]): number | undefined {
  if (table.length === 0) return undefined;
  return table[Math.min(depth, table.length - 1)];
}
