/**
 * The crawl loop: it leases URLs from the frontier, asks the robots gate and the HTTP layer's
 * host scheduler when each may start, runs at most `concurrency` requests, puts a retryable
 * failure back in its host's queue (by the retry decision's kind), and hands every final answer to
 * its `events`. Pages that finish in one turn of the event loop are committed together, and
 * always before the next request starts, so after `kill -9` only the leased URLs are fetched again.
 * A frontier may return from `commit` before the batch is durable (the shared crawl's `ahead`
 * mode writes a batch while the next pages are fetched): its own bound on what a kill re-fetches
 * is documented with it (`frontier-postgres.ts`).
 */
import { SitemapkitError } from '../core/errors.js';
import type { HttpFailureReason } from '../http/errors.js';
import { decideRetry, RETRY_STATUSES, type RetryDecision, type RetryPolicy } from '../http/retry.js';
import type { HostScheduler } from '../http/scheduler.js';
import type { GateVerdict } from '../robots/gate.js';
import type { PageResponse } from './fetch-page.js';
import type { Committed, Frontier, Lease } from './frontier.js';

/** Failures another try may cure: not a refused address or scheme, which stay what they are. */
const RETRYABLE_FAILURE = (reason: HttpFailureReason): boolean =>
  reason !== 'address-refused' && reason !== 'bad-scheme';

/** A leased URL in the loop. */
export interface Item extends Lease {
  origin: string;
  /** HTTP attempts made (retries included). */
  attempts: number;
  /** Not before this time (ms): a retry's backoff. */
  notBefore: number;
}

export interface SchedulerOptions {
  /** Requests in flight over all hosts. */
  concurrency: number;
  /** URLs fetched at most, over all runs of the crawl. */
  maxPages: number;
  retry: RetryPolicy;
  signal: AbortSignal | undefined;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

/**
 * Send slots shared with other processes (a crawl shared through a database): `claim` resolves when
 * this process may send its next request to the origin. Absent, the host scheduler alone decides.
 */
export interface SlotSource {
  claim(origin: string): Promise<void>;
  /** The request `claim` let start has its answer (or failed): its place on the host is free. */
  release?(origin: string): Promise<void>;
  /**
   * Resolves when a request that rides on a started page (a rendered page's own requests) may be
   * sent: the spacing only, no place on the host.
   */
  pace?(origin: string): Promise<void>;
}

export interface SchedulerParts {
  frontier: Frontier;
  hosts: HostScheduler;
  /** Politeness shared with other workers, asked once the host scheduler let a request start. */
  slots?: SlotSource;
  /** Whether robots.txt lets a URL be fetched; undefined while it is being fetched. */
  gate: (origin: string, url: string) => GateVerdict | undefined;
  /** One request for a page (the network). */
  fetch: (item: Item) => Promise<PageResponse>;
  originOf: (url: string) => string;
}

export interface SchedulerEvents {
  /** The final answer for a URL (`decision`: why its retries stopped, when it was retryable). */
  fetched(item: Item, res: PageResponse, ms: number, decision: RetryDecision | undefined): void;
  /** A URL robots.txt disallows, or whose host's address the policy refuses: never fetched. */
  disallowed(item: Item, verdict: Extract<GateVerdict, { allowed: false }>): void;
  /** A commit made what it says durable. */
  committed(c: Committed): void;
}

export class Scheduler {
  readonly #o: SchedulerOptions;
  readonly #p: SchedulerParts;
  readonly #events: SchedulerEvents;
  readonly #pending = new Map<string, Item[]>();
  readonly inFlight: Set<Promise<void>> = new Set();
  #pendingCount = 0;
  #frontierEmpty = false;
  /** Answers handed to `events` since the last commit. */
  #unsaved = 0;
  /** URLs fetched (first attempts), over all runs. */
  fetched: number;
  /** HTTP requests of this run (retries included). */
  requests = 0;
  #failure: unknown;
  #wake: (() => void) | undefined;
  #dirty = false;
  #scheduled = false;

