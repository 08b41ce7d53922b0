/**
 * `crawl()`: spider a site politely into its state, then write the sitemaps (through the writer)
 * and the report from that state. This file only composes the parts: the network (network.ts,
 * fetch-page.ts), the robots.txt gate over the one robots cache (../robots/gate.ts), the frontier
 * over the SQLite state (frontier.ts, frontier-sqlite.ts, state.ts), the loop (scheduler.ts with
 * the HTTP layer's host scheduler and retry policy), what a finished URL means (recorder.ts, page-outcome.ts, scope.ts,
 * normalize-url.ts), the seeds (seed.ts), the sitemap entries and the report.
 *
 * Output is written only after the frontier is exhausted (or `maxPages` is reached): an
 * interrupted crawl keeps its state for `resume` and never touches the previous sitemaps. Resuming
 * a crawl that had finished makes no request: it writes the output again, with the options given
 * now.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntryInput } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { HostScheduler } from '../http/scheduler.js';
import { addressRefusal, RobotsGate } from '../robots/gate.js';
import type { BuildResult, SiteStore } from '../store/store.js';
import { type WriteSitemapsResult, writeSitemaps } from '../writer/write-sitemaps.js';
import { writeChangeSet } from './change-set-file.js';
import { crawlShared } from './frontier-postgres-crawl.js';
import { resolveShared, type SharedCrawlWorker } from './frontier-postgres-options.js';
import { SqliteFrontier } from './frontier-sqlite.js';
import { collectGarbage, limitHeapGrowth } from './heap.js';
import { type CrawlNetwork, openNetwork } from './network.js';
import { originOf } from './normalize-url.js';
import { type CrawlOptions, type ResolvedCrawlOptions, resolveCrawlOptions } from './options.js';
import { crawlLastmod } from './page-outcome.js';
import { checkPublication, namedByPage } from './publish.js';
import { Recorder } from './recorder.js';
import type { CrawlStats } from './records.js';
import { conditionalHeaders, observedAt } from './recrawl.js';
import { RenderStep } from './render-step.js';
import { type CrawlReportFiles, writeCrawlReport } from './report.js';
import { writeCrawlReportInThread } from './report-thread.js';
import { applyRobots } from './robots-apply.js';
import { Scheduler } from './scheduler.js';
import { Scope } from './scope.js';
import { type SeedContext, seedSitemaps, seedStarts } from './seed.js';
import { otherHosts, rewriteOrigin, sitemapEntries } from './sitemap-entries.js';
import { CrawlState, type StateMode } from './state.js';
import type { Tallies } from './state-rows.js';
import {
  openCrawlStore,
  publishToStore,
  type ResolvedCrawlStore,
  resolveCrawlStore,
} from './store-publish.js';

export type { CrawlStats } from './records.js';

/**
 * URLs from which the report is written by a second thread beside the sitemaps (and the loop's
 * heap collected first): below, starting the thread (its modules, its connection to the state)
 * costs more than it saves.
 */
const REPORT_THREAD_MIN = 10_000;

/** The performance mark made when the crawl's last page is done and its output starts. */
const OUTPUT_MARK = 'sitemapkit:output';

/** What {@link crawl} returns. */
export interface CrawlResult {
  /** The state database; undefined when the crawl kept a temporary one (deleted by now). */
  state: string | undefined;
  /** The frontier was exhausted (false when `maxPages` stopped it; `resume` continues). */
  complete: boolean;
  stats: CrawlStats;
  /** The sitemaps written; undefined when they were published through the store (`store`). */
  sitemaps: WriteSitemapsResult | undefined;
  /** The store's build (its change set) when the crawl was published through `store`. */
  store: BuildResult | undefined;
  /** The report files, unless `report: false`. */
  report: CrawlReportFiles | undefined;
  /** Findings of the crawl and of the writer, by severity. */
  counts: { error: number; warning: number; info: number };
  /** With a `postgres://` state: what this worker did (undefined for a crawl of one process). */
  worker?: SharedCrawlWorker;
}

