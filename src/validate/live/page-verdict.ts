/**
 * What a crawler concludes from one answer for a listed URL. Pure: the answer's facts in, the
 * findings out; the live checker does the fetching. Every finding here means "this URL should not
 * be in a sitemap as it is", so each live code is an error by default.
 */
import { judgeCanonical } from '../../core/canonical.js';
import { isNoindex, readPageMeta } from '../../page/page-meta.js';
import { lastmodInstant } from '../values.js';

/** What the live checker learnt about a URL. */
export interface PageFacts {
  url: string;
  status: number;
  statusText?: string;
  /** Lower-cased header names. */
  headers: Readonly<Record<string, string>>;
  /** The start of the body (GET of an HTML page), when it was read. */
  html?: string;
}

export interface PageFinding {
  code: string;
  message: string;
}

const HTML_TYPES = /^(?:text\/html|application\/xhtml\+xml)\b/i;
// Documents Google indexes as pages although they are not HTML.
const DOCUMENT_TYPES = /^(?:application\/pdf)\b/i;
/** A Last-Modified this close to the answer's Date is the server's clock, not the page's. */
const CLOCK_STAMP_MS = 60_000;
const ZONE_SLACK_MS = 38 * 3_600_000;

/** Whether a Content-Type (or its absence) says HTML. A missing type is read as HTML: the body decides. */
export function isHtmlType(contentType: string | undefined): boolean {
  return contentType === undefined || contentType.trim() === '' || HTML_TYPES.test(contentType.trim());
}

/**
 * `X-Robots-Tag` directives that apply to `agent`: bare ones, and those after `agent:` (case-
 * insensitive). Several headers arrive joined by ", ", so an agent prefix lasts until the next one.
 */
export function xRobotsDirectives(header: string | undefined, agent: string): string[] {
  if (header === undefined) return [];
  const me = agent.toLowerCase();
  const out: string[] = [];
  let target: string | undefined;
  for (const part of header.split(',')) {
    let p = part.trim();
    const m = /^([a-z0-9_-]+)\s*:\s*(.*)$/i.exec(p);
    // `unavailable_after: date` and the max-* settings hold a colon but name no agent.
    if (
      m !== null &&
      !/^(?:unavailable_after|max-snippet|max-image-preview|max-video-preview)$/i.test(m[1]!)
    ) {
      target = m[1]!.toLowerCase();
      p = m[2]!.trim();
    }
    if (p === '') continue;
    if (target === undefined || target === me) out.push(p.toLowerCase());
  }
  return out;
}

/** The canonical of an HTTP `Link` header (`<url>; rel="canonical"`), if any. */
export function linkHeaderCanonical(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  for (const m of link.matchAll(/<([^>]*)>\s*((?:;\s*[^;,]*)*)/g)) {
    const params = m[2] ?? '';
    if (/;\s*rel\s*=\s*"?(?:[^";,]*\s)?canonical(?:\s[^";,]*)?"?/i.test(params)) return m[1];
  }
  return undefined;
}

/**
 * The findings for one answer. `lastmod` is the sitemap's value for the URL; `agent` the crawler
 * whose meta tags and X-Robots-Tag apply.
 */
export function judgePage(facts: PageFacts, lastmod: string | undefined, agent: string): PageFinding[] {
  const { status, headers, url } = facts;
  const label = `HTTP ${status}${facts.statusText ? ` ${facts.statusText}` : ''}`;
  if (status >= 300 && status < 400) {
    const location = headers['location'];
    let target = location;
    if (location !== undefined) {
      try {
        target = new URL(location, url).href;
      } catch {
        // An unparseable Location is shown as sent.
      }
    }
    return [
      {
        code: 'live-redirect',
        message:
          target === undefined
            ? `${label} without a Location header`
            : `redirects (${status}) to ${target}: list the target instead`,
      },
    ];
  }
  if (status >= 400 && status < 500) return [{ code: 'live-client-error', message: `answers ${label}` }];
  if (status >= 500 || status < 200) return [{ code: 'live-server-error', message: `answers ${label}` }];

  const out: PageFinding[] = [];
  const robotsHeader = xRobotsDirectives(headers['x-robots-tag'], agent);
  if (isNoindex(robotsHeader)) {
    out.push({ code: 'live-noindex', message: `X-Robots-Tag: ${headers['x-robots-tag']}` });
  }
  const type = headers['content-type'];
  const html = isHtmlType(type);
  if (!html && !DOCUMENT_TYPES.test(type ?? '')) {
    out.push({ code: 'live-not-html', message: `is ${type!.split(';')[0]!.trim()}, not an HTML page` });
  }
  const stale = staleLastmod(lastmod, headers['last-modified'], headers['date']);
  if (stale !== undefined) out.push({ code: 'live-lastmod-stale', message: stale });

  let canonical = linkHeaderCanonical(headers['link']);
  let baseHref: string | undefined;
  if (html && facts.html !== undefined) {
    const meta = readPageMeta(facts.html);
    const directives = [...meta.robots, ...(meta.agentRobots[agent.toLowerCase()] ?? [])];
    if (isNoindex(directives) && !out.some((f) => f.code === 'live-noindex')) {
      const which = isNoindex(meta.robots) ? 'robots' : agent.toLowerCase();
      out.push({ code: 'live-noindex', message: `<meta name="${which}"> says ${directives.join(', ')}` });
    }
    if (meta.canonical !== undefined) {
      canonical = meta.canonical;
      baseHref = meta.baseHref;
    }
  }
  const verdict = judgeCanonical(canonical, url, baseHref);
  if (verdict.kind === 'other') {
    out.push({
      code: 'live-canonical-elsewhere',
      message: `its canonical is ${verdict.url}: list that URL instead`,
    });
  } else if (verdict.kind === 'ignored') {
    out.push({ code: 'canonical-ignored', message: `${verdict.reason}; search engines ignore it` });
  }
  return out;
}

/**
 * Why `lastmod` is older than the page's Last-Modified, or undefined. A date-only lastmod covers its
 * whole day in any zone; a Last-Modified equal to the answer's Date is the server stamping "now".
 */
export function staleLastmod(
  lastmod: string | undefined,
  lastModified: string | undefined,
  date: string | undefined,
): string | undefined {
  if (lastmod === undefined || lastModified === undefined) return undefined;
  const lm = Date.parse(lastModified);
  const t = lastmodInstant(lastmod);
  if (Number.isNaN(lm) || t === undefined) return undefined;
  const now = date === undefined ? Number.NaN : Date.parse(date);
  if (!Number.isNaN(now) && Math.abs(now - lm) <= CLOCK_STAMP_MS) return undefined;
  const slack = t.dateOnly ? ZONE_SLACK_MS : CLOCK_STAMP_MS;
  if (lm <= t.ms + slack) return undefined;
  return `lastmod ${lastmod} is older than the page's Last-Modified (${lastModified})`;
}
