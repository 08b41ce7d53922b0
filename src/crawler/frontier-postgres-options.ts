/**
 * The options and the result of a crawl worker on a crawl shared through PostgreSQL (issue 17):
 * `crawl({ state: 'postgres://…', crawlId, workerId?, leaseSeconds? })`. Kept apart from
 * options.ts so that the SQLite crawl's options read as they did.
 */

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { SitemapkitError } from '../core/errors.js';
import type { PgStep } from './frontier-postgres.js';
import { checkCrawlId, isPostgresState } from './frontier-postgres-db.js';

export type { PgStep } from './frontier-postgres.js';

/** The options of {@link crawl} that only a crawl with a `postgres://` state reads. */
export interface SharedCrawlOptions {
  /**
   * With `state: 'postgres://…'`: the crawl's id, shared by every worker of the crawl (its schema
   * is `crawl_ID`). The first worker creates the crawl and seeds the start URLs; the others join it.
   */
  crawlId?: string;
  /** This worker's name in the `workers` table. @default `HOST-PID-RANDOM` */
  workerId?: string;
  /**
   * Seconds a claimed URL stays this worker's without a heartbeat: a worker that dies loses its
   * claims after this long and another takes them. The heartbeat renews them every third of it.
   * @default 60
   */
  leaseSeconds?: number;
  /**
   * Seconds a lost database connection is retried before the worker gives up with `ERR_STATE`
   * (what it finished is committed; its claims return when they expire), and that a worker
   * started before its server is up waits for it (saying so once, `crawl-database-waiting`; a
   * refused login or a missing database fails at once). @default 60
   */
  retrySeconds?: number;
  /**
   * Seconds a worker started before its database is up waits for it at its first connection (0:
   * it fails at once). @default retrySeconds
   */
  connectSeconds?: number;
  /**
   * Called at each step a fault-injection test may stop the worker at: a claim made, a host's send
   * slot due (the request goes out next), a request sent (its answer not read yet), before and
   * after a batch is committed; `urls` are the URLs claimed, the host's origin, the URL being
   * fetched, in the batch, or recorded finished by it. @default none
   */
  onStep?: (step: PgStep, urls: readonly string[]) => void | Promise<void>;
}

export interface ResolvedShared {
  url: string;
  crawlId: string;
  workerId: string;
  leaseSeconds: number;
  retryMs: number;
  /** How long the first connection waits for a server that is not up yet (ms). */
  connectMs: number;
  /** `hostConcurrency` when given: the requests in flight on one host, all workers together. */
  hostLimit: number | undefined;
  onStep: ((step: PgStep, urls: readonly string[]) => void | Promise<void>) | undefined;
}

/** What a worker of a shared crawl did, beside the usual result. */
export interface SharedCrawlWorker {
  crawlId: string;
  workerId: string;
  /** This worker wrote the sitemaps, the HTML site map and the report (the first to claim the finish). */
  wroteOutput: boolean;
  /** Pages this worker fetched (one or more requests) and recorded finished. */
  pages: number;
  /**
   * URLs this worker recorded finished without fetching them: refused by robots.txt or by the
   * address policy (in `pages` before, which counted every URL the worker finished).
   */
  withoutFetch: number;
}

/** Seconds a lost connection, or a first one to a server not up yet, is retried by default. */
export const RETRY_SECONDS = 60;

function bad(message: string, hint?: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message, hint === undefined ? {} : { hint });
}

function seconds(name: string, v: unknown, dflt: number, max: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > max)
    throw bad(`${name} must be more than 0 and at most ${max} seconds, got ${String(v)}`);
  return v;
}

/** Checks the shared crawl's options once; undefined when `state` is not a `postgres://` URL. */
export function resolveShared(
  o: SharedCrawlOptions & { state?: string; recrawl?: boolean; store?: unknown; hostConcurrency?: number },
): ResolvedShared | undefined {
  if (!isPostgresState(o.state)) {
    for (const k of ['crawlId', 'workerId', 'leaseSeconds', 'retrySeconds', 'connectSeconds'] as const) {
      if (o[k] !== undefined) throw bad(`${k} needs state: a postgres:// URL (a crawl shared by workers)`);
    }
    return undefined;
  }
  if (o.crawlId === undefined) {
    throw bad(
      'a crawl with state postgres://… needs crawlId',
      'every worker of one crawl passes the same id, such as crawlId: "shop"',
    );
  }
  const crawlId = checkCrawlId(o.crawlId);
  if (o.recrawl === true)
    throw bad('recrawl is not available with a postgres:// state yet', 'recrawl with a state file');
  if (o.store !== undefined)
    throw bad(
      'store is not available with a postgres:// state yet',
      'publish through the store from a state file',
    );
  const workerId = o.workerId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  if (typeof workerId !== 'string' || !/^[\x21-\x7e]{1,100}$/.test(workerId))
    throw bad(
      `workerId must be 1 to 100 printable characters without spaces, got ${JSON.stringify(workerId)}`,
    );
  if (o.onStep !== undefined && typeof o.onStep !== 'function') throw bad('onStep must be a function');
  const retryMs = seconds('retrySeconds', o.retrySeconds, RETRY_SECONDS, 86_400) * 1000;
  // 0 is a choice here (fail at once), as it is not for the other durations.
  const c = o.connectSeconds;
  if (c !== undefined && (typeof c !== 'number' || !Number.isFinite(c) || c < 0 || c > 86_400))
    throw bad(`connectSeconds must be 0 or more and at most 86400 seconds, got ${String(c)}`);
  const connectMs = c === undefined ? retryMs : c * 1000;
  return {
    url: o.state,
    crawlId,
    workerId,
    leaseSeconds: seconds('leaseSeconds', o.leaseSeconds, 60, 86_400),
    retryMs,
    connectMs,
    // Checked with the other crawl options; given, it is a limit every worker shares.
    hostLimit: typeof o.hostConcurrency === 'number' ? o.hostConcurrency : undefined,
    onStep: o.onStep,
  };
}
