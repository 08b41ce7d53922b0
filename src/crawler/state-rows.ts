/**
 * The rows of the crawl state as SQLite gives them and as the crawl reads them: a URL's record,
 * and a leased URL with what the crawl before recorded of it (for a recrawl).
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { Change, Outcome, Prior, UrlRecord, UrlSource, Verdict } from './records.js';

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

/** Queued, done, fetched (an HTTP exchange was made) and listed URLs, and all of them. */
export interface StateCounts {
  queued: number;
  done: number;
  fetched: number;
  listed: number;
  total: number;
}

export const COUNTS_SQL = `SELECT
  COALESCE(SUM(state = 0), 0) AS queued,
  COALESCE(SUM(state = 2), 0) AS done,
  COALESCE(SUM(attempts > 0), 0) AS fetched,
  COALESCE(SUM(verdict = 'listed'), 0) AS listed,
  COUNT(*) AS total
FROM urls`;

/** URLs per verdict (`queued` for those never reached), in the order of their names. */
export const VERDICT_COUNTS_SQL =
  "SELECT COALESCE(verdict, 'queued') AS v, COUNT(*) AS n FROM urls GROUP BY v";

/** Fetched URLs per HTTP status, in order. */
export const STATUS_COUNTS_SQL =
  'SELECT status, COUNT(*) AS n FROM urls WHERE status IS NOT NULL GROUP BY status ORDER BY status';

/**
 * The counts, the URLs per verdict and the fetched URLs per status, from one scan of every URL
 * (three scans before: a second at a million pages, after the crawl's last page). The groups are
 * few (a state, a verdict and a status each); {@link talliesOf} adds them up.
 */
export const TALLY_SQL =
  'SELECT state, attempts > 0 AS fetched, verdict, status, COUNT(*) AS n FROM urls GROUP BY state, fetched, verdict, status';

/**
 * The groups of {@link TALLY_SQL}, once the crawl loop is over. With no index to follow, the GROUP
 * BY sorts every URL in a temporary B-tree: held in memory (`temp_store`, which the loop's savepoint
 * journals want), it was 30 to 40 MiB on top of the crawl's heap at a million URLs, the crawl's
 * peak RSS. A file takes the sort past the page cache instead, in the same time (0.33 s).
 */
export function tallyRows(db: BetterSqlite3.Database): TallyRow[] {
  db.pragma('temp_store = FILE');
  return db.prepare(TALLY_SQL).all() as TallyRow[];
}

/** One group of {@link TALLY_SQL}. */
export interface TallyRow {
  state: number;
  fetched: number;
  verdict: string | null;
  status: number | null;
  n: number;
}

/** What {@link talliesOf} adds up: `verdicts` in the order of their names, `statuses` by number. */
export interface Tallies {
  counts: StateCounts;
  /** URLs per verdict, `queued` for those never reached. */
  verdicts: Map<string, number>;
  /** Fetched URLs per HTTP status. */
  statuses: Map<number, number>;
}

/** The groups of {@link TALLY_SQL} added up (the same figures as the three queries they replace). */
export function talliesOf(rows: readonly TallyRow[]): Tallies {
  const counts: StateCounts = { queued: 0, done: 0, fetched: 0, listed: 0, total: 0 };
  const verdicts = new Map<string, number>();
  const statuses = new Map<number, number>();
  for (const r of rows) {
    counts.total += r.n;
    if (r.state === 0) counts.queued += r.n;
    else if (r.state === 2) counts.done += r.n;
    if (r.fetched === 1) counts.fetched += r.n;
    if (r.verdict === 'listed') counts.listed += r.n;
    const v = r.verdict ?? 'queued';
    verdicts.set(v, (verdicts.get(v) ?? 0) + r.n);
    if (r.status !== null) statuses.set(r.status, (statuses.get(r.status) ?? 0) + r.n);
  }
  // SQLite's GROUP BY gave the names in byte order: so do these (verdicts are ASCII).
  const byName = [...verdicts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { counts, verdicts: new Map(byName), statuses: new Map([...statuses].sort(([a], [b]) => a - b)) };
}

/** What a recrawl changed, by kind, over the URLs it finished (`CrawlState.changeCounts`). */
export const CHANGE_COUNTS_SQL = `SELECT
  COALESCE(SUM(change = 'unchanged'), 0) AS unchanged,
  COALESCE(SUM(change = 'unchanged' AND status = 304), 0) AS notModified,
  COALESCE(SUM(change = 'changed'), 0) AS changed,
  COALESCE(SUM(change = 'added'), 0) AS added,
  COALESCE(SUM(change = 'removed'), 0) AS removed,
  COALESCE(SUM(change = 'kept'), 0) AS kept
FROM urls WHERE state = 2`;

/** URLs added to, changed in or removed from the sitemap by this crawl, in discovery order. */
export const CHANGES_SQL =
  "SELECT * FROM urls WHERE change IN ('added', 'changed', 'removed') AND state = 2 ORDER BY id";

/** A finished URL's outcome (`CrawlState.finish`). */
export const FINISH_SQL: string = `UPDATE urls SET state = 2, status = @status, verdict = @verdict, reason = @reason, target = @target,
         content_type = @contentType, title = @title, canonical = @canonical,
         description_length = @descriptionLength, lastmod = @lastmod, extra = @extra, bytes = @bytes,
         ms = @ms, attempts = @attempts, etag = @etag, last_modified = @lastModified,
         fingerprint = @fingerprint, changed_at = @changedAt, rendered = @rendered, ${MERGE_CHANGE} WHERE id = @id`;

/** A 304 (or a failure of a listed page): what the last crawl recorded stays, verdict included. */
export const KEEP_SQL: string = `UPDATE urls SET state = 2, status = @status, reason = @reason, bytes = @bytes, ms = @ms,
         attempts = @attempts, etag = COALESCE(@etag, etag), last_modified = COALESCE(@lastModified, last_modified),
         ${MERGE_CHANGE} WHERE id = @id`;

/** {@link FINISH_SQL}'s parameters for a URL's outcome. */
export function finishParams(id: number, o: Outcome): Record<string, unknown> {
  return {
    id,
    status: o.status ?? null,
    verdict: o.verdict,
    reason: o.reason ?? null,
    target: o.target ?? null,
    contentType: o.contentType ?? null,
    title: o.title ?? null,
    canonical: o.canonical ?? null,
    descriptionLength: o.descriptionLength ?? null,
    lastmod: o.lastmod ?? null,
    extra: o.extra ?? null,
    bytes: o.bytes ?? null,
    ms: o.ms ?? null,
    attempts: o.attempts ?? 0,
    etag: o.etag ?? null,
    lastModified: o.lastModified ?? null,
    fingerprint: o.fingerprint ?? null,
    changedAt: o.changedAt ?? null,
    change: o.change ?? null,
    changeAt: o.changeAt ?? null,
    rendered: o.rendered ?? null,
  };
}

/** {@link KEEP_SQL}'s parameters for a URL's outcome (a 304, or a failure of a listed page). */
export function keepParams(id: number, o: Outcome): Record<string, unknown> {
  return {
    id,
    status: o.status ?? null,
    reason: o.reason ?? null,
    bytes: o.bytes ?? null,
    ms: o.ms ?? null,
    attempts: o.attempts ?? 0,
    etag: o.etag ?? null,
    lastModified: o.lastModified ?? null,
    change: o.change ?? null,
    changeAt: o.changeAt ?? null,
  };
}
