/**
 * The rows of the crawl state as SQLite gives them and as the crawl reads them: a URL's record,
 * and a leased URL with what the crawl before recorded of it (for a recrawl).
 */
import type { Change, Prior, UrlRecord, UrlSource, Verdict } from './records.js';

/** A URL the state knows, as a link found again finds it (`CrawlState.lookup`). */
export interface Known {
  id: number;
  /** Finished as too deep, found again within the depth limit: queued again. */
  requeued: boolean;
  /** A sitemap seed still queued that a link found: now in the link frontier, at its depth. */
  promoted: boolean;
}

export interface RawRow {
  id: number;
  url: string;
  depth: number;
  state: number;
  via: number | null;
  source: UrlSource;
  status: number | null;
  verdict: Verdict | null;
  reason: string | null;
  target: string | null;
  content_type: string | null;
  title: string | null;
  canonical: string | null;
  description_length: number | null;
  lastmod: string | null;
  extra: string | null;
  bytes: number | null;
  ms: number | null;
  attempts: number;
  changed_at: string | null;
  change: Change | null;
  change_at: string | null;
  rendered: string | null;
}

export function toRecord(r: RawRow): UrlRecord {
  return {
    id: r.id,
    url: r.url,
    depth: r.depth,
    state: r.state,
    via: r.via,
    source: r.source,
    status: r.status,
    verdict: r.verdict,
    reason: r.reason,
    target: r.target,
    contentType: r.content_type,
    title: r.title,
    canonical: r.canonical,
    descriptionLength: r.description_length,
    lastmod: r.lastmod,
    extra: r.extra,
    bytes: r.bytes,
    ms: r.ms,
    attempts: r.attempts,
    changedAt: r.changed_at,
    change: r.change,
    changeAt: r.change_at,
    rendered: r.rendered ?? null,
  };
}

/** A leased URL with what the crawl before recorded of it. */
export interface LeasedRow {
  id: number;
  url: string;
  depth: number;
  prior: Prior;
}

export interface LeaseRaw {
  id: number;
  url: string;
  depth: number;
  prev_verdict: Verdict | null;
  etag: string | null;
  last_modified: string | null;
  fingerprint: string | null;
  changed_at: string | null;
}

export function leased(r: LeaseRaw, depth: number = r.depth): LeasedRow {
  return {
    id: r.id,
    url: r.url,
    depth,
    prior: {
      verdict: r.prev_verdict,
      etag: r.etag,
      lastModified: r.last_modified,
      fingerprint: r.fingerprint,
      changedAt: r.changed_at,
    },
  };
}

export const LEASE_COLUMNS = 'id, url, depth, prev_verdict, etag, last_modified, fingerprint, changed_at';

/** Verdicts given without a request, by the crawl's own scope: a recrawl keeps them as they are. */
export const UNFETCHED = "('excluded', 'trap', 'too-deep')";

/**
 * How a finished URL's change is recorded: a change waiting to be published (added, changed,
 * removed by a crawl whose output was never written) stays unless this crawl saw a new one; an
 * `unchanged` or `kept` now does not hide it.
 */
export const MERGE_CHANGE = `change_at = CASE WHEN COALESCE(@change, 'unchanged') IN ('unchanged', 'kept')
    AND change IN ('added', 'changed', 'removed') THEN change_at ELSE @changeAt END,
  change = CASE WHEN COALESCE(@change, 'unchanged') IN ('unchanged', 'kept')
    AND change IN ('added', 'changed', 'removed') THEN change ELSE @change END`;

/**
 * The report's pass (report.ts): every URL's columns as one array, by position in this order, with
 * the address of the page that first linked to it and its number of inbound links, in discovery
 * order. Arrays, not records: at a million URLs an object a row was seconds of the output.
 */
export const REPORT_CELLS_SQL = `SELECT u.url, u.depth, u.status, u.verdict, u.reason, u.target, u.content_type,
  u.title, u.lastmod, u.source, v.url, (SELECT COUNT(*) FROM links l WHERE l.target = u.id), u.bytes, u.ms,
  u.attempts, u.canonical, u.description_length, u.rendered, u.changed_at, u.change
  FROM urls u LEFT JOIN urls v ON v.id = u.via ORDER BY u.id`;
