/**
 * The CLI's one door to the crawler's PostgreSQL frontier (issue 17): which `--state` is a shared
 * crawl, the crawl id a start URL gets by default, the options that make `crawl()` one worker of
 * it, and its status and drop for `crawl-status`. Everything the CLI knows of the library's shared
 * crawl goes through here.
 */
import type { CrawlResult } from '../crawler/crawl.js';
import type { FirstConnect } from '../crawler/frontier-postgres-db.js';
import { RETRY_SECONDS } from '../crawler/frontier-postgres-options.js';
import { readCrawlPhase } from '../crawler/frontier-postgres-queue.js';
import { openPostgresCrawl, type PostgresCrawl } from '../crawler/frontier-postgres-read.js';
import type { CrawlOptions } from '../crawler/options.js';
import type { CliContext } from './context.js';
import { deleteCrawlCommand, withDatabase } from './crawl-commands.js';
import { diagnosticLine } from './crawl-lines.js';
import { UsageError } from './exit.js';

/** `--state postgres://…` (or postgresql://): the crawl lives in PostgreSQL and is shared. */
export function isSharedState(state: string | undefined): state is string {
  return state !== undefined && /^postgres(?:ql)?:\/\//i.test(state);
}

// The library's rule (a schema name that reads the same in psql, a shell and a message).
const CRAWL_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,55}$/;

/** Checks `--crawl-id`: a letter or digit, then letters, digits, _ or - (at most 56). */
export function crawlIdArg(raw: string): string {
  if (!CRAWL_ID.test(raw)) {
    throw new UsageError(
      `--crawl-id takes a letter or digit, then letters, digits, _ or - (at most 56), such as shop-2026-11, got "${raw}"`,
    );
  }
  return raw;
}

/** The crawl id of a start URL when `--crawl-id` is not given: its host (and port), `www_example_com`. */
export function defaultCrawlId(url: string): string {
  const host = URL.canParse(url) ? new URL(url).host : url;
  const id = host
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40);
  return id === '' ? 'crawl' : id;
}

/** The options that make `crawl()` one worker of the shared crawl `crawlId` in `options.state`. */
export function workerOptions(
  options: CrawlOptions,
  crawlId: string,
  leaseMs?: number,
  connectMs?: number,
): CrawlOptions {
  const lease = leaseMs === undefined ? {} : { leaseSeconds: Math.ceil(leaseMs / 1000) };
  const connect = connectMs === undefined ? {} : { connectSeconds: connectMs / 1000 };
  return { ...options, crawlId, ...lease, ...connect } as CrawlOptions;
}

/** Whether this process wrote the crawl's outputs (exactly one worker of a shared crawl does). */
export function wroteOutputs(result: CrawlResult): boolean {
  return result.worker?.wroteOutput !== false;
}

/** What `crawl-status` shows of a shared crawl (`--json` prints it as it is). */
export interface SharedStatus {
  crawlId: string;
  /** `running`, `complete` (the outputs were written), or null before the first worker ran. */
  status: string | null;
  /** The outputs were written (the finish step ran). */
  finished: boolean;
  done: number;
  queued: number;
  /** Pages claimed by a live worker and not finished yet (expired claims count as queued). */
  leased: number;
  /** Pages that ended broken or failing. */
  errors: number;
  listed: number;
  /** Pages fetched per second over the last minute, all workers together (not the URLs finished without a fetch). */
  ratePerSecond: number;
  workersAlive: number;
  workers: Array<{
    id: string;
    host: string;
    pid: number;
    alive: boolean;
    /** Pages this worker fetched (as its summary's `worker.pages`). */
    pages: number;
    /** URLs it finished without a fetch: refused by robots.txt or the address policy. */
    withoutFetch: number;
    startedAt: string;
    heartbeat: string;
    ended: string | null;
  }>;
  /** The worker that claimed the finish step, if one did. */
  finisher: string | null;
}

/** Runs `use` on the crawl `id` opened for its status or its drop, and closes it. */
async function withCrawl<T>(url: string, id: string, use: (c: PostgresCrawl) => Promise<T>): Promise<T> {
  const crawl = await openPostgresCrawl(url, id);
  try {
    return await use(crawl);
  } finally {
    await crawl.close();
  }
}

/** The status of crawl `id`, or undefined when the database holds no such crawl. */
export async function sharedCrawlStatus(url: string, id: string): Promise<SharedStatus | undefined> {
  const s = await withCrawl(url, id, (c) => c.status());
  if (!s.exists) return undefined;
  return {
    crawlId: s.crawlId,
    status: s.status ?? null,
    finished: s.status === 'complete',
    done: s.done,
    queued: s.queued,
    leased: s.leased,
    errors: s.errors,
    listed: s.listed,
    ratePerSecond: s.rate,
    workersAlive: s.workers.filter((w) => w.alive).length,
    workers: s.workers.map((w) => ({
      id: w.id,
      host: w.host,
      pid: w.pid,
      alive: w.alive,
      pages: w.pages,
      withoutFetch: w.withoutFetch,
      startedAt: w.startedAt.toISOString(),
      heartbeat: w.heartbeat.toISOString(),
      ended: w.ended,
    })),
    finisher: s.finisher ?? null,
  };
}

/**
 * How a worker's first connection waits for a server that is not up yet: `--connect-timeout`, or
 * as long as a lost connection is retried, saying so on stderr (as the crawl's diagnostics are) unless `--quiet` or `--json`.
 */
export function firstConnect(
  ctx: CliContext,
  flags: { quiet?: boolean; json?: boolean; connectTimeout?: number | undefined },
): FirstConnect {
  return {
    waitMs: flags.connectTimeout ?? RETRY_SECONDS * 1000,
    onWait: (d) => {
      if (flags.quiet !== true && flags.json !== true) ctx.stderr.write(`${diagnosticLine(d)}\n`);
    },
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  };
}

/** Whether the crawl exists, and whether it finished (without counting its URLs). */
export async function sharedCrawlPhase(
  url: string,
  id: string,
  wait?: FirstConnect,
): Promise<'none' | 'unfinished' | 'finished'> {
  return readCrawlPhase(url, id, wait);
}

/** Drops the crawl's schema and the command recorded for it. */
export async function dropSharedCrawl(url: string, id: string): Promise<void> {
  await withCrawl(url, id, (c) => c.drop());
  await withDatabase(url, (c) => deleteCrawlCommand(c, id));
}
