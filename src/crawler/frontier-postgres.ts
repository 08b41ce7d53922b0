/**
 * The frontier of a crawl shared by many workers through PostgreSQL (issue 17), behind the same
 * interface as the SQLite one (frontier.ts):
 *
 * - a lease is claimed with `FOR UPDATE SKIP LOCKED` in one short statement that only sets the
 *   owner and the expiry: no row lock is held while the page is fetched; a worker's heartbeat
 *   extends its leases, and leases whose expiry passed (a worker killed, a machine lost) go back to
 *   the queue for anyone;
 * - `finish` and `add` only record into the open batch (in memory); `commit` writes the batch in
 *   one transaction, as the SQLite frontier commits once per turn of the loop. A page is recorded
 *   finished only if no one finished it before (`state <> 2`), and its links only with it, so a
 *   page fetched twice (a lease that expired under a slow worker) is still recorded once;
 * - the seen-set is unique on (md5 of the URL as a uuid, URL): 16 bytes lead every lookup, and a
 *   collision of the hash never drops a URL;
 * - a transaction a lost connection or a deadlock broke is run again from the batch in memory.
 */
import type { PoolClient } from 'pg';
import {
  type Admission,
  type Admit,
  type Committed,
  emptyCommitted,
  type Found,
  type Frontier,
  type FrontierCounts,
  type Lease,
} from './frontier.js';
import type { PgDb } from './frontier-postgres-db.js';
import { SEEN_KEY } from './frontier-postgres-schema.js';
import { type Outcome, SEED_DEPTH, type UrlSource } from './records.js';
import { type LeaseRaw, leased } from './state-rows.js';

/** Where a fault-injection test may kill a worker (`onStep`). */
export type PgStep = 'pg:claimed' | 'pg:mid-fetch' | 'pg:before-commit' | 'pg:after-commit';

export interface PgFrontierOptions {
  workerId: string;
  leaseSeconds: number;
  maxDepth: number;
  /** URLs claimed at most per lease call (the rest stays for the other workers). */
  lot: number;
  /** `urls`: the URLs claimed, being fetched, or in the batch (before) and recorded by it (after). */
  onStep: ((step: PgStep, urls: readonly string[]) => void | Promise<void>) | undefined;
}

/** A URL found in the open batch, judged by the crawl's `admit` when it was found. */
interface Pending {
  url: string;
  depth: number;
  source: UrlSource;
  /** The lease of the page that found it; null for start URLs and sitemap seeds. */
  via: number | null;
  admission: Exclude<Admission, { kind: 'external' }>;
}

const LEASE_RETURNING =
  'u.id, u.url, u.depth, u.prev_verdict, u.etag, u.last_modified, u.fingerprint, u.changed_at';

/** The columns an outcome sets, as `jsonb_to_recordset` reads them. */
const OUTCOME_COLUMNS =
  'id bigint, status integer, verdict text, reason text, target text, content_type text, title text, canonical text, description_length integer, lastmod text, extra text, bytes bigint, ms integer, attempts integer, etag text, last_modified text, fingerprint text, changed_at text, change text, change_at text, rendered text, keep boolean';

const FINISH = `
UPDATE urls u SET state = 2, status = v.status,
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
FROM jsonb_to_recordset($1::jsonb) AS v(${OUTCOME_COLUMNS})
WHERE u.id = v.id AND u.state <> 2
RETURNING u.id`;

/**
 * New URLs: ids drawn in discovery order (the report's and the queue's order), rows inserted in
 * the seen-set's order so that concurrent workers take its locks in one order (fewer deadlocks).
 */
const INSERT = `
WITH v AS MATERIALIZED (
  SELECT s.*, nextval('urls_id') AS nid, md5(s.url)::uuid AS h
  FROM (SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(ord integer, url text, depth integer, via bigint,
    source text, verdict text, reason text) ORDER BY ord) s
)
INSERT INTO urls (id, h, url, depth, via, source, state, verdict, reason, finished_by)
SELECT nid, h, url, depth, via, source, CASE WHEN verdict IS NULL THEN 0 ELSE 2 END, verdict, reason,
  CASE WHEN verdict IS NULL THEN NULL ELSE $2 END
FROM v ORDER BY h, url
ON CONFLICT (h, ${SEEN_KEY}) DO NOTHING
RETURNING id, url`;

