/**
 * The frontier: where the crawl keeps what is queued, leased, finished and linked, behind one
 * interface so that the crawl loop does not know the store. Today's store is one SQLite file
 * (frontier-sqlite.ts); one over a server database (leases with an expiry taken with
 * `FOR UPDATE SKIP LOCKED`, many workers) can follow with the same calls, because:
 *
 * - everything that waits on the store is asynchronous (`lease`, `commit`, …);
 * - `finish` and `add` only record into the open batch, and `commit` makes the batch durable in
 *   one go and only then says what it queued: the loop commits before any new request starts, so
 *   after `kill -9` nothing finished is fetched again and only the leased URLs are fetched twice;
 * - what a new URL becomes (queued, finished without a fetch, not stored) is decided by the
 *   crawl's pure `admit` function, which the store calls only for URLs it does not know yet;
 * - resuming is opening the store: what a stopped run had leased goes back to the queue (SQLite:
 *   every lease, under the file's exclusive lock; a shared store: the leases whose expiry passed),
 *   and the crawl's facts (`getMeta`: its start URLs, whether sitemaps were read) say the rest.
 */
import type { Outcome, Prior, UrlSource } from './records.js';

/** A URL handed to the loop to fetch: `finish` it, or it goes back to the queue with `requeue`. */
export interface Lease {
  id: number;
  url: string;
  depth: number;
  /** What the crawl before recorded of it (a recrawl's validators and comparison); absent: nothing. */
  prior?: Prior;
}

/** A URL a page leads to (or a start URL, a sitemap seed), already normalised. */
export interface Found {
  url: string;
  depth: number;
  source: UrlSource;
  /** How many times the page names it (1 when absent): each counts as an external link. */
  times?: number;
}

/** A pattern cap: the URL is a trap once more than `max` new URLs of `key` were found. */
export interface PatternCap {
  key: string;
  max: number;
  /** What the URL gets when it is over the cap. */
  over: Outcome;
}

/** What a URL not known yet becomes. */
export type Admission =
  /** Outside the crawl's hosts: not stored, only counted. */
  | { kind: 'external' }
  /** Stored as finished without a fetch (out of scope, too deep). */
  | { kind: 'finished'; outcome: Outcome }
  /** Queued, unless it is over its pattern cap. */
  | { kind: 'queued'; cap?: PatternCap };

/** Decides what a new URL becomes. Pure: a store may call it for any URL it is given. */
export type Admit = (found: Found) => Admission;

/** What a commit made durable, beyond the pages themselves. */
export interface Committed {
  /** New URLs queued. */
  queued: number;
  /** New URLs finished at once (excluded, too deep, traps). */
  finished: number;
  /** URLs finished as too deep that were found again within the depth limit: queued again. */
  requeued: number;
  /** Sitemap seeds still queued that a link found: the link frontier is not empty any more. */
  promoted: number;
  /** Links to URLs outside the crawl (not stored). */
  external: number;
  /** URLs that went over their pattern cap, in order. */
  trapped: Array<{ key: string; url: string }>;
}

/** URLs by state. */
export interface FrontierCounts {
  queued: number;
  done: number;
  /** URLs with an HTTP exchange. */
  fetched: number;
  listed: number;
  total: number;
}

export interface Frontier {
  /** Where the state is (a path, a database name), for messages. */
  readonly where: string;
  /** Up to `n` queued URLs found by links or given as start URLs, nearest to the start first. */
  lease(n: number): Promise<Lease[]>;
  /**
   * Up to `n` sitemap seeds no link reached, leased as entry points (depth 0). The loop asks only
   * once nothing else is queued or in flight, so a seed a page links to keeps its link depth.
   */
  leaseSeeds(n: number): Promise<Lease[]>;
  /**
   * Records a leased URL's outcome and the URLs it leads to (with the page as their referrer), in
   * the open batch: durable at the next {@link commit}.
   */
  finish(lease: Lease, outcome: Outcome, found: readonly Found[], admit: Admit): void;
  /** Records URLs found without a referrer (start URLs, sitemap seeds) in the open batch. */
  add(found: readonly Found[], admit: Admit): void;
  /** Makes the open batch durable. */
  commit(): Promise<Committed>;
  /** Puts every URL leased and not finished back in the queue (when a run stops). */
  requeue(): Promise<void>;
  counts(): Promise<FrontierCounts>;
  /** The crawl's own facts (start URLs, whether sitemaps were read, status). */
  getMeta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string): Promise<void>;
}

/** A commit that made nothing but pages durable. */
export function emptyCommitted(): Committed {
  return { queued: 0, finished: 0, requeued: 0, promoted: 0, external: 0, trapped: [] };
}
