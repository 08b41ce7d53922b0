/**
 * `crawl URL --state postgres://…`: the start of a shared crawl (issue 17). Its id is chosen and
 * said, `--resume` and `--fresh` are applied to what the database holds, the command is recorded
 * for `crawl-worker`, and the workers run: one in this process, or `--workers N` processes
 * supervised by crawl-workers.ts. Also what a worker says when it ends without writing the outputs
 * or is interrupted, and its progress sent to a supervisor.
 */

import { SitemapkitError } from '../core/errors.js';
import type { CrawlResult } from '../crawler/crawl.js';
import {
  openPostgresQueue,
  type PostgresQueue,
  type SharedQueueSize,
} from '../crawler/frontier-postgres-queue.js';
import type { CrawlProgress } from '../crawler/options.js';
import { redactDatabaseUrl } from '../sources/sql-db.js';
import type { CliContext } from './context.js';
import { saveCrawlCommand, withDatabase } from './crawl-commands.js';
import { superviseWorkers, WORKER_IPC_ENV, type WorkerMessage } from './crawl-workers.js';
import { EXIT_OK, UsageError } from './exit.js';
import { defaultCrawlId, dropSharedCrawl, firstConnect, sharedCrawlPhase } from './shared-crawl.js';

/** The flags of `crawl` that the shared start reads (the rest are recorded as they are). */
export interface SharedStartFlags {
  state?: string;
  crawlId?: string;
  workers?: number;
  /** Milliseconds. */
  connectTimeout?: number;
  resume?: boolean;
  fresh?: boolean;
  recrawl?: boolean;
  audit?: boolean;
  json?: boolean;
  format: 'text' | 'json';
  quiet?: boolean;
  verbose?: boolean;
}

/** Flags that belong to the process that runs, never to the recorded command. */
const OWN_FLAGS = ['state', 'crawlId', 'workers', 'resume', 'fresh', 'json', 'format', 'quiet', 'verbose'];

/**
 * Starts or joins the shared crawl and runs its workers. `check` refuses bad options before
 * anything is recorded (once here, not once per worker); `run` runs one worker in this process.
 */
export async function startSharedCrawl<F extends SharedStartFlags>(
  urls: string[],
  flags: F,
  ctx: CliContext,
  check: (flags: F) => void,
  run: (flags: F) => Promise<number>,
): Promise<number> {
  // Not yet over PostgreSQL: both read the finished crawl's SQLite state back.
  if (flags.recrawl === true) throw new UsageError('--recrawl needs a file --state (an SQLite crawl state)');
  if (flags.audit === true) throw new UsageError('--audit needs a file --state (an SQLite crawl state)');
  if (flags.resume === true && flags.fresh === true)
    throw new UsageError('--resume and --fresh exclude each other');
  const state = flags.state!;
  const id = flags.crawlId ?? defaultCrawlId(urls[0] ?? '');
  check({ ...flags, crawlId: id });
  const json = flags.json === true || flags.format === 'json';
  // The first connection: a crawl started beside its database (a compose file) waits for it.
  const phase = await sharedCrawlPhase(
    state,
    id,
    firstConnect(ctx, {
      quiet: flags.quiet === true,
      json,
      connectTimeout: flags.connectTimeout,
    }),
  );
  const shown = redactDatabaseUrl(state);
  // Worded as the SQLite state's refusals are (state-open.ts): the crawl could not run, exit 2.
  if (flags.resume === true && phase === 'none') {
    throw new SitemapkitError('ERR_STATE', `there is no crawl "${id}" to resume`, {
      where: shown,
      hint: 'run the command without --resume to start it (or check --crawl-id)',
    });
  }
  if (flags.resume !== true && flags.fresh !== true && phase === 'unfinished') {
    throw new SitemapkitError('ERR_STATE', `the crawl "${id}" is unfinished`, {
      where: shown,
      hint: 'pass --resume to join it, or --fresh to drop it and start over (a finished crawl is started over without asking)',
    });
  }
  // A finished crawl starts over by itself, as a finished SQLite state does.
  if (flags.fresh === true || (flags.resume !== true && phase === 'finished'))
    await dropSharedCrawl(state, id);
  const recorded = Object.fromEntries(Object.entries(flags).filter(([k]) => !OWN_FLAGS.includes(k)));
  await withDatabase(state, (c) => saveCrawlCommand(c, id, { urls, flags: recorded }));
  if (flags.quiet !== true && !json) {
    ctx.stderr.write(
      `sitemapkit: crawl id ${id}; more workers join from any machine with: sitemapkit crawl-worker --state ${shellWord(shown)} --crawl-id ${id}\n`,
    );
  }
  // --fresh is done (dropped above); --resume of a finished crawl rewrites its outputs in this
  // process, as it does for an SQLite state (nothing to fetch, nothing for more workers to do).
  const { fresh: _done, ...rest } = flags;
  const workers = phase === 'finished' && flags.resume === true ? 1 : (flags.workers ?? 1);
  if (workers === 1) return run({ ...rest, crawlId: id } as F);
  const args = ['--state', state, '--crawl-id', id];
  if (flags.quiet === true) args.push('--quiet');
  if (json) args.push('--json');
  if (flags.verbose === true) args.push('--verbose');
  // A child connects before it reads the recorded command, so its first connection waits as this
  // one did only when told on its command line (the recorded value serves its crawl's connections).
  if (flags.connectTimeout !== undefined) args.push('--connect-timeout', `${flags.connectTimeout}ms`);
  // One connection for the progress line's queue, opened at its first poll, kept to the end.
  let queue: Promise<PostgresQueue> | undefined;
  const queued = async (): Promise<SharedQueueSize> => {
    queue ??= openPostgresQueue(state, id);
    return (await queue).size();
  };
  try {
    return await superviseWorkers({ workers, args, quiet: flags.quiet === true, json, queued }, ctx);
  } finally {
    await queue?.then((q) => q.close()).catch(() => undefined);
  }
}

