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
 * - a transaction a lost connection or a deadlock broke is run again from the batch in memory;
 * - in the crawl loop (`ahead`), the round trips overlap the fetches: `commit` starts writing the
 *   batch and returns what the batch before it made durable (at most one batch is being written;
 *   the next `commit` waits for it), and `lease` hands out the URLs claimed at the call before
 *   while it claims the next ones. A kill then re-fetches the pages of the batch being written and
 *   of the one being gathered (pages whose fetch started while the first was written: at most the
 *   loop's concurrency), all of them claimed by the killed worker and not committed.
 */
import type { PoolClient } from 'pg';
import {
  type Admit,
  type Committed,
  emptyCommitted,
  type Found,
  type Frontier,
  type FrontierCounts,
  type Lease,
} from './frontier.js';
import type { PgDb } from './frontier-postgres-db.js';
import { KnownUrls } from './frontier-postgres-known.js';
import { CLAIM, CLAIM_SEEDS, RECLAIM, REQUEUE } from './frontier-postgres-sql.js';
import {
  type BatchContext,
  type FinishedPage,
  knownLinks,
  type Pending,
  type Written,
  writeBatch,
  writeKnown,
} from './frontier-postgres-write.js';
import type { Outcome } from './records.js';
import { type LeaseRaw, leased } from './state-rows.js';

/** Where a fault-injection test may kill a worker (`onStep`). */
export type PgStep = 'pg:claimed' | 'pg:slot-due' | 'pg:mid-fetch' | 'pg:before-commit' | 'pg:after-commit';

export interface PgFrontierOptions {
  workerId: string;
  leaseSeconds: number;
  maxDepth: number;
  /** URLs claimed at most per lease call (the rest stays for the other workers). */
  lot: number;
  /** `urls`: the URLs claimed, being fetched, or in the batch (before) and recorded by it (after). */
  onStep: ((step: PgStep, urls: readonly string[]) => void | Promise<void>) | undefined;
  /** URLs remembered at most (default: KNOWN_CAP of frontier-postgres-known.ts); a test makes it small. */
  knownCap?: number;
}

/** Two commits' counts as one. */
function merge(a: Committed, b: Committed): Committed {
  return {
    queued: a.queued + b.queued,
    finished: a.finished + b.finished,
    requeued: a.requeued + b.requeued,
    promoted: a.promoted + b.promoted,
    external: a.external + b.external,
    trapped: [...a.trapped, ...b.trapped],
  };
}

export class PostgresFrontier implements Frontier {
  readonly where: string;
  readonly #db: PgDb;
  readonly #o: PgFrontierOptions;
  /**
   * The crawl loop's mode: commits and claims overlap the fetches (see the file's comment). Off,
   * `commit` returns once the batch is durable, as seeding needs (it then tells others it is done).
   */
  ahead = false;
  #finished: FinishedPage[] = [];
  #found: Pending[] = [];
  #external = 0;
  /** The batch being written (ahead), and what written batches made durable, not yet returned. */
  #writing: Promise<void> | undefined;
  #written: Committed = emptyCommitted();
  #failure: { error: unknown } | undefined;
  /** A batch is being written now. */
  #busy = false;
  /** The claim made ahead, for the loop's next `lease`. */
  #claiming: Promise<LeaseRaw[]> | undefined;
  /** When expired leases were last returned to the queue (ms). */
  #reclaimed = Number.NEGATIVE_INFINITY;
  /** The last claim found nothing: the next one looks for expired leases first. */
  #empty = false;
  /**
   * URLs this worker knows exist, with their id and a depth the database's is no greater than (a
   * URL's depth only ever decreases), as of its last commits: a bounded cache (frontier-postgres-known.ts).
   */
  readonly #known: KnownUrls;
  readonly #ctx: BatchContext;
  /** URLs this worker added: in all when it last had the table analysed, and since. */
  #addedAtAnalyze = 0;
  #added = 0;
  /** Pages this worker fetched and recorded finished (its own share of the crawl). */
  pages = 0;
  /** URLs this worker recorded finished without fetching them (robots.txt or the address policy refused them). */
  withoutFetch = 0;

  constructor(db: PgDb, o: PgFrontierOptions) {
    this.where = db.target.shown;
    this.#db = db;
    this.#o = o;
    this.#known = new KnownUrls(o.knownCap);
    this.#ctx = { workerId: o.workerId, maxDepth: o.maxDepth, known: this.#known };
  }

  async lease(n: number): Promise<Lease[]> {
    if (!this.ahead) return this.#leases(await this.#claim(n, false));
    const rows = await (this.#claiming ?? this.#claim(n, false));
    this.#claiming = undefined;
    // Claimed now, fetched once the loop has handed out these: a queue that was empty stays unasked
    // until a commit says it is not.
    if (rows.length > 0) this.#claimAhead(n);
    return this.#leases(rows);
  }

  #claimAhead(n: number): void {
    const p = this.#claim(n, false);
    // Awaited by the next lease or requeue; a failure surfaces there.
    p.catch(() => undefined);
    this.#claiming = p;
  }

  async leaseSeeds(n: number): Promise<Lease[]> {
    if (this.ahead) {
      // The loop found nothing to do: the claim made ahead and the batch being written may say otherwise.
      const early = this.#claiming === undefined ? [] : await this.#claiming;
      this.#claiming = undefined;
      if (early.length > 0) return this.#leases(early);
      await this.#flush();
      if (this.#written.queued + this.#written.requeued + this.#written.promoted > 0) {
        const rows = await this.#claim(n, false);
        if (rows.length > 0) return this.#leases(rows);
      }
    }
    return this.#leases(await this.#claim(n, true));
  }

  async #leases(rows: LeaseRaw[]): Promise<Lease[]> {
    rows.sort((a, b) => a.depth - b.depth || a.id - b.id);
    if (rows.length > 0)
      await this.#o.onStep?.(
        'pg:claimed',
        rows.map((r) => r.url),
      );
    return rows.map((r) => leased(r));
  }

  async #claim(n: number, seeds: boolean): Promise<LeaseRaw[]> {
    const o = this.#o;
    const rows = await this.#db.with('claim URLs', async (c) => {
      // Leases whose worker stopped renewing them are anyone's again (looked for once a second at
      // most: a lease lasts seconds, and a claim is the loop's most frequent statement after commits).
      const now = Date.now();
      if (now - this.#reclaimed >= 1000 || this.#empty) {
        this.#reclaimed = now;
        await c.query({ name: 'sk_reclaim', text: RECLAIM });
      }
      const r = await c.query({
        name: seeds ? 'sk_claim_seeds' : 'sk_claim',
        text: seeds ? CLAIM_SEEDS : CLAIM,
        values: [Math.min(n, o.lot), o.workerId, o.leaseSeconds],
      });
      return r.rows as LeaseRaw[];
    });
    this.#empty = rows.length === 0;
    return rows;
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

  /** Waits for the batch being written; throws what broke it (its pages are back in the open batch). */
  async #settle(): Promise<void> {
    if (this.#writing !== undefined) await this.#writing;
    this.#writing = undefined;
    const f = this.#failure;
    this.#failure = undefined;
    if (f !== undefined) throw f.error;
  }

  /**
   * Writes every batch in memory and waits for it; what they made durable is returned by the next
   * `commit`.
   */
  async #flush(): Promise<void> {
    const ahead = this.ahead;
    this.ahead = false;
    try {
      this.#written = merge(this.#written, await this.commit());
    } finally {
      this.ahead = ahead;
    }
  }

  /** What written batches made durable since it was last returned, with `external` links. */
  #take(external: number): Committed {
    const c = this.#written;
    this.#written = emptyCommitted();
    return { ...c, external: c.external + external };
  }

  async commit(): Promise<Committed> {
    if (this.ahead && this.#busy && this.#finished.length < this.#o.lot) {
      // The batch before is still being written: this one gathers on (up to a claim's lot of pages)
      // and is written next, so that a slow round trip means larger batches, not a waiting loop.
      const external = this.#external;
      this.#external = 0;
      return this.#take(external);
    }
    await this.#settle();
    // Taken out of the batch before the first await: pages that finish while the transaction runs
    // go into the next batch.
    const finished = this.#finished;
    const found = this.#found;
    const external = this.#external;
    this.#finished = [];
    this.#found = [];
    this.#external = 0;
    if (finished.length === 0 && found.length === 0) return this.#take(external);
    this.#busy = true;
    const p = this.#write(finished, found).then(
      (c) => {
        this.#busy = false;
        this.#written = merge(this.#written, c);
      },
      (error: unknown) => {
        this.#busy = false;
        this.#failure ??= { error };
      },
    );
    if (this.ahead) {
      this.#writing = p;
      return this.#take(external);
    }
    this.#writing = p;
    try {
      await this.#settle();
    } catch (error) {
      this.#external += external;
      throw error;
    }
    return this.#take(external);
  }

  /** Writes one batch in one transaction; on failure its pages go back to the open batch. */
  async #write(finished: FinishedPage[], found: Pending[]): Promise<Committed> {
    let done: Written;
    try {
      await this.#o.onStep?.(
        'pg:before-commit',
        finished.map((f) => f.url),
      );
      const links = knownLinks(this.#known, finished.length, found);
      // A retry after a lost answer records nothing again (the pages are finished): the pages the
      // lost try recorded are this worker's all the same, counted before the batch runs again.
      let tries = 0;
      let recorded = { n: 0, fetched: 0 };
      const again = async (c: PoolClient): Promise<void> => {
        if (tries++ === 0 || finished.length === 0) return;
        const r = await c.query({
          name: 'sk_finished_mine',
          text: `SELECT count(*)::int AS n, count(*) FILTER (WHERE attempts > 0)::int AS fetched
            FROM urls WHERE id = ANY($1::bigint[]) AND state = 2 AND finished_by = $2`,
          values: [finished.map((f) => f.id), this.#o.workerId],
        });
        recorded = (r.rows[0] as { n: number; fetched: number } | undefined) ?? { n: 0, fetched: 0 };
      };
      done =
        links === undefined
          ? await this.#db.transaction('record finished pages', async (c: PoolClient) => {
              await again(c);
              return writeBatch(c, this.#ctx, finished, found);
            })
          : await this.#db.with('record finished pages', async (c: PoolClient) => {
              await again(c);
              return writeKnown(c, this.#ctx, finished, links);
            });
      this.pages += recorded.fetched;
      this.withoutFetch += recorded.n - recorded.fetched;
    } catch (error) {
      // Not durable: the batch is written by the next commit (a worker that stops returns its claims).
      this.#finished = [...finished, ...this.#finished];
      this.#found = [...found, ...this.#found];
      throw error;
    }
    // A fetch is what the state counts as one (attempts > 0): a URL refused before it was asked is not.
    for (const f of finished) {
      if (!done.applied.has(f.id)) continue;
      if ((f.outcome.attempts ?? 0) > 0) this.pages++;
      else this.withoutFetch++;
    }
    // Only what a committed transaction read or wrote: a rolled-back insert's ids never existed.
    for (const x of done.learned) this.#known.learn(x.url, x.id, x.depth);
    await this.#analyze(done.committed.queued + done.committed.finished);
    if (this.#o.onStep !== undefined) {
      await this.#o.onStep(
        'pg:after-commit',
        finished.filter((f) => done.applied.has(f.id)).map((f) => f.url),
      );
    }
    return done.committed;
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

  /**
   * Forgets what only the crawl loop needs (the memo of known URLs), so that the finish step does
   * not carry it.
   */
  release(): void {
    this.#known.clear();
  }

  async requeue(): Promise<void> {
    // A claim made ahead is returned with the rest; the batches in memory are written first, or
    // their pages (claimed by this worker, not yet recorded finished) would go back to the queue.
    const claiming = this.#claiming;
    this.#claiming = undefined;
    await claiming?.catch(() => undefined);
    try {
      await this.#flush();
    } finally {
      await this.#db.query('return leases', REQUEUE, [this.#o.workerId]);
    }
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
