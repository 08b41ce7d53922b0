/**
 * The read side of a crawl shared through PostgreSQL: its finished URLs, links and facts copied,
 * in discovery order and a page of rows at a time, into a local SQLite state (the state file's own
 * format), so that the sitemaps, the HTML site map, the change set and the report are written by
 * the same code as a crawl of one process; and `openPostgresCrawl()` for `crawl-status`: progress,
 * workers and their heartbeats, and `drop()`.
 */
import { SitemapkitError } from '../core/errors.js';
import { openPgDb, type PgDb, pgTarget } from './frontier-postgres-db.js';
import { crawlExists, dropCrawlSchema } from './frontier-postgres-schema.js';
import { FORMAT, openStateDb, VERSION } from './state-open.js';

/**
 * Rows copied per query (keyset pages: no cursor or transaction held open on the server, and a
 * page lost with its connection is simply asked again). Each page is built in memory twice, as the
 * driver's rows and as SQLite's bound values: 2,000 rows of a few hundred bytes keep that to a
 * megabyte or two, and the 500 round trips of a million pages cost well under a second.
 */
const PAGE = 2000;

/** The `urls` columns of the SQLite state, in one order for both sides. */
const COLUMNS = [
  'id',
  'url',
  'depth',
  'state',
  'via',
  'source',
  'status',
  'verdict',
  'reason',
  'target',
  'content_type',
  'title',
  'lastmod',
  'extra',
  'bytes',
  'ms',
  'attempts',
  'etag',
  'last_modified',
  'fingerprint',
  'changed_at',
  'prev_verdict',
  'change',
  'change_at',
  'canonical',
  'description_length',
  'rendered',
] as const;

/** Meta keys that are the shared crawl's own, not the state's. */
const SHARED_META = new Set(['format', 'version', 'made_by', 'finisher', 'seeding']);

/**
 * Copies the crawl into a new SQLite state file at `path` (which must not exist). The links (31 a
 * page on a site with a menu: most of the copy's rows) are copied only with `links`: of what is
 * written from the copy, only the report reads them (inbound counts, referrers).
 */