  constructor(o: SchedulerOptions, parts: SchedulerParts, events: SchedulerEvents, fetched: number) {
    this.#o = o;
    this.#p = parts;
    this.#events = events;
    this.fetched = fetched;
  }

  /** The crawl stops with this error (the first one wins). */
  fail(error: unknown): void {
    this.#failure ??= error;
  }

  /**
   * Something changed (a page finished, robots.txt arrived). The loop resumes on the next turn of
   * the event loop, not at once: the pages that finish in one turn are then committed together
   * (one commit instead of one per page) before anything new starts.
   */
  wake(): void {
    this.#dirty = true;
    if (this.#wake !== undefined && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#fire);
    }
  }

  readonly #fire = (): void => {
    this.#scheduled = false;
    const w = this.#wake;
    if (w === undefined) return;
    this.#wake = undefined;
    this.#dirty = false;
    w();
  };

  /** Resolves on the next wake() or after `ms` (Infinity: only a wake). */
  #waitForChange(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let settled = false;
      const done = (): void => {
        if (settled) return;
        settled = true;
        resolve();
      };
      this.#wake = done;
      if (this.#dirty && !this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#fire);
      }
      if (Number.isFinite(ms)) this.#o.sleep(Math.max(1, ms)).then(done, done);
    });
  }

  #budgetLeft(): boolean {
    return this.fetched + this.inFlight.size < this.#o.maxPages;
  }

  async #commit(): Promise<void> {
    this.#unsaved = 0;
    const c = await this.#p.frontier.commit();
    // A seed a link found is leased at its link depth, before the seeds no link reaches.
    if (c.queued + c.requeued + c.promoted > 0) this.#frontierEmpty = false;
    this.#events.committed(c);
  }

  #lot(): number {
    return Math.max(64, this.#o.concurrency * 16);
  }

  async #refill(): Promise<void> {
    if (this.#frontierEmpty || this.#pendingCount >= this.#o.concurrency * 4) return;
    if (!this.#budgetLeft()) return;
    const rows = await this.#p.frontier.lease(this.#lot());
    if (rows.length === 0) {
      this.#frontierEmpty = true;
      return;
    }
    this.#enqueue(rows);
  }

  /** Sitemap seeds no link reached, once the link frontier is exhausted; false when none is left. */
  async #refillSeeds(): Promise<boolean> {
    const rows = await this.#p.frontier.leaseSeeds(this.#lot());
    if (rows.length === 0) return false;
    this.#frontierEmpty = false;
    this.#enqueue(rows);
    return true;
  }

  #enqueue(rows: readonly Lease[]): void {
    for (const r of rows) {
      const origin = this.#p.originOf(r.url);
      const item: Item = { id: r.id, url: r.url, origin, depth: r.depth, attempts: 0, notBefore: 0 };
      if (r.prior !== undefined) item.prior = r.prior;
      this.#push(item, false);
    }
  }

  #push(item: Item, first: boolean): void {
    let q = this.#pending.get(item.origin);
    if (q === undefined) {
      q = [];
      this.#pending.set(item.origin, q);
    }
    if (first) q.unshift(item);
    else q.push(item);
    this.#pendingCount++;
  }

  /** Runs until the frontier is exhausted, `maxPages` is reached, the signal aborts or a part fails. */
  async run(): Promise<void> {
    const o = this.#o;
    for (;;) {
      // Pages finished since the last turn are committed before any new request starts.
      await this.#commit();
      this.#dirty = false;
      if (o.signal?.aborted === true || this.#failure !== undefined) break;
      await this.#refill();
      // An answer that arrived while the store was busy is made durable first.
      if (this.#unsaved > 0) continue;
      const now = o.now();
      let nextAt = Number.POSITIVE_INFINITY;
      let budget = this.#budgetLeft();
      for (const [origin, queue] of this.#pending) {
        while (queue.length > 0 && this.inFlight.size < o.concurrency) {
          let idx = -1;
          for (let i = 0; i < queue.length; i++) {
            if (queue[i]!.notBefore <= now) {
              idx = i;
              break;
            }
            nextAt = Math.min(nextAt, queue[i]!.notBefore);
          }
          if (idx === -1) break;
          const item = queue[idx]!;
          const verdict = this.#p.gate(origin, item.url);
          if (verdict === undefined) break;
          if (!verdict.allowed) {
            queue.splice(idx, 1);
            this.#pendingCount--;
            this.#unsaved++;
            this.#events.disallowed(item, verdict);
            continue;
          }
          if (item.attempts === 0 && !budget) break;
          const at = this.#p.hosts.readyAt(origin, now);
          if (at > now) {
            nextAt = Math.min(nextAt, at);
            break;
          }
          queue.splice(idx, 1);
          this.#pendingCount--;
          this.#p.hosts.start(origin, now);
          this.#launch(item);
          budget = this.#budgetLeft();
        }
        if (queue.length === 0) this.#pending.delete(origin);
      }
      if (this.inFlight.size === 0) {
        if (this.#pendingCount === 0 && this.#frontierEmpty) {
          if (budget && (await this.#refillSeeds())) continue;
          break;
        }
        if (!budget && this.#pendingCount === 0) break;
        if (!budget && ![...this.#pending.values()].some((q) => q.some((i) => i.attempts > 0))) break;
      }
      if (this.#failure !== undefined) break;
      // Something can start right now (a slot freed while we looped, or new leases): go again.
      const canRefill = !this.#frontierEmpty && this.#pendingCount < o.concurrency * 4 && budget;
      if (this.inFlight.size < o.concurrency && canRefill) {
        await new Promise<void>((r) => setImmediate(r));
        continue;
      }
      await this.#waitForChange(nextAt - now);
    }
    await Promise.allSettled([...this.inFlight]);
    await this.#commit();
    await this.#p.frontier.requeue();
    if (o.signal?.aborted === true) {
      throw new SitemapkitError(
        'ERR_ABORTED',
        'the crawl was interrupted: its state is saved (continue with --resume); the previous sitemaps are untouched',
        { cause: o.signal.reason, where: this.#p.frontier.where },
      );
    }
    if (this.#failure !== undefined) throw this.#failure;
  }

  #launch(item: Item): void {
    const p: Promise<void> = this.#fetchOne(item)
      .catch((error: unknown) => {
        if (!(this.#o.signal?.aborted === true)) this.fail(error);
      })
      .finally(() => {
        this.inFlight.delete(p);
        this.wake();
      });
    this.inFlight.add(p);
  }

  async #fetchOne(item: Item): Promise<void> {
    const o = this.#o;
    if (this.#p.slots !== undefined) {
      // The wait for a shared slot is not the page's response time.
      try {
        await this.#p.slots.claim(item.origin);
      } catch (error) {
        this.#p.hosts.finish(item.origin);
        throw error;
      }
    }
    const t0 = o.now();
    if (item.attempts === 0) this.fetched++;
    item.attempts++;
    this.requests++;
    let res: PageResponse;
    try {
      res = await this.#p.fetch(item);
    } finally {
      this.#p.hosts.finish(item.origin);
      await this.#p.slots?.release?.(item.origin);
    }
    const ms = o.now() - t0;
    let decision: RetryDecision | undefined;
    if (res.ok ? RETRY_STATUSES.has(res.status) : RETRYABLE_FAILURE(res.reason)) {
      decision = decideRetry(
        o.retry,
        item.attempts,
        res.ok ? res.status : undefined,
        res.ok ? res.headers.get('retry-after') : null,
        o.now(),
      );
      if (decision.kind === 'retry') {
        const at = o.now() + decision.delayMs;
        // Retry-After speaks for the whole server: no request to the host before then.
        if (decision.fromHeader) this.#p.hosts.pause(item.origin, at);
        item.notBefore = at;
        this.#push(item, true);
        return;
      }
    }
    this.#unsaved++;
    this.#events.fetched(item, res, ms, decision);
  }
}