/**
 * URLs known already and found again closer to the start: a queued one takes the smaller depth
 * (a sitemap seed that a link reaches is then `promoted`), and one left out as too deep is queued
 * again when the new depth is within the limit (`requeued`). `o` is the row before the update.
 */
const LOWER = `
UPDATE urls u SET depth = v.depth,
  state = CASE WHEN u.state = 2 THEN 0 ELSE u.state END,
  verdict = CASE WHEN u.state = 2 THEN NULL ELSE u.verdict END,
  reason = CASE WHEN u.state = 2 THEN NULL ELSE u.reason END,
  finished_by = CASE WHEN u.state = 2 THEN NULL ELSE u.finished_by END
FROM (SELECT md5(x.url)::uuid AS h, x.url, x.depth FROM jsonb_to_recordset($1::jsonb) AS x(url text, depth integer)
  ORDER BY 1, 2) v, urls o
WHERE u.h = v.h AND u.url = v.url AND o.id = u.id AND u.depth > v.depth
  AND (u.state = 0 OR (u.state = 2 AND u.verdict = 'too-deep' AND v.depth <= $2))
RETURNING o.state AS was_state, o.depth AS was_depth`;

/**
 * A page's links, once per pair: a page is recorded finished once (its links with it), so the
 * table needs no unique index, only one on the page for reading it back in order.
 */
const LINKS = `
INSERT INTO links (target, source)
SELECT DISTINCT u.id, v.via FROM jsonb_to_recordset($1::jsonb) AS v(url text, via bigint)
  JOIN urls u ON u.h = md5(v.url)::uuid AND u.url = v.url
WHERE u.id <> v.via`;

const PATTERNS = `
INSERT INTO patterns (key, n) SELECT key, n FROM jsonb_to_recordset($1::jsonb) AS x(key text, n bigint) ORDER BY key
ON CONFLICT (key) DO UPDATE SET n = patterns.n + excluded.n
RETURNING key, n`;

const TRAP = `
UPDATE urls u SET state = 2, verdict = 'trap', reason = v.reason, finished_by = $2
FROM jsonb_to_recordset($1::jsonb) AS v(id bigint, reason text) WHERE u.id = v.id`;

