/**
 * What a fetch means against the crawl before it, as pure functions: the conditional request a
 * recrawl sends (the validators the last answer gave), and the change it observes once the page's
 * own outcome is known (page-outcome.ts). The rules, which docs/crawl.md repeats:
 *
 * - a 304 to a conditional request is "unchanged" and costs no body: the URL keeps everything the
 *   last crawl recorded (verdict, title, lastmod, fingerprint);
 * - a 200 is compared on its main-text fingerprint (src/page/main-text.ts): a different one is a
 *   change, observed now; the time stays the page's "changed at" until the next observed change
 *   (a page not read as HTML, a PDF, is compared on its ETag, or else its Last-Modified);
 * - a page that enters the sitemap is `added`, one that leaves it (404, 410, noindex, a redirect,
 *   a canonical elsewhere, robots.txt) is `removed`; a listed page that fails this time (5xx, a
 *   timeout, a network error) is `kept` as it was: a bad night must not empty a sitemap;
 * - a first crawl has nothing to compare with: every listed page is `added`, and nothing has a
 *   "changed at" (the crawl date is never a page's lastmod).
 */
import { formatUtc } from '../core/lastmod.js';
import type { PageResponse } from './fetch-page.js';
import type { Change, Outcome, Prior } from './records.js';

/** The conditional-request headers for a URL fetched before (undefined: an ordinary GET). */
export function conditionalHeaders(prior: Prior | undefined): Record<string, string> | undefined {
  if (prior === undefined || (prior.etag === null && prior.lastModified === null)) return undefined;
  const h: Record<string, string> = {};
  if (prior.etag !== null) h['if-none-match'] = prior.etag;
  if (prior.lastModified !== null) h['if-modified-since'] = prior.lastModified;
  return h;
}

/** The validators of an answer worth sending back: those of a 200 or a 304. */
function validators(res: PageResponse): { etag: string | null; lastModified: string | null } {
  if (!res.ok || (res.status !== 200 && res.status !== 304)) return { etag: null, lastModified: null };
  return { etag: res.headers.get('etag'), lastModified: res.headers.get('last-modified') };
}

/**
 * What stands for a page's content: its main-text fingerprint when it was read as HTML (none when
 * the crawl does not fingerprint), else (a PDF) its validators.
 */
function contentKey(
  res: PageResponse,
  v: { etag: string | null; lastModified: string | null },
): string | null {
  if (!res.ok || res.status !== 200) return null;
  if (res.meta !== undefined) return res.fingerprint ?? null;
  if (v.etag !== null) return `etag:${v.etag}`;
  return v.lastModified === null ? null : `last-modified:${v.lastModified}`;
}

/**
 * The outcome to record for a fetched URL, with what it changed: `outcome` is the page's own
 * (page-outcome.ts), `prior` what the crawl before recorded, `at` the time of the answer (UTC,
 * seconds).
 */
export function observe(prior: Prior | undefined, outcome: Outcome, res: PageResponse, at: string): Outcome {
  const v = validators(res);
  const wasListed = prior?.verdict === 'listed';
  const asked = conditionalHeaders(prior) !== undefined;
  if (res.ok && res.status === 304 && asked) {
    // Nothing new: the last crawl's record stands (a 304 may update the validators).
    return {
      ...outcome,
      verdict: prior?.verdict ?? outcome.verdict,
      reason: 'HTTP 304: not modified since the last crawl',
      keep: true,
      ...v,
      change: wasListed ? 'unchanged' : null,
      changeAt: null,
    };
  }
  if (wasListed && outcome.verdict === 'error') {
    return {
      ...outcome,
      verdict: 'listed',
      reason: `kept as the last crawl found it: ${outcome.reason ?? 'failed'}`,
      keep: true,
      etag: null,
      lastModified: null,
      change: 'kept',
      changeAt: at,
    };
  }
  const fingerprint = contentKey(res, v);
  const differs = fingerprint !== null && prior?.fingerprint != null && prior.fingerprint !== fingerprint;
  const isListed = outcome.verdict === 'listed';
  let change: Change | null = null;
  if (isListed && !wasListed) change = 'added';
  else if (!isListed && wasListed) change = 'removed';
  else if (isListed) change = differs ? 'changed' : 'unchanged';
  return {
    ...outcome,
    ...v,
    fingerprint,
    changedAt: differs ? at : (prior?.changedAt ?? null),
    change,
    changeAt: change === null || change === 'unchanged' ? null : at,
  };
}

/** A URL that robots.txt (or the address policy) now keeps out: removed if it was listed. */
export function observeRefused(prior: Prior | undefined, outcome: Outcome, at: string): Outcome {
  if (prior?.verdict !== 'listed') return outcome;
  return { ...outcome, change: 'removed', changeAt: at };
}

/** The time of an observation as a recrawl records it: UTC, to the second. */
export function observedAt(ms: number): string {
  return formatUtc(new Date(Math.floor(ms / 1000) * 1000));
}
