/**
 * The statements of the PostgreSQL frontier (frontier-postgres.ts): claims, and the commit's,
 * each one round trip with its rows as one JSON or array parameter, run as named statements.
 */

import { SEEN_KEY } from './frontier-postgres-schema.js';
import { type Outcome, SEED_DEPTH } from './records.js';

const LEASE_RETURNING =
  'u.id, u.url, u.depth, u.prev_verdict, u.etag, u.last_modified, u.fingerprint, u.changed_at';

/** Claims up to $1 queued URLs for worker $2 for $3 seconds, nearest to the start first. */
function claim(seeds: boolean): string {
  return `WITH c AS (
  SELECT id FROM urls WHERE state = 0 AND depth ${seeds ? '>=' : '<'} ${SEED_DEPTH}
  ORDER BY depth, id LIMIT $1 FOR UPDATE SKIP LOCKED
)
UPDATE urls u SET state = 1, lease_owner = $2,
  lease_until = clock_timestamp() + make_interval(secs => $3)${seeds ? ', depth = 0' : ''}
FROM c WHERE u.id = c.id
RETURNING ${LEASE_RETURNING}`;
}

export const CLAIM: string = claim(false);
/** Sitemap seeds no link reached, leased as entry points (depth 0). */
export const CLAIM_SEEDS: string = claim(true);

/** Leases whose worker stopped renewing them go back to the queue. */
export const RECLAIM =
  'UPDATE urls SET state = 0, lease_owner = NULL, lease_until = NULL WHERE state = 1 AND lease_until < clock_timestamp()';

/** A worker's leases go back to the queue (it stops). */
export const REQUEUE =
  'UPDATE urls SET state = 0, lease_owner = NULL, lease_until = NULL WHERE state = 1 AND lease_owner = $1';

/** The columns an outcome sets (and a page's links), as `json_to_recordset` reads them. */
export const OUTCOME_COLUMNS: string =
  'id bigint, status integer, verdict text, reason text, target text, content_type text, title text, canonical text, description_length integer, lastmod text, extra text, bytes bigint, ms integer, attempts integer, etag text, last_modified text, fingerprint text, changed_at text, change text, change_at text, rendered text, keep boolean, links bigint[]';

/** The pages finished: only those no one recorded finished before (`state <> 2`). */
function finish(returning: string): string {
  return `UPDATE urls u SET state = 2, status = v.status,
  verdict = CASE WHEN v.keep THEN u.verdict ELSE v.verdict END,
  reason = v.reason,
  target = CASE WHEN v.keep THEN u.target ELSE v.target END,
  content_type = CASE WHEN v.keep THEN u.content_type ELSE v.content_type END,
  title = CASE WHEN v.keep THEN u.title ELSE v.title END,
  canonical = CASE WHEN v.keep THEN u.canonical ELSE v.canonical END,
  description_length = CASE WHEN v.keep THEN u.description_length ELSE v.description_length END,
  lastmod = CASE WHEN v.keep THEN u.lastmod ELSE v.lastmod END,
  extra = CASE WHEN v.keep THEN u.extra ELSE v.extra END,
  bytes = v.bytes, ms = v.ms, attempts = v.attempts,
  etag = CASE WHEN v.keep THEN COALESCE(v.etag, u.etag) ELSE v.etag END,
  last_modified = CASE WHEN v.keep THEN COALESCE(v.last_modified, u.last_modified) ELSE v.last_modified END,
  fingerprint = CASE WHEN v.keep THEN u.fingerprint ELSE v.fingerprint END,
  changed_at = CASE WHEN v.keep THEN u.changed_at ELSE v.changed_at END,
  rendered = CASE WHEN v.keep THEN u.rendered ELSE v.rendered END,
  change = v.change, change_at = v.change_at,
  lease_owner = NULL, lease_until = NULL, finished_by = $2
FROM json_to_recordset($1::json) AS v(${OUTCOME_COLUMNS})
WHERE u.id = v.id AND u.state <> 2
RETURNING ${returning}`;
}

export const FINISH: string = finish('u.id, v.attempts');

/**
 * New URLs: ids drawn in discovery order (the report's and the queue's order), rows inserted in
 * the seen-set's order so that concurrent workers take its locks in one order (fewer deadlocks).
 */
export const INSERT: string = `
WITH v AS MATERIALIZED (
  SELECT s.*, nextval('urls_id') AS nid, md5(s.url)::uuid AS h
  FROM (SELECT * FROM json_to_recordset($1::json) AS x(ord integer, url text, depth integer, via bigint,
    source text, verdict text, reason text) ORDER BY ord) s
)
INSERT INTO urls (id, h, url, depth, via, source, state, verdict, reason, finished_by)
SELECT nid, h, url, depth, via, source, CASE WHEN verdict IS NULL THEN 0 ELSE 2 END, verdict, reason,
  CASE WHEN verdict IS NULL THEN NULL ELSE $2 END
FROM v ORDER BY h, url
ON CONFLICT (h, ${SEEN_KEY}) DO NOTHING
RETURNING id, url`;

