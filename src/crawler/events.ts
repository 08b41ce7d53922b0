/** What a crawl reports while it runs: its progress and each finished URL. */

/** What {@link CrawlOptions.onProgress} receives. */
export interface CrawlProgress {
  /** URLs finished (fetched, or decided without fetching). */
  done: number;
  /** URLs waiting in the frontier. */
  queued: number;
  /** HTTP exchanges made (retries included). */
  requests: number;
  /** Pages in the sitemap so far. */
  listed: number;
  /** Broken (4xx) and failed (5xx, network) URLs so far. */
  errors: number;
  /** Requests in flight. */
  inFlight: number;
  /** Milliseconds since this run started. */
  elapsedMs: number;
}

/** What {@link CrawlOptions.onPage} receives for each finished URL. */
export interface PageEvent {
  url: string;
  depth: number;
  status: number | null;
  verdict: string;
  reason: string | null;
  ms: number | null;
}