/** Whether this process is a worker started by `crawl --workers` (progress goes to the supervisor). */
export function ipcWorker(): boolean {
  return process.env[WORKER_IPC_ENV] === '1' && typeof process.send === 'function';
}

export function sendToSupervisor(message: WorkerMessage): void {
  process.send?.(message);
}

/** An `onProgress` that sends at most four progress messages a second to the supervisor. */
export function ipcProgress(): (p: CrawlProgress) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    if (now - last < 250) return;
    last = now;
    sendToSupervisor({ kind: 'progress', progress: p });
  };
}

/** What Ctrl-C in a worker of a shared crawl leaves behind. */
export function leftShared(state: string, crawlId: string): string {
  return `interrupted: this worker's pages went back to the crawl "${crawlId}", which the other workers go on with; to join it again:\n  sitemapkit crawl-worker --state ${shellWord(redactDatabaseUrl(state))} --crawl-id ${crawlId}`;
}

/**
 * A worker's own share of a shared crawl, for its summary: the pages it fetched, and apart the URLs
 * it finished without a fetch (refused by robots.txt or the address policy).
 */
export function workerShare(result: CrawlResult): string {
  const w = result.worker;
  if (w === undefined) return '';
  const n = (v: number, word: string): string => `${v.toLocaleString('en-US')} ${word}${v === 1 ? '' : 's'}`;
  return `${n(w.pages, 'page')} fetched, ${n(w.withoutFetch, 'URL')} finished without a fetch`;
}

/** The summary of a worker that ended with the frontier empty while another worker wrote the outputs. */
export function otherWorkerWrote(
  result: CrawlResult,
  crawlId: string,
  json: boolean,
  ctx: CliContext,
): number {
  const s = result.stats;
  if (json) {
    ctx.stdout.write(
      `${JSON.stringify({ ok: true, crawlId, wroteOutputs: false, worker: result.worker, stats: s }, null, 2)}\n`,
    );
  } else {
    ctx.stdout.write(
      `Crawl "${crawlId}" is done: this worker made ${s.requests.toLocaleString('en-US')} requests in ${s.seconds.toFixed(1)} s (${workerShare(result)}); another worker wrote the sitemaps, the HTML site map and the report\n`,
    );
  }
  return EXIT_OK;
}

function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}
