/**
 * The queue size of a shared crawl, for the progress line of `crawl --workers N` (asked every few
 * seconds while it runs). Counting the `urls` table would read every row of a crawl of 100,000,000
 * URLs each time; this counts through the queue's partial indexes (`urls_queue`, `urls_leased`) and
 * stops at a bound, so its cost never grows with the crawl. Above the bound the size is the
 * planner's estimate of the queue index's entries (kept by autovacuum), labelled as an estimate.
 * And the crawl's phase, which `crawl --state postgres://…` reads at its start, without a count.
 */
import { type FirstConnect, openPgDb, type PgDb, pgTarget } from './frontier-postgres-db.js';
import { crawlExists } from './frontier-postgres-schema.js';

/** Up to this many queued URLs the size is counted exactly. */
export const QUEUE_COUNTED_UP_TO = 100_000;

/** The URLs queued or claimed in the whole crawl. */
export interface SharedQueueSize {
  size: number;
  /** True when the queue is longer than the counted bound and `size` is the planner's estimate. */
  estimated: boolean;
}

export interface PostgresQueue {
  /** The queue's size now; 0 when the crawl does not exist (yet, or any more). */
  size(): Promise<SharedQueueSize>;
  close(): Promise<void>;
}

async function readSize(db: PgDb, bound: number): Promise<SharedQueueSize> {
  const [exists] = await db.query<{ ok: boolean }>(
    'check the crawl',
    "SELECT to_regclass('urls_queue') IS NOT NULL AS ok",
  );
  if (exists?.ok !== true) return { size: 0, estimated: false };
  const [r] = await db.query<{ queued: number; leased: number; est: number }>(
    'count the queue',
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM urls WHERE state = 0 LIMIT $1) AS q)::int AS queued,
       (SELECT count(*) FROM (SELECT 1 FROM urls WHERE state = 1 LIMIT $1) AS q)::int AS leased,
       (SELECT reltuples FROM pg_class WHERE oid = to_regclass('urls_queue'))::float8 AS est`,
    [bound + 1],
  );
  const queued = r?.queued ?? 0;
  const leased = r?.leased ?? 0;
  if (queued <= bound && leased <= bound) return { size: queued + leased, estimated: false };
  // Never below what was counted: the estimate lags (it is -1 before the first analyze).
  return { size: Math.max(queued, Math.round(r?.est ?? 0)) + leased, estimated: true };
}

/** Whether the crawl exists, and whether its outputs were written: two index lookups, no count. */
export async function readCrawlPhase(
  url: string,
  crawlId: string,
  firstConnect?: FirstConnect,
): Promise<'none' | 'unfinished' | 'finished'> {
  const db = await openPgDb(pgTarget(url, crawlId), {
    size: 1,
    retryMs: 0,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    name: 'sitemapkit crawl',
    ...(firstConnect === undefined ? {} : { firstConnect }),
  });
  try {
    if (!(await crawlExists(db))) return 'none';
    const [status] = await db.query<{ value: string }>(
      'read the crawl',
      "SELECT value FROM meta WHERE key = 'status'",
    );
    return status?.value === 'complete' ? 'finished' : 'unfinished';
  } finally {
    await db.close();
  }
}

/**
 * Opens the queue of crawl `crawlId` in the database at `url`, on one connection kept for every
 * `size()` until `close()`. Throws `ERR_STATE` when the database cannot be reached.
 */
export async function openPostgresQueue(
  url: string,
  crawlId: string,
  o: { countedUpTo?: number } = {},
): Promise<PostgresQueue> {
  const db = await openPgDb(pgTarget(url, crawlId), {
    size: 1,
    retryMs: 0,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    name: 'sitemapkit crawl progress',
  });
  const bound = o.countedUpTo ?? QUEUE_COUNTED_UP_TO;
  return {
    size: () => readSize(db, bound),
    close: () => db.close(),
  };
}
