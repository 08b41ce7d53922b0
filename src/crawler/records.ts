/**
 * What the crawl records about each URL, and its totals: the vocabulary shared by the frontier,
 * the page verdicts, the report and the result.
 */

/**
 * The depth a sitemap seed is queued at until a link finds it (then it takes that link depth):
 * seeds sort after every URL found by links, and one that no link reaches is leased as an entry
 * point at depth 0 (see `Frontier.leaseSeeds`).
 */
export const SEED_DEPTH = 1_000_000_000;

/** What happened to a URL (stored, reported, and the reason it is or is not in the sitemap). */
export type Verdict =
  /** 200, HTML, indexable, its own canonical: in the sitemap. */
  | 'listed'
  | 'noindex'
  | 'canonicalised'
  | 'redirect'
  /** 4xx. */
  | 'broken'
  /** 5xx after the retries, a timeout or a network failure. */
  | 'error'
  /** A status other than 200 that is neither a redirect nor an error (204, 304, …). */
  | 'not-ok'
  | 'non-html'
  | 'robots'
  | 'excluded'
  | 'trap'
  | 'too-deep'
  /** Fetched fine but its URL cannot go into a sitemap (too long, say). */
  | 'invalid';

/**
 * What a crawl observed of a URL against the crawl before it (a first crawl: against nothing):
 * `added` it entered the sitemap, `changed` its main text changed, `unchanged` it did not (a 304,
 * or the same fingerprint), `removed` it left the sitemap (404, 410, noindex, a redirect, a
 * canonical elsewhere, …), `kept` it failed this time (5xx, a timeout) and stays listed as it was.
 */
export type Change = 'added' | 'changed' | 'unchanged' | 'removed' | 'kept';

/** How a URL entered the crawl. */
export type UrlSource = 'start' | 'link' | 'redirect' | 'canonical' | 'hreflang' | 'sitemap';

/** One URL of the state, as the report and `urls.jsonl` show it. */
export interface UrlRecord {
  id: number;
  url: string;
  depth: number;
  /** 0 queued, 1 leased (in flight), 2 done. */
  state: number;
  /** The first page that linked (or redirected) here. */
  via: number | null;
  source: UrlSource;
  status: number | null;
  verdict: Verdict | null;
  reason: string | null;
  /** Redirect Location or canonical URL. */
  target: string | null;
  contentType: string | null;
  title: string | null;
  /** The page's canonical link, absolute (its own URL when it names itself); null when it has none. */
  canonical: string | null;
  /** Characters in the page's meta description (0: empty); null when it has none. */
  descriptionLength: number | null;
  lastmod: string | null;
  /** JSON `{images?, alternates?}` for listed pages. */
  extra: string | null;
  bytes: number | null;
  ms: number | null;
  attempts: number;
  /** When a change of its main text was last observed (UTC, seconds): its lastmod without its own date. */
  changedAt: string | null;
  /** What this crawl observed against the one before (null: not in the sitemap either time). */
  change: Change | null;
  /** When this crawl observed `change`. */
  changeAt: string | null;
  /** What rendering changed (JSON, render-note.ts), null when the page was not rendered. */
  rendered: string | null;
}

/** The outcome written when a URL is finished. */
export interface Outcome {
  status?: number | null;
  verdict: Verdict;
  reason?: string | null;
  target?: string | null;
  contentType?: string | null;
  title?: string | null;
  canonical?: string | null;
  descriptionLength?: number | null;
  lastmod?: string | null;
  extra?: string | null;
  bytes?: number | null;
  ms?: number | null;
  attempts?: number;
  /** Validators of the answer, sent back on the next crawl (`If-None-Match`, `If-Modified-Since`). */
  etag?: string | null;
  lastModified?: string | null;
  /** The main text's fingerprint (src/page/main-text.ts). */
  fingerprint?: string | null;
  changedAt?: string | null;
  change?: Change | null;
  changeAt?: string | null;
  /** What rendering changed (JSON, render-note.ts); absent when the page was not rendered. */
  rendered?: string | null;
  /**
   * The answer says nothing new (a 304, or a failure of a page listed before): the URL keeps what
   * the last crawl recorded (verdict, title, lastmod, fingerprint); only the exchange is recorded.
   */
  keep?: boolean;
}

/** What the crawl before this one recorded of a URL, for a recrawl's conditional request and comparison. */
export interface Prior {
  verdict: Verdict | null;
  etag: string | null;
  lastModified: string | null;
  fingerprint: string | null;
  changedAt: string | null;
}

/** Totals of a crawl (over all its runs when resumed, except where noted). */
export interface CrawlStats {
  /** URLs in the state (fetched or not). */
  found: number;
  /** URLs fetched over HTTP. */
  fetched: number;
  /** Pages in the sitemap. */
  listed: number;
  /** URLs still queued (only when `maxPages` stopped the crawl). */
  queued: number;
  /** URLs per verdict (`listed`, `noindex`, `broken`, …; `queued` for those not reached). */
  verdicts: Record<string, number>;
  /** Fetched URLs per HTTP status. */
  statuses: Record<string, number>;
  /** HTTP requests made by this run (retries included; robots.txt not counted). */
  requests: number;
  /** Links to other hosts seen by this run (not followed). */
  externalLinks: number;
  /**
   * What a recrawl observed against the crawl before it (absent after a first crawl): pages
   * `unchanged` (of which `notModified` answered 304), `changed`, `added`, `removed`, and `kept`
   * (failed this time, listed as before).
   */
  changes?: ChangeCounts;
  /** Wall time of this run. */
  seconds: number;
  /** Pages fetched per second by this run. */
  pagesPerSecond: number;
}

/** Pages by what a recrawl observed. */
export interface ChangeCounts {
  unchanged: number;
  notModified: number;
  changed: number;
  added: number;
  removed: number;
  kept: number;
}
