/**
 * The frontier over the crawl's SQLite state (state.ts). Pages are recorded as they finish, into
 * one open transaction that {@link SqliteFrontier.commit} commits (WAL, synchronous NORMAL: it
 * survives the process being killed). better-sqlite3 is synchronous, so every call has done its
 * work when it returns; the promises are the interface's, for stores that wait on a server.
 */
import {
  type Admit,
  type Committed,
  emptyCommitted,
  type Found,
  type Frontier,
  type FrontierCounts,
  type Lease,
} from './frontier.js';
import type { Outcome } from './records.js';
import type { CrawlState } from './state.js';

export class SqliteFrontier implements Frontier {
  readonly where: string;
  readonly #state: CrawlState;
  readonly #maxDepth: number;
  #batch: Committed = emptyCommitted();

  /** `maxDepth`: a URL finished as too deep is queued again when found within it. */
  constructor(state: CrawlState, options: { maxDepth: number }) {
    this.where = state.path;
    this.#state = state;
    this.#maxDepth = options.maxDepth;
  }

  async lease(n: number): Promise<Lease[]> {
    return this.#state.lease(n);
  }

  async leaseSeeds(n: number): Promise<Lease[]> {
    return this.#state.leaseSeeds(n);
  }

  finish(lease: Lease, outcome: Outcome, found: readonly Found[], admit: Admit): void {
    const state = this.#state;
    // One savepoint per page inside the batch: a page is recorded with all its links or not at all.
    state.batched(() => {
      state.finish(lease.id, outcome);
      for (const f of found) this.#found(f, lease.id, admit);
    });
  }

  add(found: readonly Found[], admit: Admit): void {
    this.#state.batched(() => {
      for (const f of found) this.#found(f, null, admit);
    });
  }

  async commit(): Promise<Committed> {
    this.#state.commit();
    const done = this.#batch;
    if (done.queued + done.finished + done.requeued + done.promoted + done.external > 0)
      this.#batch = emptyCommitted();
    return done;
  }

  async requeue(): Promise<void> {
    this.#state.releaseLeases();
  }

  async counts(): Promise<FrontierCounts> {
    return this.#state.counts();
  }

  async getMeta(key: string): Promise<string | undefined> {
    return this.#state.getMeta(key);
  }

  async setMeta(key: string, value: string): Promise<void> {
    this.#state.setMeta(key, value);
  }

  #found(f: Found, via: number | null, admit: Admit): void {
    const state = this.#state;
    const b = this.#batch;
    const known = state.lookup(f.url, f.depth, this.#maxDepth);
    if (known !== undefined) {
      if (known.requeued) b.requeued++;
      if (known.promoted) b.promoted++;
      if (via !== null) state.link(known.id, via);
      return;
    }
    const a = admit(f);
    if (a.kind === 'external') {
      b.external += f.times ?? 1;
      return;
    }
    let outcome = a.kind === 'finished' ? a.outcome : undefined;
    if (a.kind === 'queued' && a.cap !== undefined && state.countPattern(a.cap.key) > a.cap.max) {
      outcome = a.cap.over;
      b.trapped.push({ key: a.cap.key, url: f.url });
    }
    const id = state.insert(f.url, f.depth, f.source, via, outcome);
    if (via !== null) state.link(id, via);
    if (outcome === undefined) b.queued++;
    else b.finished++;
  }
}
