/**
 * What a fetched page means for the sitemap, as pure functions: robots directives from meta tags
 * and `X-Robots-Tag`, the canonical from `<link>` or the `Link` header, and lastmod in the order
 * the issue fixes (JSON-LD `dateModified`, `article:modified_time`, then `Last-Modified` only when
 * it is more than a minute older than the response's `Date`; never the crawl date).
 */
import { normalizeLastmod } from '../core/lastmod.js';
import { isNoindex, type PageMeta } from '../page/page-meta.js';

/** `noindex` / `nofollow` as they apply to the agents the sitemap is for. */
export interface RobotsDirectives {
  noindex: boolean;
  nofollow: boolean;
  /** Where `noindex` came from, for the report (`meta robots`, `X-Robots-Tag: googlebot`, …). */
  noindexSource: string | undefined;
}

// Directives that carry a value after a colon; anything else before a colon is a user agent.
const VALUED = /^(unavailable_after|max-snippet|max-image-preview|max-video-preview|indexifembedded)$/i;

/**
 * Parses `X-Robots-Tag` values (RFC-less but documented by Google and Bing): comma-separated
 * directives, optionally prefixed by `agent:`, which then applies to the directives after it.
 * Returns directives by lower-cased agent, `*` for those without one.
 */
export function parseXRobotsTag(values: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const value of values) {
    let agent = '*';
    for (const raw of value.split(',')) {
      let token = raw.trim();
      const m = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(token);
      if (m !== null && !VALUED.test(m[1]!)) {
        agent = m[1]!.toLowerCase();
        token = m[2]!.trim();
      }
      if (token === '') continue;
      const list = out.get(agent) ?? [];
      list.push(token.toLowerCase().split(/\s*:\s*/)[0]!);
      out.set(agent, list);
    }
  }
  return out;
}

/**
 * The directives that decide a page: the generic `<meta name=robots>` and `X-Robots-Tag`, plus
 * the agent-specific ones for each of `agents` (lower-case: `googlebot`, `bingbot`, our token).
 * A `noindex` for any of them keeps the page out (the sitemap is read by all of them).
 */
export function robotsDirectives(
  meta: Pick<PageMeta, 'robots' | 'agentRobots'> | undefined,
  xRobotsTag: readonly string[],
  agents: readonly string[],
): RobotsDirectives {
  const header = parseXRobotsTag(xRobotsTag);
  const sources: Array<[string, readonly string[]]> = [];
  if (meta !== undefined) {
    sources.push(['<meta name="robots">', meta.robots]);
    for (const a of agents) {
      const d = meta.agentRobots[a];
      if (d !== undefined) sources.push([`<meta name="${a}">`, d]);
    }
  }
  const generic = header.get('*');
  if (generic !== undefined) sources.push(['X-Robots-Tag', generic]);
  for (const a of agents) {
    const d = header.get(a);
    if (d !== undefined) sources.push([`X-Robots-Tag: ${a}`, d]);
  }
  let noindexSource: string | undefined;
  let nofollow = false;
  for (const [where, list] of sources) {
    if (noindexSource === undefined && isNoindex(list)) noindexSource = where;
    if (list.includes('nofollow') || list.includes('none')) nofollow = true;
  }
  return { noindex: noindexSource !== undefined, nofollow, noindexSource };
}

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