function outcomeRow(id: number, o: Outcome): Record<string, unknown> {
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

export class PostgresFrontier implements Frontier {
  readonly where: string;
  readonly #db: PgDb;
  readonly #o: PgFrontierOptions;
  #finished: Array<{ id: number; url: string; outcome: Outcome }> = [];
  #found: Pending[] = [];
  #external = 0;
  /** When expired leases were last returned to the queue (ms). */
  #reclaimed = Number.NEGATIVE_INFINITY;
  /** The last claim found nothing: the next one looks for expired leases first. */
  #empty = false;
  /** Pages this worker recorded finished (its own share of the crawl). */
  pages = 0;

  constructor(db: PgDb, o: PgFrontierOptions) {
    this.where = db.target.shown;
    this.#db = db;
    this.#o = o;
  }

  async lease(n: number): Promise<Lease[]> {
    return this.#claim(n, false);
  }

  async leaseSeeds(n: number): Promise<Lease[]> {
    return this.#claim(n, true);
  }

  async #claim(n: number, seeds: boolean): Promise<Lease[]> {
    const o = this.#o;
    const rows = await this.#db.with('claim URLs', async (c) => {
      // Leases whose worker stopped renewing them are anyone's again (looked for once a second at
      // most: a lease lasts seconds, and a claim is the loop's most frequent statement after commits).
      const now = Date.now();
      if (now - this.#reclaimed >= 1000 || this.#empty) {
        this.#reclaimed = now;
        await c.query(
          'UPDATE urls SET state = 0, lease_owner = NULL, lease_until = NULL WHERE state = 1 AND lease_until < clock_timestamp()',
        );
      }
      const r = await c.query(
        `WITH c AS (
           SELECT id FROM urls WHERE state = 0 AND depth ${seeds ? '>=' : '<'} ${SEED_DEPTH}
           ORDER BY depth, id LIMIT $1 FOR UPDATE SKIP LOCKED
         )
         UPDATE urls u SET state = 1, lease_owner = $2,
           lease_until = clock_timestamp() + make_interval(secs => $3)${seeds ? ', depth = 0' : ''}
         FROM c WHERE u.id = c.id
         RETURNING ${LEASE_RETURNING}`,
        [Math.min(n, o.lot), o.workerId, o.leaseSeconds],
      );
      return r.rows as LeaseRaw[];
    });
    this.#empty = rows.length === 0;
    rows.sort((a, b) => a.depth - b.depth || a.id - b.id);
    if (rows.length > 0)
      await o.onStep?.(
        'pg:claimed',
        rows.map((r) => r.url),
      );
    return rows.map((r) => leased(r));
  }

  finish(lease: Lease, outcome: Outcome, found: readonly Found[], admit: Admit): void {
    this.#finished.push({ id: lease.id, url: lease.url, outcome });
    this.#record(found, lease.id, admit);
  }

  add(found: readonly Found[], admit: Admit): void {
    this.#record(found, null, admit);
  }

  #record(found: readonly Found[], via: number | null, admit: Admit): void {
    for (const f of found) {
      // Pure, so it may judge a URL the database knows already: its verdict is then unused.
      const a = admit(f);
      if (a.kind === 'external') this.#external += f.times ?? 1;
      else this.#found.push({ url: f.url, depth: f.depth, source: f.source, via, admission: a });
    }
  }

  async commit(): Promise<Committed> {
    // Taken out of the batch before the first await: pages that finish while the transaction runs
    // go into the next batch.
    const finished = this.#finished;
    const found = this.#found;
    const external = this.#external;
    this.#finished = [];
    this.#found = [];
    this.#external = 0;
    if (finished.length === 0 && found.length === 0) return { ...emptyCommitted(), external };
    let done: { committed: Committed; applied: Set<number> };
    try {
      await this.#o.onStep?.(
        'pg:before-commit',
        finished.map((f) => f.url),
      );
      done = await this.#db.transaction('record finished pages', (c) => this.#write(c, finished, found));
    } catch (error) {
      // Not durable: the batch is written by the next commit (a worker that stops returns its claims).
      this.#finished = [...finished, ...this.#finished];
      this.#found = [...found, ...this.#found];
      this.#external += external;
      throw error;
    }
    this.pages += done.applied.size;
    if (this.#o.onStep !== undefined) {
      await this.#o.onStep(
        'pg:after-commit',
        finished.filter((f) => done.applied.has(f.id)).map((f) => f.url),
      );
    }
    return { ...done.committed, external };
  }

  async #write(
    c: PoolClient,
    finished: ReadonlyArray<{ id: number; outcome: Outcome }>,
    found: readonly Pending[],
  ): Promise<{ committed: Committed; applied: Set<number> }> {
    const me = this.#o.workerId;
    const b = emptyCommitted();
    let applied = new Set<number>();
    if (finished.length > 0) {
      const rows = [...finished].sort((x, y) => x.id - y.id).map((f) => outcomeRow(f.id, f.outcome));
      const r = await c.query(FINISH, [JSON.stringify(rows), me]);
      applied = new Set(r.rows.map((x: { id: number }) => x.id));
    }
    // A page someone else recorded first: its links were recorded with it.
    const live = found.filter((f) => f.via === null || applied.has(f.via));
    // One row per URL, at its smallest depth (the admission that depth got).
    const byUrl = new Map<string, Pending>();
    for (const f of live) {
      const seen = byUrl.get(f.url);
      if (seen === undefined || f.depth < seen.depth) byUrl.set(f.url, f);
    }
    const unique = [...byUrl.values()];
    if (unique.length > 0) {
      const rows = unique.map((f, ord) => {
        const out = f.admission.kind === 'finished' ? f.admission.outcome : undefined;
        return {
          ord,
          url: f.url,
          depth: f.depth,
          via: f.via,
          source: f.source,
          verdict: out?.verdict ?? null,
          reason: out?.reason ?? null,
        };
      });
      const inserted = await c.query(INSERT, [JSON.stringify(rows), me]);
      const ids = new Map<string, number>(
        inserted.rows.map((r: { id: number; url: string }) => [r.url, r.id]),
      );
      const capped = new Map<string, Array<{ id: number; url: string; max: number; reason: string }>>();
      for (const f of unique) {
        const id = ids.get(f.url);
        if (id === undefined) continue;
        if (f.admission.kind === 'finished') {
          b.finished++;
          continue;
        }
        const cap = f.admission.cap;
        if (cap === undefined) {
          b.queued++;
          continue;
        }
        let list = capped.get(cap.key);
        if (list === undefined) {
          list = [];
          capped.set(cap.key, list);
        }
        list.push({ id, url: f.url, max: cap.max, reason: cap.over.reason ?? 'trap' });
      }
      if (capped.size > 0) await this.#caps(c, capped, b);
      const known = unique.filter((f) => !ids.has(f.url)).map((f) => ({ url: f.url, depth: f.depth }));
      if (known.length > 0) {
        const lower = await c.query(LOWER, [JSON.stringify(known), Math.min(this.#o.maxDepth, 2 ** 31 - 1)]);
        for (const r of lower.rows as Array<{ was_state: number; was_depth: number }>) {
          if (r.was_state === 2) b.requeued++;
          else if (r.was_depth >= SEED_DEPTH) b.promoted++;
        }
      }
    }
    const links = new Map<string, { url: string; via: number }>();
    for (const f of live) if (f.via !== null) links.set(`${f.via} ${f.url}`, { url: f.url, via: f.via });
    if (links.size > 0) await c.query(LINKS, [JSON.stringify([...links.values()])]);
    if (applied.size > 0) {
      await c.query(
        'WITH p AS (INSERT INTO progress (worker, pages) VALUES ($1, $2)) UPDATE workers SET fetched = fetched + $2 WHERE id = $1',
        [me, applied.size],
      );
    }
    return { committed: b, applied };
  }

  /** Counts new URLs against their pattern caps; those over a cap are finished as traps. */
  async #caps(
    c: PoolClient,
    capped: Map<string, Array<{ id: number; url: string; max: number; reason: string }>>,
    b: Committed,
  ): Promise<void> {
    const add = [...capped].map(([key, list]) => ({ key, n: list.length }));
    const r = await c.query(PATTERNS, [JSON.stringify(add)]);
    const traps: Array<{ id: number; reason: string }> = [];
    for (const { key, n } of r.rows as Array<{ key: string; n: number }>) {
      const list = capped.get(key)!;
      // The counts before this batch's URLs of the pattern, then one more per URL, in discovery order.
      let count = n - list.length;
      for (const x of list) {
        count++;
        if (count > x.max) {
          traps.push({ id: x.id, reason: x.reason });
          b.trapped.push({ key, url: x.url });
          b.finished++;
        } else {
          b.queued++;
        }
      }
    }
    if (traps.length > 0) await c.query(TRAP, [JSON.stringify(traps), this.#o.workerId]);
  }

  async requeue(): Promise<void> {
    await this.#db.query(
      'return leases',
      'UPDATE urls SET state = 0, lease_owner = NULL, lease_until = NULL WHERE state = 1 AND lease_owner = $1',
      [this.#o.workerId],
    );
  }

  async counts(): Promise<FrontierCounts> {
    const rows = await this.#db.query<{
      queued: number;
      leased: number;
      done: number;
      fetched: number;
      listed: number;
      total: number;
    }>(
      'count URLs',
      `SELECT count(*) FILTER (WHERE state = 0)::int AS queued, count(*) FILTER (WHERE state = 1)::int AS leased,
         count(*) FILTER (WHERE state = 2)::int AS done, count(*) FILTER (WHERE attempts > 0)::int AS fetched,
         count(*) FILTER (WHERE verdict = 'listed')::int AS listed, count(*)::int AS total FROM urls`,
    );
    const r = rows[0]!;
    // A URL leased by another worker is still to be done, as far as this worker's totals go.
    return {
      queued: r.queued + r.leased,
      done: r.done,
      fetched: r.fetched,
      listed: r.listed,
      total: r.total,
    };
  }

  async getMeta(key: string): Promise<string | undefined> {
    const rows = await this.#db.query<{ value: string }>(
      'read the crawl',
      'SELECT value FROM meta WHERE key = $1',
      [key],
    );
    return rows[0]?.value;
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.#db.query(
      'write the crawl',
      'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value],
    );
  }

  /** Sets `key` only when no one has: true when this call set it (seeding, the finish step). */
  async claimMeta(key: string, value: string): Promise<boolean> {
    const rows = await this.#db.query(
      'write the crawl',
      'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING key',
      [key, value],
    );
    return rows.length > 0;
  }
}