/**
 * URLs known already (the INSERT skipped them): their ids and depths, for the links and for this
 * worker's cache, and those found again closer to the start lowered: a queued one takes the smaller
 * depth (a sitemap seed that a link reaches is then `promoted`), and one left out as too deep is
 * queued again when the new depth is within the limit (`requeued`). `k` is the row before the
 * update; the update's own conditions are checked again on the row it locks.
 */
export const KNOWN = `
WITH k AS MATERIALIZED (
  SELECT u.id, u.url, u.depth, u.state, v.depth AS nd, v.h
  FROM (SELECT md5(x.url)::uuid AS h, x.url, x.depth FROM json_to_recordset($1::json) AS x(url text, depth integer)) v
  JOIN urls u ON u.h = v.h AND u.url = v.url
), up AS (
  UPDATE urls u SET depth = k.nd,
    state = CASE WHEN u.state = 2 THEN 0 ELSE u.state END,
    verdict = CASE WHEN u.state = 2 THEN NULL ELSE u.verdict END,
    reason = CASE WHEN u.state = 2 THEN NULL ELSE u.reason END,
    finished_by = CASE WHEN u.state = 2 THEN NULL ELSE u.finished_by END
  FROM (SELECT * FROM k WHERE k.depth > k.nd ORDER BY h, url) k
  WHERE u.id = k.id AND u.depth > k.nd
    AND (u.state = 0 OR (u.state = 2 AND u.verdict = 'too-deep' AND k.nd <= $2))
  RETURNING u.id
)
SELECT k.id, k.url, k.depth AS was_depth, k.state AS was_state, k.nd, up.id IS NOT NULL AS lowered
FROM k LEFT JOIN up ON up.id = k.id`;

/**
 * Pages' links, one row a page (`source`, `targets`), each target once, by ids known in memory (no
 * join): a page is recorded finished once, its links with it. With them, the worker's share of the
 * progress (the rate of `crawl-status`, $3 pages fetched) and its counts ($3 pages fetched, $4 URLs
 * finished without a fetch), in the same round trip.
 */
export const LINKS = `
WITH p AS (INSERT INTO progress (worker, pages) SELECT $2, $3::integer WHERE $3::integer > 0),
w AS (UPDATE workers SET fetched = fetched + $3::integer, without_fetch = without_fetch + $4::integer
  WHERE id = $2 AND $3::integer + $4::integer > 0)
INSERT INTO page_links (source, targets)
SELECT source, targets FROM json_to_recordset($1::json) AS x(source bigint, targets bigint[])`;

/**
 * A whole batch in one statement, when every URL its pages found is known to this worker (the
 * common case once a site's pages link to each other): the pages finished, the links of the pages
 * this statement finished (not of one someone else recorded first), the progress row and the
 * worker's counts (a page is fetched when it took a request, `attempts > 0`, as the worker's
 * result counts it). One statement is one transaction: no BEGIN and COMMIT round trips.
 */
export const FINISH_ALL: string = `
WITH f AS (${finish('u.id, v.links, v.attempts')}),
l AS (INSERT INTO page_links (source, targets) SELECT id, links FROM f WHERE cardinality(links) > 0),
p AS (INSERT INTO progress (worker, pages)
  SELECT $2, count(*) FILTER (WHERE attempts > 0) FROM f HAVING count(*) FILTER (WHERE attempts > 0) > 0),
w AS (UPDATE workers SET fetched = fetched + (SELECT count(*) FILTER (WHERE attempts > 0) FROM f),
  without_fetch = without_fetch + (SELECT count(*) FILTER (WHERE attempts = 0) FROM f)
  WHERE id = $2 AND EXISTS (SELECT 1 FROM f))
SELECT id FROM f`;

export const PATTERNS = `
INSERT INTO patterns (key, n) SELECT key, n FROM jsonb_to_recordset($1::jsonb) AS x(key text, n bigint) ORDER BY key
ON CONFLICT (key) DO UPDATE SET n = patterns.n + excluded.n
RETURNING key, n`;

export const TRAP = `
UPDATE urls u SET state = 2, verdict = 'trap', reason = v.reason, finished_by = $2
FROM jsonb_to_recordset($1::jsonb) AS v(id bigint, reason text) WHERE u.id = v.id`;

export function outcomeRow(id: number, o: Outcome): Record<string, unknown> {
  return {
    id,
    status: o.status ?? null,
    verdict: o.verdict,
    reason: o.reason ?? null,
    target: o.target ?? null,
    content_type: o.contentType ?? null,
    title: o.title ?? null,
    canonical: o.canonical ?? null,
    description_length: o.descriptionLength ?? null,
    lastmod: o.lastmod ?? null,
    extra: o.extra ?? null,
    bytes: o.bytes ?? null,
    ms: o.ms ?? null,
    attempts: o.attempts ?? 0,
    etag: o.etag ?? null,
    last_modified: o.lastModified ?? null,
    fingerprint: o.fingerprint ?? null,
    changed_at: o.changedAt ?? null,
    change: o.change ?? null,
    change_at: o.changeAt ?? null,
    rendered: o.rendered ?? null,
    keep: o.keep === true,
  };
}