/**
 * Crawls a site and writes its sitemaps (and the HTML site map and the report).
 *
 * Writes only where it is told: `outDir`, and `state` and `report` when given (without `state`,
 * a temporary state is deleted on return).
 *
 * Throws `ERR_OPTIONS` for bad options (a start URL that cannot be published under `baseUrl`
 * included, before any request), `ERR_STATE` for a missing, unfinished or locked state,
 * `ERR_HTTP` when a start site's robots.txt is unreachable (nothing is crawled: RFC 9309 says
 * complete disallow), `ERR_ABORTED` when `signal` aborts (state kept, sitemaps untouched) and
 * `ERR_NO_URLS` when no page can be listed (the previous sitemaps stay).
 */
export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  const o = resolveCrawlOptions(options);
  if (o.signal?.aborted === true) {
    throw new SitemapkitError('ERR_ABORTED', 'the crawl was interrupted before it started');
  }
  checkPublication(o);
  // A postgres:// state: this process is one worker of a crawl shared through the database.
  const shared = resolveShared(options);
  if (shared !== undefined) return crawlShared(o, shared);
  const target = resolveCrawlStore(options.store, o.sitemaps);
  const store = target === undefined ? undefined : await openCrawlStore(target, o.baseUrl, o.sitemaps, o.now);
  try {
    return await crawlInto(o, target === undefined || store === undefined ? undefined : { target, store });
  } finally {
    await store?.close();
  }
}

/** The store a crawl publishes through, opened (and locked) for the whole run. */
interface StoreTarget {
  target: ResolvedCrawlStore;
  store: SiteStore;
}

