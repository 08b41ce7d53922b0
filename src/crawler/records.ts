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
  lastmod: string | null;
  /** JSON `{images?, alternates?}` for listed pages. */
  extra: string | null;
  bytes: number | null;
  ms: number | null;
  attempts: number;
}

/** The outcome written when a URL is finished. */
export interface Outcome {
  status?: number | null;
  verdict: Verdict;
  reason?: string | null;
  target?: string | null;
  contentType?: string | null;
  title?: string | null;
  lastmod?: string | null;
  extra?: string | null;
  bytes?: number | null;
  ms?: number | null;
  attempts?: number;
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
  /** Wall time of this run. */
  seconds: number;
  /** Pages fetched per second by this run. */
  pagesPerSecond: number;
}
