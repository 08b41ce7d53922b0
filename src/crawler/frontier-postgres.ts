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
import {
  FINISH,
  FINISH_ALL,
  INSERT,
  KNOWN,
  KNOWN_CAP,
  LINKS,
  outcomeRow,
  PATTERNS,
  TRAP,
} from './frontier-postgres-sql.js';
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

/** A URL's id and depth as a batch's transaction found or made them. */
interface Learned {
  url: string;
  id: number;
  depth: number;
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
  /**
   * URLs this worker knows exist, with their id and a depth the database's is no greater than (a
   * URL's depth only ever decreases), as of its last commits. See {@link KNOWN_CAP}.
   */
  readonly #known = new Map<string, { id: number; depth: number }>();
  /** URLs this worker added: in all when it last had the table analysed, and since. */
  #addedAtAnalyze = 0;
  #added = 0;
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
    let done: { committed: Committed; applied: Set<number>; learned: Learned[] };
    try {
      await this.#o.onStep?.(
        'pg:before-commit',
        finished.map((f) => f.url),
      );
      const links = this.#knownLinks(finished.length, found);
      done =
        links === undefined
          ? await this.#db.transaction('record finished pages', (c) => this.#write(c, finished, found))
          : await this.#db.with('record finished pages', (c) => this.#writeOne(c, finished, links));
    } catch (error) {
      // Not durable: the batch is written by the next commit (a worker that stops returns its claims).
      this.#finished = [...finished, ...this.#finished];
      this.#found = [...found, ...this.#found];
      this.#external += external;
      throw error;
    }
    this.pages += done.applied.size;
    await this.#analyze(done.committed.queued + done.committed.finished);
    // Only what a committed transaction read or wrote: a rolled-back insert's ids never existed.
    for (const x of done.learned) {
      if (this.#known.size >= KNOWN_CAP) this.#known.clear();
      const k = this.#known.get(x.url);
      if (k === undefined || x.depth < k.depth) this.#known.set(x.url, { id: x.id, depth: x.depth });
    }
    if (this.#o.onStep !== undefined) {
      await this.#o.onStep(
        'pg:after-commit',
        finished.filter((f) => done.applied.has(f.id)).map((f) => f.url),
      );
    }
    return { ...done.committed, external };
  }

  /**
   * The links of a batch whose found URLs this worker all knows no deeper than found (so that
   * nothing is inserted or lowered), as target and source ids; undefined when any is not.
   */
  #knownLinks(finished: number, found: readonly Pending[]): { t: number[]; s: number[] } | undefined {
    if (finished === 0) return undefined;
    const t: number[] = [];
    const s: number[] = [];
    const pairs = new Set<string>();
    for (const f of found) {
      const k = this.#known.get(f.url);
      if (k === undefined || k.depth > f.depth) return undefined;
      if (f.via === null || k.id === f.via || pairs.has(`${f.via} ${k.id}`)) continue;
      pairs.add(`${f.via} ${k.id}`);
      t.push(k.id);
      s.push(f.via);
    }
    return { t, s };
  }

  async #writeOne(
    c: PoolClient,
    finished: ReadonlyArray<{ id: number; outcome: Outcome }>,
    links: { t: number[]; s: number[] },
  ): Promise<{ committed: Committed; applied: Set<number>; learned: Learned[] }> {
    const rows = [...finished].sort((x, y) => x.id - y.id).map((f) => outcomeRow(f.id, f.outcome));
    const r = await c.query(FINISH_ALL, [JSON.stringify(rows), this.#o.workerId, links.t, links.s]);
    const applied = new Set(r.rows.map((x: { id: number }) => x.id));
    return { committed: emptyCommitted(), applied, learned: [] };
  }

  async #write(
    c: PoolClient,
    finished: ReadonlyArray<{ id: number; outcome: Outcome }>,
    found: readonly Pending[],
  ): Promise<{ committed: Committed; applied: Set<number>; learned: Learned[] }> {
    const me = this.#o.workerId;
    const b = emptyCommitted();
    const learned: Learned[] = [];
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
    // Remembered no deeper than found again: nothing to insert or lower, only its id for the links.
    const ids = new Map<string, number>();
    const unique: Pending[] = [];
    for (const f of byUrl.values()) {
      const k = this.#known.get(f.url);
      if (k !== undefined && k.depth <= f.depth) ids.set(f.url, k.id);
      else unique.push(f);
    }
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
      const fresh = new Set<string>();
      for (const r of inserted.rows as Array<{ id: number; url: string }>) {
        ids.set(r.url, r.id);
        fresh.add(r.url);
      }
      const capped = new Map<string, Array<{ id: number; url: string; max: number; reason: string }>>();
      for (const f of unique) {
        const id = ids.get(f.url);
        if (id === undefined) continue;
        learned.push({ url: f.url, id, depth: f.depth });
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
      const known = unique.filter((f) => !fresh.has(f.url)).map((f) => ({ url: f.url, depth: f.depth }));
      if (known.length > 0) {
        const r = await c.query(KNOWN, [JSON.stringify(known), Math.min(this.#o.maxDepth, 2 ** 31 - 1)]);
        for (const x of r.rows as Array<{
          id: number;
          url: string;
          was_depth: number;
          was_state: number;
          nd: number;
          lowered: boolean;
        }>) {
          ids.set(x.url, x.id);
          learned.push({ url: x.url, id: x.id, depth: x.lowered ? x.nd : x.was_depth });
          if (!x.lowered) continue;
          if (x.was_state === 2) b.requeued++;
          else if (x.was_depth >= SEED_DEPTH) b.promoted++;
        }
      }
    }
    const targets: number[] = [];
    const sources: number[] = [];
    const pairs = new Set<string>();
    for (const f of live) {
      if (f.via === null) continue;
      const id = ids.get(f.url);
      if (id === undefined || id === f.via || pairs.has(`${f.via} ${id}`)) continue;
      pairs.add(`${f.via} ${id}`);
      targets.push(id);
      sources.push(f.via);
    }
    if (targets.length > 0) await c.query(LINKS, [targets, sources]);
    if (applied.size > 0) {
      await c.query(
        'WITH p AS (INSERT INTO progress (worker, pages) VALUES ($1, $2)) UPDATE workers SET fetched = fetched + $2 WHERE id = $1',
        [me, applied.size],
      );
    }
    return { committed: b, applied, learned };
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

  /**
   * Has the planner's statistics of `urls` made again each time this worker's additions double
   * (from 1,000): autovacuum looks at a database once a minute, and until its first ANALYZE the
   * planner guesses that few rows are queued and sorts the whole queue for every claim, a cost
   * that grows with the crawl (see docs/performance.md). ANALYZE samples a bounded number of rows,
   * so the doublings cost a few of them over a crawl of any size. A user who does not own the
   * table gets a warning from the server, not an error: nothing is lost but the speed.
   */
  async #analyze(added: number): Promise<void> {
    this.#added += added;
    if (this.#added - this.#addedAtAnalyze < Math.max(1000, this.#addedAtAnalyze)) return;
    this.#addedAtAnalyze = this.#added;
    await this.#db.query('update the planner statistics', 'ANALYZE urls');
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
