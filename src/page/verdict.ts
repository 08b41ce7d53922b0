/**
 * What one HTTP answer for a page means, as pure functions shared by the crawler (which turns it
 * into a sitemap verdict) and `validate --live` (which turns it into findings): the class of the
 * status, the robots directives from meta tags and `X-Robots-Tag`, the canonical from `<link>` or
 * the `Link` header, and lastmod in the order the crawler documents (JSON-LD `dateModified`,
 * `article:modified_time`, then `Last-Modified` only when it is more than a minute older than the
 * response's `Date`; never the crawl date). Each caller keeps its own wording and severities.
 */
import { type CanonicalVerdict, judgeCanonical } from '../core/canonical.js';
import { normalizeLastmod } from '../core/lastmod.js';
import type { PageMeta } from './page-meta.js';
import { type RobotsDirectives, robotsDirectives } from './robots-directives.js';

export { parseXRobotsTag, type RobotsDirectives, robotsDirectives } from './robots-directives.js';

/**
 * The class of an HTTP status: `transient` (408, 425, 429) is a 4xx that may change on another
 * try, so the crawler counts it as an error rather than a broken page.
 */
export type StatusClass =
  | 'informational'
  | 'ok'
  | 'success'
  | 'redirect'
  | 'client-error'
  | 'transient'
  | 'server-error';

/** The class of `status` (`ok` is 200 only; `success` is any other 2xx). */
export function statusClass(status: number): StatusClass {
  if (status === 200) return 'ok';
  if (status < 200) return 'informational';
  if (status < 300) return 'success';
  if (status < 400) return 'redirect';
  if (status === 408 || status === 425 || status === 429) return 'transient';
  if (status < 500) return 'client-error';
  return 'server-error';
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

/**
 * The page's canonical: `<link rel=canonical>` (resolved against `<base href>`) wins over a
 * `Link: <…>; rel="canonical"` header (resolved against the page URL).
 */
export function pageCanonical(
  url: string,
  meta: Pick<PageMeta, 'canonical' | 'baseHref'> | undefined,
  linkHeader: string | null,
): CanonicalVerdict {
  const href = meta?.canonical;
  if (href !== undefined) return judgeCanonical(href, url, meta?.baseHref);
  return judgeCanonical(canonicalFromLinkHeader(linkHeader), url, undefined);
}

/** One answer for a page, as both callers read it. */
export interface PageAnswer {
  url: string;
  status: number;
  /** A response header's value (repeated fields joined with ", "), or null; names in lower case. */
  header(name: string): string | null;
  /** Each `X-Robots-Tag` line as sent. */
  xRobotsTag: readonly string[];
  /** The page's findings, when its body was read as HTML (read once, and only for a 2xx). */
  readonly meta: PageMeta | undefined;
  /** The agents whose meta tags and `X-Robots-Tag` lines apply, lower-cased. */
  agents: readonly string[];
}

/** What an answer says about the page. */
export type PageVerdict =
  | { kind: 'redirect'; status: number; location: string | null }
  | { kind: 'client-error' | 'transient' | 'server-error' | 'informational'; status: number }
  | {
      kind: 'answered';
      status: number;
      /** 200 exactly (other 2xx answer, but are not pages to list). */
      ok: boolean;
      robots: RobotsDirectives;
      canonical: CanonicalVerdict;
    };

/** The verdict on one answer. */
export function pageVerdict(a: PageAnswer): PageVerdict {
  const status = a.status;
  const c = statusClass(status);
  if (c === 'redirect') return { kind: 'redirect', status, location: a.header('location') };
  if (c !== 'ok' && c !== 'success') return { kind: c, status };
  // Read once: a caller may compute it on demand.
  const meta = a.meta;
  return {
    kind: 'answered',
    status,
    ok: c === 'ok',
    robots: robotsDirectives(meta, a.xRobotsTag, a.agents),
    canonical: pageCanonical(a.url, meta, a.header('link')),
  };
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
