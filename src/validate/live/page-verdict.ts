/**
 * What a crawler concludes from one answer for a listed URL. Pure: the answer's facts in, the
 * findings out; the live checker does the fetching. Every finding here means "this URL should not
 * be in a sitemap as it is", so each live code is an error by default.
 */
import { type PageMeta, readPageMeta } from '../../page/page-meta.js';
import { DYNAMIC_LASTMOD_SLACK_MS, isHtmlType, isPdfType, pageVerdict } from '../../page/verdict.js';
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

/** A date-only lastmod covers its whole day in every zone: up to 38 hours after its UTC midnight. */
const ZONE_SLACK_MS = 38 * 3_600_000;

/** Whether a Content-Type (or its absence) says HTML. A missing type is read as HTML: the body decides. */
export function isHtmlPage(contentType: string | undefined): boolean {
  return contentType === undefined || contentType.trim() === '' || isHtmlType(contentType);
}

/**
 * The findings for one answer. `lastmod` is the sitemap's value for the URL; `agent` the crawler
 * whose meta tags and X-Robots-Tag apply.
 */
export function judgePage(facts: PageFacts, lastmod: string | undefined, agent: string): PageFinding[] {
  const { status, headers, url } = facts;
  const label = `HTTP ${status}${facts.statusText ? ` ${facts.statusText}` : ''}`;
  const type = headers['content-type'];
  const html = isHtmlPage(type);
  const header = headers['x-robots-tag'];
  // The answer is read the crawler's way (src/page/verdict.ts); the body only when it matters.
  const verdict = pageVerdict({
    url,
    status,
    header: (name) => headers[name] ?? null,
    xRobotsTag: header === undefined ? [] : [header],
    get meta(): PageMeta | undefined {
      return html && facts.html !== undefined ? readPageMeta(facts.html) : undefined;
    },
    agents: [agent.toLowerCase()],
  });
  switch (verdict.kind) {
    case 'redirect': {
      const location = verdict.location ?? undefined;
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
    case 'client-error':
    case 'transient':
      return [{ code: 'live-client-error', message: `answers ${label}` }];
    case 'server-error':
    case 'informational':
      return [{ code: 'live-server-error', message: `answers ${label}` }];
    case 'answered':
      break;
  }

  const out: PageFinding[] = [];
  if (verdict.robots.noindex) {
    out.push({ code: 'live-noindex', message: `noindex in ${verdict.robots.noindexSource}` });
  }
  if (!html && !isPdfType(type!)) {
    out.push({ code: 'live-not-html', message: `is ${type!.split(';')[0]!.trim()}, not an HTML page` });
  }
  const stale = staleLastmod(lastmod, headers['last-modified'], headers['date']);
  if (stale !== undefined) out.push({ code: 'live-lastmod-stale', message: stale });
  const canonical = verdict.canonical;
  if (canonical.kind === 'other') {
    out.push({
      code: 'live-canonical-elsewhere',
      message: `its canonical is ${canonical.url}: list that URL instead`,
    });
  } else if (canonical.kind === 'ignored') {
    out.push({ code: 'canonical-ignored', message: `${canonical.reason}; search engines ignore it` });
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
  if (!Number.isNaN(now) && Math.abs(now - lm) <= DYNAMIC_LASTMOD_SLACK_MS) return undefined;
  const slack = t.dateOnly ? ZONE_SLACK_MS : DYNAMIC_LASTMOD_SLACK_MS;
  if (lm <= t.ms + slack) return undefined;
  return `lastmod ${lastmod} is older than the page's Last-Modified (${lastModified})`;
}