export async function copyToSqlite(db: PgDb, path: string, o: { links: boolean }): Promise<void> {
  const sqlite = await openStateDb(path, 'new');
  try {
    const meta = await db.query<{ key: string; value: string }>(
      'read the crawl',
      'SELECT key, value FROM meta',
    );
    const setMeta = sqlite.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    setMeta.run('format', FORMAT);
    setMeta.run('version', VERSION);
    for (const m of meta) if (!SHARED_META.has(m.key)) setMeta.run(m.key, m.value);
    const insert = sqlite.prepare(
      `INSERT INTO urls (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
    );
    let last = 0;
    let top = 0;
    for (;;) {
      // Rows as arrays in COLUMNS' order, bound as they come: no object per row.
      const rows = await db.with(
        'read the finished pages',
        async (c) =>
          (
            await c.query<unknown[]>({
              name: 'sk_copy_urls',
              text: `SELECT ${COLUMNS.join(', ')} FROM urls WHERE id > $1 ORDER BY id LIMIT ${PAGE}`,
              values: [last],
              rowMode: 'array',
            })
          ).rows,
      );
      if (rows.length === 0) break;
      sqlite.transaction(() => {
        for (const r of rows) insert.run(...r);
      })();
      last = rows[rows.length - 1]![0] as number;
      top = last;
    }
    if (o.links) await copyLinks(db, sqlite, top);
    const patterns = await db.query<{ key: string; n: number }>(
      'read the patterns',
      'SELECT key, n FROM patterns',
    );
    const pattern = sqlite.prepare('INSERT INTO patterns (key, n) VALUES (?, ?)');
    sqlite.transaction(() => {
      for (const p of patterns) pattern.run(p.key, p.n);
    })();
  } finally {
    sqlite.close();
  }
}

/**
 * The links, by the pages that link, a few hundred pages at a time: a page's row of `page_links`,
 * and the rows of `links` a crawl begun by version 1 of the schema kept (a pair once either way).
 */
async function copyLinks(
  db: PgDb,
  sqlite: Awaited<ReturnType<typeof openStateDb>>,
  top: number,
): Promise<void> {
  const link = sqlite.prepare('INSERT OR IGNORE INTO links (target, source) VALUES (?, ?)');
  const [{ v1 } = { v1: false }] = await db.query<{ v1: boolean }>(
    'read the links',
    "SELECT to_regclass('links') IS NOT NULL AS v1",
  );
  const step = PAGE / 4;
  for (let from = 0; from < top; from += step) {
    const pages = await db.query<{ source: number; targets: Array<number | string> }>(
      'read the links',
      'SELECT source, targets FROM page_links WHERE source > $1 AND source <= $2',
      [from, from + step],
    );
    const old = v1
      ? await db.query<{ target: number; source: number }>(
          'read the links',
          'SELECT target, source FROM links WHERE source > $1 AND source <= $2',
          [from, from + step],
        )
      : [];
    sqlite.transaction(() => {
      for (const p of pages) for (const t of p.targets) link.run(Number(t), p.source);
      for (const r of old) link.run(r.target, r.source);
    })();
  }
}

/** A worker of a shared crawl as `crawl-status` shows it. */
export interface CrawlWorkerStatus {
  id: string;
  host: string;
  pid: number;
  startedAt: Date;
  /** Its last heartbeat (it renews its claims then). */
  heartbeat: Date;
  /** Alive: a heartbeat within its lease time, and not stopped. */
  alive: boolean;
  /** Pages it fetched and recorded finished (`worker.pages` of its result). */
  pages: number;
  /**
   * URLs it recorded finished without a fetch: refused by robots.txt or the address policy
   * (`worker.withoutFetch`). A worker of a crawl begun before schema version 4 counted them in `pages`.
   */
  withoutFetch: number;
  /** When it stopped, and how (`done`, `aborted`, `failed`); null while it runs (or when it died). */
  stoppedAt: Date | null;
  ended: string | null;
}

/** Progress of a shared crawl. */
export interface SharedCrawlStatus {
  crawlId: string;
  /** False when there is no crawl of this id in the database. */
  exists: boolean;
  /** `running`, `complete` (its output was written), or undefined before the first worker ran. */
  status: string | undefined;
  /** URLs finished (fetched, or judged without a fetch). */
  done: number;
  /** URLs waiting for a worker. */
  queued: number;
  /** URLs claimed by a worker now (expired claims count as queued). */
  leased: number;
  /** URLs that ended as errors or broken (4xx, 5xx after retries, network failures). */
  errors: number;
  listed: number;
  total: number;
  /** Pages fetched per second over the last minute, over all workers (URLs finished without a fetch left out). */
  rate: number;
  workers: CrawlWorkerStatus[];
  /** The worker that claimed the finish step (it writes the output), if one did. */
  finisher: string | undefined;
}

/** A shared crawl opened for `crawl-status`. */
export interface PostgresCrawl {
  status(): Promise<SharedCrawlStatus>;
  /** Drops the crawl's schema: every URL, lease and worker of it (its written output stays). */
  drop(): Promise<void>;
  close(): Promise<void>;
}

async function readStatus(db: PgDb): Promise<SharedCrawlStatus> {
  const crawlId = db.target.crawlId;
  if (!(await crawlExists(db))) {
    return {
      crawlId,
      exists: false,
      status: undefined,
      done: 0,
      queued: 0,
      leased: 0,
      errors: 0,
      listed: 0,
      total: 0,
      rate: 0,
      workers: [],
      finisher: undefined,
    };
  }
  const [c] = await db.query<Record<string, number>>(
    'count URLs',
    `SELECT count(*) FILTER (WHERE state = 2)::int AS done,
       count(*) FILTER (WHERE state = 0 OR (state = 1 AND lease_until < clock_timestamp()))::int AS queued,
       count(*) FILTER (WHERE state = 1 AND lease_until >= clock_timestamp())::int AS leased,
       count(*) FILTER (WHERE verdict IN ('error', 'broken'))::int AS errors,
       count(*) FILTER (WHERE verdict = 'listed')::int AS listed, count(*)::int AS total,
       (SELECT COALESCE(sum(pages), 0)::int FROM progress WHERE at > clock_timestamp() - interval '1 minute') AS minute
     FROM urls`,
  );
  const meta = new Map(
    (await db.query<{ key: string; value: string }>('read the crawl', 'SELECT key, value FROM meta')).map(
      (m) => [m.key, m.value],
    ),
  );
  const workers = await db.query<{
    id: string;
    host: string;
    pid: number;
    started_at: Date;
    heartbeat: Date;
    alive: boolean;
    fetched: number;
    without_fetch: number;
    stopped_at: Date | null;
    ended: string | null;
  }>(
    'read the workers',
    `SELECT id, host, pid, started_at, heartbeat, fetched, without_fetch, stopped_at, ended,
       stopped_at IS NULL AND heartbeat > clock_timestamp() - make_interval(secs => lease_seconds) AS alive
     FROM workers ORDER BY started_at, id`,
  );
  return {
    crawlId,
    exists: true,
    status: meta.get('status'),
    done: c!['done']!,
    queued: c!['queued']!,
    leased: c!['leased']!,
    errors: c!['errors']!,
    listed: c!['listed']!,
    total: c!['total']!,
    rate: c!['minute']! / 60,
    workers: workers.map((w) => ({
      id: w.id,
      host: w.host,
      pid: w.pid,
      startedAt: w.started_at,
      heartbeat: w.heartbeat,
      alive: w.alive,
      pages: w.fetched,
      withoutFetch: w.without_fetch,
      stoppedAt: w.stopped_at,
      ended: w.ended,
    })),
    finisher: meta.get('finisher'),
  };
}

/**
 * Opens the crawl `crawlId` in the database at `url` (settings from the URL and the `PG*`
 * variables) for its status and for dropping it. Creates nothing. Throws `ERR_STATE` when the
 * database cannot be reached, `ERR_OPTIONS` for a bad URL or id.
 */
export async function openPostgresCrawl(url: string, crawlId: string): Promise<PostgresCrawl> {
  const target = pgTarget(url, crawlId);
  const db = await openPgDb(target, {
    size: 2,
    retryMs: 0,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    name: 'sitemapkit crawl-status',
  });
  let closed = false;
  const open = (): void => {
    if (closed) throw new SitemapkitError('ERR_STATE', 'the crawl was closed', { where: target.shown });
  };
  return {
    status: async () => {
      open();
      return readStatus(db);
    },
    drop: async () => {
      open();
      await dropCrawlSchema(db);
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await db.close();
    },
  };
}
