/**
 * One worker of a crawl shared through PostgreSQL (issue 17): `crawl()` with a `postgres://`
 * state lands here. It creates the crawl's schema and seeds the start URLs when the crawl is new,
 * joins it otherwise, registers itself in `workers` and heartbeats (renewing its claims), runs the
 * crawl's own loop (scheduler.ts) over the PostgreSQL frontier until nothing is queued and no
 * claim is alive, and then tries to claim the finish step: the one worker that gets it copies the
 * finished crawl into a local SQLite state and writes the sitemaps, the HTML site map, the change
 * set and the report with the same code as a crawl of one process (frontier-postgres-output.ts);
 * the others return saying they did not.
 */
import { SitemapkitError } from '../core/errors.js';
import { HostScheduler } from '../http/scheduler.js';
import type { RobotsCache } from '../robots/fetch.js';
import { addressRefusal, RobotsGate } from '../robots/gate.js';
import type { WriteSitemapsResult } from '../writer/write-sitemaps.js';
import { PostgresFrontier } from './frontier-postgres.js';
import { openPgDb, type PgDb, pgTarget } from './frontier-postgres-db.js';
import type { ResolvedShared, SharedCrawlWorker } from './frontier-postgres-options.js';
import { writeSharedOutput } from './frontier-postgres-output.js';
import { SharedRobotsCache } from './frontier-postgres-robots.js';
import { crawlExists, ensureCrawlSchema } from './frontier-postgres-schema.js';
import { PostgresSlots } from './frontier-postgres-slots.js';
import { Heartbeat, registerWorker } from './frontier-postgres-workers.js';
import { collectGarbage } from './heap.js';
import { type CrawlNetwork, openNetwork } from './network.js';
import { originOf } from './normalize-url.js';
import type { ResolvedCrawlOptions } from './options.js';
import { Recorder } from './recorder.js';
import type { CrawlStats } from './records.js';
import { conditionalHeaders } from './recrawl.js';
import { RenderStep } from './render-step.js';
import type { CrawlReportFiles } from './report.js';
import { applyRobots } from './robots-apply.js';
import { Scheduler } from './scheduler.js';
import { Scope } from './scope.js';
import { type SeedContext, seedSitemaps, seedStarts } from './seed.js';

/** What a worker of a shared crawl returns: {@link CrawlResult}'s fields, and `worker`. */
export interface SharedCrawlResult {
  /** The crawl as messages name it (`postgres://user@host:port/db (schema crawl_ID)`). */
  state: string | undefined;
  complete: boolean;
  stats: CrawlStats;
  sitemaps: WriteSitemapsResult | undefined;
  store: undefined;
  report: CrawlReportFiles | undefined;
  counts: { error: number; warning: number; info: number };
  worker: SharedCrawlWorker;
}

/** How often an idle worker looks again while other workers still hold claims. */
const IDLE_POLL_MS = 200;

/** Runs one worker of the shared crawl `s` in this process. */
export async function crawlShared(o: ResolvedCrawlOptions, s: ResolvedShared): Promise<SharedCrawlResult> {
  const target = pgTarget(s.url, s.crawlId);
  const db = await openPgDb(target, {
    // The loop's commit, a claim and the heartbeat may run at once; the rest waits for a connection.
    size: Math.min(o.concurrency, 8) + 2,
    retryMs: s.retryMs,
    sleep: o.sleep,
    name: `sitemapkit crawl ${s.workerId}`,
    // A worker started before its database is up (a compose file, a server restarting) waits for it.
    firstConnect: { waitMs: s.connectMs, onWait: o.onDiagnostic, sleep: o.sleep },
  });
  let heartbeat: Heartbeat | undefined;
  let ended = 'failed';
  const net = openNetwork(o, false);
  let netOpen = true;
  const closeNet = async (): Promise<void> => {
    if (!netOpen) return;
    netOpen = false;
    await net.close();
  };
  try {
    if (o.mode === 'resume' && !(await crawlExists(db))) {
      throw new SitemapkitError('ERR_STATE', `there is no crawl "${s.crawlId}" to resume`, {
        where: target.shown,
        hint: 'run the crawl without --resume to start it, or check --crawl-id',
      });
    }
    await ensureCrawlSchema(db);
    await registerWorker(db, s);
    heartbeat = new Heartbeat(db, s);
    const result = await work(o, s, db, net, closeNet);
    ended = 'done';
    return result;
  } catch (error) {
    if (o.signal?.aborted === true) ended = 'aborted';
    throw error;
  } finally {
    await heartbeat?.stop(ended);
    await closeNet();
    await db.close();
  }
}