async function crawlInto(o: ResolvedCrawlOptions, store: StoreTarget | undefined): Promise<CrawlResult> {
  if (o.state === undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-crawl-'));
    try {
      const result = await run(o, store, {
        path: join(dir, 'state.db'),
        mode: 'new',
        restarted: false,
        rewrite: false,
        recrawl: 'no',
        fingerprint: o.mode === 'recrawl',
      });
      return { ...result, state: undefined };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  return run(o, store, await stateStart(o.state, o.mode));
}

/** How this run treats its state file. */
interface StateStart {
  path: string;
  mode: StateMode;
  /** A finished crawl's state was found without resume or fresh: it is started over. */
  restarted: boolean;
  /** Resuming a finished crawl: no request, only the output is written again. */
  rewrite: boolean;
  /** `begin`: a finished crawl is recrawled; `continue`: an interrupted one goes on. */
  recrawl: 'no' | 'begin' | 'continue';
  /**
   * Fingerprint the pages read. Only recrawls do (their first crawl included: `recrawl` with no
   * state yet), and so does any run that continues one, `--resume` included: it costs the page
   * reader 1.1x to 1.4x its time (bench/recrawl.mjs), which a crawl never recrawled need not pay.
   */
  fingerprint: boolean;
}

/** Decides from what is on disk (before any network work) how the state is opened. */
async function stateStart(path: string, mode: ResolvedCrawlOptions['mode']): Promise<StateStart> {
  const disk = await CrawlState.onDisk(path);
  const complete = disk?.status === 'complete';
  const plain = { restarted: false, rewrite: false, recrawl: 'no' as const, fingerprint: false };
  if (mode === 'recrawl') {
    // Whatever the state is, a recrawl brings it up to date: none yet is a first crawl, an
    // unfinished one goes on (a cron job killed last night continues tonight).
    if (disk === undefined) return { ...plain, path, mode: 'new', fingerprint: true };
    const recrawl = complete ? 'begin' : 'continue';
    CrawlState.check(path, 'resume');
    return { ...plain, path, mode: 'resume', recrawl, fingerprint: true };
  }
  if (mode === 'new' && complete) return { ...plain, path, mode: 'fresh', restarted: true };
  CrawlState.check(path, mode);
  const fingerprint = mode === 'resume' && disk?.fingerprints === true;
  return { ...plain, path, mode, rewrite: mode === 'resume' && complete, fingerprint };
}

async function run(
  o: ResolvedCrawlOptions,
  store: StoreTarget | undefined,
  start: StateStart,
): Promise<CrawlResult> {
  const net = openNetwork(o, start.fingerprint);
  // The heap's limits are flags of the whole process: only a caller who owns it asks (the CLI).
  const release = o.holdHeap ? limitHeapGrowth() : () => undefined;
  try {
    return await crawlWith(o, net, start, store, release);
  } finally {
    release();
    await net.close();
  }
}

async function crawlWith(
  o: ResolvedCrawlOptions,
  net: CrawlNetwork,
  start: StateStart,
  store: StoreTarget | undefined,
  releaseHeap: () => void,
): Promise<CrawlResult> {
  // robots.txt of every start origin first: when one is unreachable nothing may be crawled there,
  // and a crawl that cannot start should not leave a state behind. A finished crawl that is only
  // written again asks nothing (its site may be gone by now).
  if (o.robots && !start.rewrite) {
    for (const origin of o.origins) {
      const r = await net.robots.get(`${origin}/`);
      const refused = addressRefusal(r);
      if (refused !== undefined) {
        throw new SitemapkitError(
          'ERR_HTTP',
          `${refused}: nothing was crawled and the previous sitemaps are untouched`,
          {
            where: r.url,
            hint: 'the address policy refused the start: drop --strict-addresses (addressPolicy "strict") to crawl a site on a private address',
          },
        );
      }
      if (r.status === 'unreachable') {
        throw new SitemapkitError(
          'ERR_HTTP',
          `${r.error?.message ?? 'robots.txt is unreachable'}: nothing was crawled and the previous sitemaps are untouched`,
          {
            where: r.url,
            hint: 'RFC 9309 §2.3.1.4: a crawler must assume complete disallow while robots.txt answers 5xx (or 429) or cannot be reached; try again later',
          },
        );
      }
    }
  }
  const state = await CrawlState.open(start.path, start.mode);
  const frontier = new SqliteFrontier(state, { maxDepth: o.maxDepth });
  const scope = new Scope({
    origins: o.origins,
    hosts: o.hosts,
    subdomains: o.subdomains,
    pathPrefix: o.pathPrefix,
    include: o.include,
    exclude: o.exclude,
    trapGuards: o.trapGuards,
    year: new Date(o.now()).getUTCFullYear(),
  });
  if (start.recrawl === 'begin') {
    // The scope is this run's: a page an option now keeps out is not fetched again, and leaves.
    state.beginRecrawl(observedAt(o.now()), (url, isStart) => {
      const out = scope.check(url, isStart);
      if (out === undefined) return undefined;
      return { verdict: out.verdict === 'external' ? 'excluded' : out.verdict, reason: out.reason };
    });
  }
  if (start.fingerprint) state.setMeta('fingerprints', 'yes');
  const hosts = new HostScheduler({ concurrency: o.hostConcurrency, delayMs: o.delayMs });
  let scheduler: Scheduler | undefined;
  const recorder = new Recorder(o, frontier, scope, () => ({
    requests: scheduler?.requests ?? 0,
    inFlight: scheduler?.inFlight.size ?? 0,
  }));
  const gate = new RobotsGate(net.robots, {
    enabled: o.robots,
    agent: o.robotsAgent,
    onRules: (origin, result) => applyRobots(o, recorder, hosts, origin, result),
    onSettled: (error) => {
      if (error !== undefined) scheduler?.fail(error);
      scheduler?.wake();
    },
  });
  // The browser starts with the first page to render and is closed when the loop ends, however it ends.
  const render = o.render.mode === false ? undefined : new RenderStep(o, net.page, gate, scope, hosts);
  if (start.recrawl === 'continue') {
    recorder.report({
      code: 'crawl-recrawl-continued',
      severity: 'info',
      message: `the crawl saved in ${start.path} had not finished: it goes on (pages it finished are not fetched again)`,
    });
  }
  if (start.restarted) {
    recorder.report({
      code: 'crawl-state-restarted',
      severity: 'info',
      message: `the crawl saved in ${start.path} had finished: it is started over (to write a finished crawl's output again without fetching, resume it instead)`,
    });
  }
  let complete: boolean;
  // The state's totals once the loop is over: each count is a scan of every URL (a second at a
  // million pages), so the output's stats reuse the one scan that decided `complete`.
  let end: Tallies;
  try {
    if (o.robots && !start.rewrite) for (const origin of o.origins) await gate.prime(origin);
    const seeds: SeedContext = {
      frontier,
      starts: o.starts,
      now: o.now,
      admitStart: recorder.admitStart,
      admit: recorder.admit,
      normalize: (raw, base) => recorder.normalize(raw, base),
      committed: (c) => recorder.committed(c),
    };
    await seedStarts(seeds);
    if (o.seedSitemaps && !start.rewrite) {
      await seedSitemaps(seeds, {
        origins: o.origins,
        httpClient: net.client,
        timeoutMs: o.timeoutMs,
        signal: o.signal,
        report: (d) => recorder.report(d),
        urls: o.seedUrls,
      });
    }
    const c = await frontier.counts();
    recorder.done = c.done;
    recorder.queued = c.queued;
    recorder.listed = c.listed;
    const s = new Scheduler(
      {
        concurrency: o.concurrency,
        maxPages: o.maxPages,
        retry: {
          retries: o.retries,
          baseMs: o.retryBaseMs,
          maxMs: 30_000,
          maxRetryAfterMs: o.maxRetryAfterMs,
        },
        signal: o.signal,
        now: o.now,
        sleep: o.sleep,
      },
      {
        frontier,
        hosts,
        gate: (origin, url) => gate.verdict(origin, url),
        fetch: (item) =>
          render === undefined
            ? net.page(item.url, conditionalHeaders(item.prior))
            : render.page(item.url, conditionalHeaders(item.prior)),
        originOf,
      },
      recorder,
      c.fetched,
    );
    scheduler = s;
    if (!start.rewrite) {
      await frontier.setMeta('status', 'running');
      await s.run();
    }
    // Deleted or replaced in the last second of the loop, or while it rewrote nothing: no output.
    state.checkFile();
    end = state.tallies();
    complete = end.counts.queued === 0;
    await frontier.setMeta('status', complete ? 'complete' : 'partial');
    if (!complete) {
      recorder.report({
        code: 'crawl-max-pages',
        severity: 'info',
        message: `stopped at --max-pages ${o.maxPages}: ${end.counts.queued} URLs are still queued (continue with --resume and a larger --max-pages)`,
      });
    }
  } catch (error) {
    // A state lost under the crawl is what the user must hear of, not what it made fail after.
    const told = state.explain(error, false);
    try {
      state.close();
    } catch {
      // Closing after a failure may fail in turn (a file in a bad state): the first error stands.
    }
    throw told;
  } finally {
    await render?.close();
  }
  let inThread: Promise<CrawlReportFiles> | undefined;
  // The sitemaps are published: a failure after says so.
  let written = false;
  try {
    const seconds = (o.now() - recorder.started) / 1000;
    // The loop is over: what only it needed goes before the output allocates (the crawl's peak
    // RSS was reached here, its heap still alive under the output's first burst). The mark lets
    // a benchmark tell the two phases apart (bench/rss-hook.mjs); it is cleared at once.
    await net.close();
    recorder.release();
    state.forgetSeen();
    performance.mark(OUTPUT_MARK);
    performance.clearMarks(OUTPUT_MARK);
    // One turn of the event loop: a performance observer hears of the mark before the output's
    // synchronous start (the collection below, the state's checkpoint), not after it.
    await new Promise((resolve) => setImmediate(resolve));
    const c = end.counts;
    // A large crawl's dead heap goes before its output's thread starts (heap.ts); a small one's
    // is not worth a pause of the caller's whole process.
    if (o.holdHeap && c.total >= REPORT_THREAD_MIN) collectGarbage();
    // The limits are for the loop's garbage: the output's ran 10 s instead of 8.5 at 1M under them.
    releaseHeap();
    const requests = scheduler.requests;
    const stats: CrawlStats = {
      found: c.total,
      fetched: c.fetched,
      listed: c.listed,
      queued: c.queued,
      verdicts: Object.fromEntries(end.verdicts),
      statuses: Object.fromEntries([...end.statuses].map(([k, v]) => [String(k), v])),
      requests,
      externalLinks: recorder.externalLinks,
      seconds,
      pagesPerSecond: seconds > 0 ? requests / seconds : 0,
    };
    if (state.getMeta('recrawls') !== undefined) stats.changes = state.changeCounts();
    let report: CrawlReportFiles | undefined;
    if (o.report !== undefined) {
      const input = { dir: o.report, stats, starts: o.starts, complete, generatedAt: new Date(o.now()) };
      if (c.total >= REPORT_THREAD_MIN) {
        // On a second thread, beside the sitemaps below (report-thread.ts); awaited before the
        // state records what was published, and before it is closed however the output ends.
        state.share();
        inThread = writeCrawlReportInThread(state.path, input, state.identity);
        inThread.catch(() => undefined);
      } else {
        report = await writeCrawlReport(state, input);
      }
    }
    const named = namedByPage(oneLastmodForm(adjusted(sitemapEntries(state, o), o.adjustEntry)));
    if (store !== undefined) {
      // The store's change set is the one change set: what it published, file by file.
      const built = await publishToStore(store.store, store.target, named.entries, {
        outDir: o.outDir,
        sitemaps: o.sitemaps,
        allowHosts: otherHosts(state, o),
        changes: o.changes,
        onDiagnostic: (d) => recorder.report(named.name(d)),
        signal: o.signal,
      });
      written = true;
      await store.target.onStep?.('crawl:store-committed');
      if (inThread !== undefined) report = await inThread;
      state.published();
      const counts = { ...recorder.counts };
      return { state: state.path, complete, stats, sitemaps: undefined, store: built, report, counts };
    }
    const sitemaps = await writeSitemaps(named.entries, {
      outDir: o.outDir,
      baseUrl: o.baseUrl,
      onInvalid: 'skip',
      allowHosts: otherHosts(state, o),
      ...o.sitemaps,
      onDiagnostic: (d) => recorder.report(named.name(d)),
      ...(o.signal === undefined ? {} : { signal: o.signal }),
    });
    written = true;
    // After the sitemaps: a change set names only what was published.
    if (o.changes !== undefined) {
      const from = o.origins[0]!;
      await writeChangeSet(state, o.changes, (u) => rewriteOrigin(u, from, o.publicOrigin));
    }
    if (inThread !== undefined) report = await inThread;
    state.published();
    const counts = { ...recorder.counts };
    return { state: state.path, complete, stats, sitemaps, store: undefined, report, counts };
  } catch (error) {
    // The report's thread failing to read a state replaced under it, SQLite refusing a write into
    // a moved file: the state's loss in words.
    throw state.explain(error, written);
  } finally {
    // The report's thread reads the state until it exits: the state is closed after it.
    await inThread?.catch(() => undefined);
    state.close();
  }
}

/** The entries as the caller's `adjustEntry` rewrites them. */
function* adjusted(
  entries: Iterable<EntryInput>,
  adjust: ((e: EntryInput) => EntryInput) | undefined,
): Generator<EntryInput> {
  for (const e of entries) yield adjust === undefined ? e : adjust(e);
}

/** A state written by an earlier release may hold lastmods in other forms: one form on output too. */
function* oneLastmodForm(entries: Iterable<EntryInput>): Generator<EntryInput> {
  for (const e of entries) {
    if (typeof e.lastmod === 'string') e.lastmod = crawlLastmod(e.lastmod);
    yield e;
  }
}