async function checkStarts(o: ResolvedCrawlOptions, robots: RobotsCache): Promise<void> {
  for (const origin of o.origins) {
    const r = await robots.get(`${origin}/`);
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

/**
 * Whether any URL is still queued or claimed, and how many claims are alive: read through the
 * partial indexes of queued and claimed URLs (an idle worker asks often; the table may be huge).
 */
async function open(db: PgDb): Promise<{ queued: number; leased: number }> {
  const rows = await db.query<{ queued: number; leased: number }>(
    'look for work',
    `SELECT (SELECT count(*) FROM (SELECT 1 FROM urls WHERE state = 0 LIMIT 1000) AS q)::int
         + (SELECT count(*) FROM urls WHERE state = 1 AND lease_until < clock_timestamp())::int AS queued,
       (SELECT count(*) FROM urls WHERE state = 1 AND lease_until >= clock_timestamp())::int AS leased`,
  );
  return rows[0]!;
}

/** The live workers' ids, and the condition that names a dead one (no heartbeat within its lease, or signed off). */
const DEAD = `SELECT id FROM workers WHERE stopped_at IS NOT NULL
  OR heartbeat < clock_timestamp() - make_interval(secs => lease_seconds)`;

/** Claims the reading of the site's sitemaps (from a dead worker that held it, too). */
async function claimSeeding(db: PgDb, me: string): Promise<boolean> {
  const rows = await db.query(
    'claim the sitemap seeding',
    `INSERT INTO meta (key, value) VALUES ('seeding', $1)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value
     WHERE meta.value = excluded.value OR meta.value IN (${DEAD})
     RETURNING key`,
    [me],
  );
  return rows.length > 0;
}

/**
 * Claims the finish step when nothing is left: no URL queued or claimed (every claim finished, or
 * expired and then taken and finished), sitemap seeding done, and no live worker holding it.
 */
async function claimFinish(db: PgDb, me: string, force: boolean): Promise<boolean> {
  const rows = await db.query(
    'claim the finish step',
    `INSERT INTO meta (key, value)
     SELECT 'finisher', $1::text
     WHERE $2::boolean OR (NOT EXISTS (SELECT 1 FROM urls WHERE state = 0)
       AND NOT EXISTS (SELECT 1 FROM urls WHERE state = 1)
       AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'seeding')
       AND NOT EXISTS (SELECT 1 FROM meta WHERE key = 'status' AND value = 'complete'))
     ON CONFLICT (key) DO UPDATE SET value = excluded.value
     WHERE $2::boolean OR meta.value = excluded.value OR meta.value IN (${DEAD})
     RETURNING key`,
    [me, force],
  );
  return rows.length > 0;
}

async function work(
  o: ResolvedCrawlOptions,
  s: ResolvedShared,
  db: PgDb,
  net: CrawlNetwork,
  closeNet: () => Promise<void>,
): Promise<SharedCrawlResult> {
  const frontier = new PostgresFrontier(db, {
    workerId: s.workerId,
    leaseSeconds: s.leaseSeconds,
    maxDepth: o.maxDepth,
    // Small claims: a worker keeps no more than it can start soon, the rest is for the others.
    lot: Math.max(8, o.concurrency * 2),
    onStep: s.onStep,
  });
  const status = await frontier.getMeta('status');
  // A finished crawl is written again only on resume; a worker that joins it late has nothing to do.
  const rewrite = status === 'complete' && o.mode === 'resume';
  const finishedAlready = status === 'complete' && !rewrite;
  // One fetch of each host's robots.txt per cache period for the whole crawl, not per worker.
  const robots = new SharedRobotsCache(
    db,
    { workerId: s.workerId, sleep: o.sleep },
    {
      httpClient: net.client,
      timeoutMs: Math.min(o.timeoutMs, 30_000),
      now: o.now,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
    },
  );
  if (o.robots && !rewrite && !finishedAlready) await checkStarts(o, robots);
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
  // The spacing between two sends to a host is the database's (all workers together), and so is
  // the number of requests in flight on a host when hostConcurrency is given.
  const hosts = new HostScheduler({ concurrency: o.hostConcurrency, delayMs: 0 });
  const slots = new PostgresSlots(db, {
    workerId: s.workerId,
    delayMs: o.delayMs,
    hostLimit: s.hostLimit,
    sleep: o.sleep,
    onStep: s.onStep,
  });
  let requests = 0;
  let scheduler: Scheduler | undefined;
  const recorder = new Recorder(o, frontier, scope, () => ({
    requests: requests + (scheduler?.requests ?? 0),
    inFlight: scheduler?.inFlight.size ?? 0,
  }));
  const gate = new RobotsGate(robots, {
    enabled: o.robots,
    agent: o.robotsAgent,
    onRules: (origin, result) => {
      const ms = applyRobots(o, recorder, hosts, origin, result);
      if (ms !== undefined) slots.setCrawlDelay(origin, ms);
    },
    onSettled: (error) => {
      if (error !== undefined) scheduler?.fail(error);
      scheduler?.wake();
    },
  });
  const render = o.render.mode === false ? undefined : new RenderStep(o, net.page, gate, scope, hosts, slots);
  let complete = finishedAlready || rewrite;
  try {
    if (!rewrite && !finishedAlready) {
      if (o.robots) for (const origin of o.origins) await gate.prime(origin);
      const seeds: SeedContext = {
        frontier,
        starts: o.starts,
        now: o.now,
        admitStart: recorder.admitStart,
        admit: recorder.admit,
        normalize: (raw, base) => recorder.normalize(raw, base),
        committed: (c) => recorder.committed(c),
      };
      // Every worker checks the start URLs (a worker of another crawl's starts is refused); adding
      // them twice is harmless (the seen-set).
      await seedStarts(seeds);
      // The worker that created the crawl may not have committed its start URLs yet: each worker
      // adds them (the seen-set keeps one), so none finds the crawl empty and claims its finish.
      frontier.add(
        o.starts.map((url) => ({ url, depth: 0, source: 'start' as const })),
        recorder.admitStart,
      );
      await frontier.commit();
      // The site's sitemaps are read by one worker (another takes over when it dies doing so).
      const seeding = async (): Promise<'none' | 'seeded' | 'waiting'> => {
        if (!o.seedSitemaps || (await frontier.getMeta('seeded')) !== undefined) return 'none';
        if (!(await claimSeeding(db, s.workerId))) return 'waiting';
        await seedSitemaps(seeds, {
          origins: o.origins,
          httpClient: net.client,
          timeoutMs: o.timeoutMs,
          signal: o.signal,
          report: (d) => recorder.report(d),
          urls: o.seedUrls,
        });
        await db.query('finish seeding', "DELETE FROM meta WHERE key = 'seeding'");
        return 'seeded';
      };
      await seeding();
      const c = await frontier.counts();
      recorder.done = c.done;
      recorder.queued = c.queued;
      recorder.listed = c.listed;
      await frontier.setMeta('status', 'running');
      let fetched = c.fetched;
      for (;;) {
        const sch = new Scheduler(
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
            slots,
            gate: (origin, url) => gate.verdict(origin, url),
            fetch: (item) => {
              const p =
                render === undefined
                  ? net.page(item.url, conditionalHeaders(item.prior))
                  : render.page(item.url, conditionalHeaders(item.prior));
              const step = s.onStep?.('pg:mid-fetch', [item.url]);
              return step === undefined ? p : Promise.resolve(step).then(() => p);
            },
            originOf,
          },
          recorder,
          fetched,
        );
        scheduler = sch;
        // Claims and commits overlap the fetches in the loop; its last commit's counts are taken after.
        frontier.ahead = true;
        try {
          await sch.run();
        } finally {
          frontier.ahead = false;
        }
        recorder.committed(await frontier.commit());
        requests += sch.requests;
        fetched = sch.fetched;
        scheduler = undefined;
        if (fetched >= o.maxPages) break;
        const w = await open(db);
        if (w.queued > 0) continue;
        if (w.leased === 0) {
          const seeded = await seeding();
          if (seeded === 'none') break;
          if (seeded === 'seeded') continue;
        }
        // Other workers hold claims (or read the sitemaps): their pages may still lead somewhere.
        await o.sleep(IDLE_POLL_MS);
        if (o.signal?.aborted === true) {
          throw new SitemapkitError(
            'ERR_ABORTED',
            'the worker was interrupted: its claims went back to the queue; the other workers go on',
            {
              cause: o.signal.reason,
              where: frontier.where,
            },
          );
        }
      }
      const left = await open(db);
      complete = left.queued + left.leased === 0;
    }
  } finally {
    await render?.close();
  }
  const worker = (wroteOutput: boolean): SharedCrawlWorker => ({
    crawlId: s.crawlId,
    workerId: s.workerId,
    wroteOutput,
    pages: frontier.pages,
    withoutFetch: frontier.withoutFetch,
  });
  const seconds = (o.now() - recorder.started) / 1000;
  if (!complete || finishedAlready || !(await claimFinish(db, s.workerId, rewrite))) {
    const c = await frontier.counts();
    const stats: CrawlStats = {
      found: c.total,
      fetched: c.fetched,
      listed: c.listed,
      queued: c.queued,
      verdicts: {},
      statuses: {},
      requests,
      externalLinks: recorder.externalLinks,
      seconds,
      pagesPerSecond: seconds > 0 ? requests / seconds : 0,
    };
    return {
      state: frontier.where,
      complete,
      stats,
      sitemaps: undefined,
      store: undefined,
      report: undefined,
      counts: { ...recorder.counts },
      worker: worker(false),
    };
  }
  // The finish allocates on top of what the crawl left (the copy, the writer): what only the crawl
  // needed goes first, the memo of known URLs and the network's connections and buffers.
  frontier.release();
  await closeNet();
  // And the crawl loop's dead heap, as a crawl of one process collects it at its last page
  // (heap.ts): the finish comes once per crawl, and on a small heap the pause is a few ms.
  if (o.holdHeap) collectGarbage();
  const out = await writeSharedOutput(o, db, recorder, { requests, seconds });
  await frontier.setMeta('status', 'complete');
  return {
    state: frontier.where,
    complete: true,
    stats: out.stats,
    sitemaps: out.sitemaps,
    store: undefined,
    report: out.report,
    counts: { ...recorder.counts },
    worker: worker(true),
  };
}
