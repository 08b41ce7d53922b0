/**
 * The crawl state's queries: one SQLite file (better-sqlite3) holding the frontier, the seen-set,
 * every URL's outcome and the link graph, so that memory stays flat on large sites and a crawl
 * resumes where it stopped. Finished pages are committed together once per turn of the event
 * loop, and always before a new request starts (WAL, synchronous NORMAL: it survives the process
 * being killed), so after `kill -9` no page recorded as finished is fetched again; URLs that were
 * leased but not finished go back to the queue. The file itself (lock, `--fresh`, format) is
 * state-open.ts; the crawl loop sees this state through the Frontier (frontier-sqlite.ts).
 */
import type BetterSqlite3 from 'better-sqlite3';
import {
  type ChangeCounts,
  type Outcome,
  SEED_DEPTH,
  type UrlRecord,
  type UrlSource,
  type Verdict,
} from './records.js';
import {
  checkState,
  endSharing,
  FORMAT,
  openStateDb,
  openStateReader,
  readStateOnDisk,
  type ShareStep,
  type StateMode,
  type StateOnDisk,
  shareDb,
  VERSION,
} from './state-open.js';

export type { Outcome, UrlRecord, UrlSource, Verdict } from './records.js';
export { SEED_DEPTH } from './records.js';

/** URL → id of recently seen URLs: navigation links repeat on every page. */
const ID_CACHE = 50_000;

type Db = BetterSqlite3.Database;
type Stmt = BetterSqlite3.Statement;

import { type FileIdentity, StateGuard } from './state-guard.js';
import { LinkLog } from './state-links.js';
import {
  CHANGE_COUNTS_SQL,
  CHANGES_SQL,
  COUNTS_SQL,
  FINISH_SQL,
  finishParams,
  KEEP_SQL,
  type Known,
  keepParams,
  LEASE_COLUMNS,
  type LeasedRow,
  type LeaseRaw,
  leased,
  type RawRow,
  REPORT_CELLS_SQL,
  STATUS_COUNTS_SQL,
  type StateCounts,
  type Tallies,
  talliesOf,
  tallyRows,
  toRecord,
  UNFETCHED,
  VERDICT_COUNTS_SQL,
} from './state-rows.js';

export type { StateMode } from './state-open.js';
export type { LeasedRow } from './state-rows.js';

export class CrawlState {
  readonly path: string;
  readonly #db: Db;
  // The smallest depth each URL was looked up or stored with: a link found again no closer to
  // the start needs no database read.
  readonly #ids = new Map<string, { id: number; depth: number }>();
  #batch = false;
  /** Read by a second connection (the report's thread) until closed: {@link share}, and its hook. */
  #shared: { onStep: ((step: ShareStep) => void) | undefined } | undefined;
  /** One transaction wrapper for every call: better-sqlite3 builds a new one per `transaction()`. */
  readonly #run: (fn: () => unknown) => unknown;
  readonly #links: LinkLog;
  /** The file's identity, watched while a crawl writes it (none for a reader): state-guard.ts. */
  readonly #guard: StateGuard | undefined;
  readonly #s: {
    find: Stmt;
    insert: Stmt;
    lowerDepth: Stmt;
    lease: Stmt;
    leaseSeeds: Stmt;
    setLeased: Stmt;
    setLeasedAt: Stmt;
    requeueTooDeep: Stmt;
    finish: Stmt;
    keep: Stmt;
    requeue: Stmt;
    getMeta: Stmt;
    setMeta: Stmt;
    pattern: Stmt;
  };

  private constructor(path: string, db: Db, guard?: StateGuard) {
    this.path = path;
    this.#db = db;
    this.#guard = guard;
    this.#run = db.transaction((fn: () => unknown) => fn());
    this.#links = new LinkLog(db);
    this.#s = {
      find: db.prepare('SELECT id, depth, state, verdict FROM urls WHERE url = ?'),
      insert: db.prepare('INSERT INTO urls (url, depth, via, source) VALUES (?, ?, ?, ?)'),
      lowerDepth: db.prepare('UPDATE urls SET depth = ? WHERE id = ? AND state = 0 AND depth > ?'),
      lease: db.prepare(
        `SELECT ${LEASE_COLUMNS} FROM urls WHERE state = 0 AND depth < ${SEED_DEPTH} ORDER BY depth, id LIMIT ?`,
      ),
      leaseSeeds: db.prepare(
        `SELECT ${LEASE_COLUMNS} FROM urls WHERE state = 0 AND depth >= ${SEED_DEPTH} ORDER BY depth, id LIMIT ?`,
      ),
      setLeased: db.prepare('UPDATE urls SET state = 1 WHERE id = ?'),
      setLeasedAt: db.prepare('UPDATE urls SET state = 1, depth = ? WHERE id = ?'),
      requeueTooDeep: db.prepare(
        `UPDATE urls SET state = 0, depth = ?, verdict = NULL, reason = NULL WHERE id = ? AND verdict = 'too-deep'`,
      ),
      finish: db.prepare(FINISH_SQL),
      keep: db.prepare(KEEP_SQL),
      requeue: db.prepare('UPDATE urls SET state = 0 WHERE state = 1'),
      getMeta: db.prepare('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      ),
      pattern: db.prepare(
        'INSERT INTO patterns (key, n) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET n = n + 1 RETURNING n',
      ),
    };
  }

  /** Throws `ERR_STATE` when `mode` does not fit what is on disk (before any network work). */
  static check(path: string, mode: StateMode): void {
    checkState(path, mode);
  }

  /** The status of the state at `path` (undefined: no file), read without keeping it open. */
  static onDisk(path: string): Promise<StateOnDisk | undefined> {
    return readStateOnDisk(path);
  }

  /** Opens (or creates) the state: `new` refuses one, `resume` needs one, `fresh` empties it; `ERR_STATE`. */
  static async open(path: string, mode: StateMode): Promise<CrawlState> {
    const db = await openStateDb(path, mode);
    const state = new CrawlState(path, db, StateGuard.watch(path, db));
    if (state.getMeta('format') === undefined) {
      state.setMeta('format', FORMAT);
      state.setMeta('version', VERSION);
    }
    // Leased URLs were in flight when the last run stopped: they go back to the queue.
    state.#s.requeue.run();
    return state;
  }

  getMeta(key: string): string | undefined {
    return (this.#s.getMeta.get(key) as { value: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.#s.setMeta.run(key, value);
  }

  /**
   * Runs `fn` atomically inside the open batch (opening one if needed). Nothing is durable until
   * {@link commit}: the crawler commits before it starts any request, so after `kill -9` the
   * uncommitted pages plus the ones in flight are never more than the concurrency.
   */
  batched<T>(fn: () => T): T {
    if (!this.#batch) {
      this.#db.exec('BEGIN');
      this.#batch = true;
    }
    return this.#run(fn) as T;
  }

  /**
   * Commits the open batch, if any (one commit for every page finished since the last one). Throws
   * `ERR_STATE` when the file was deleted or replaced since it was opened (looked at once a second).
   */
  commit(): void {
    this.#commitBatch();
    this.#guard?.poll();
  }

  #commitBatch(): void {
    if (!this.#batch) return;
    this.#batch = false;
    if (this.#links.full) this.#links.merge();
    this.#db.exec('COMMIT');
  }

  /** Throws `ERR_STATE` when the file at the state's path is no longer the one this crawl opened. */
  checkFile(): void {
    this.#guard?.check();
  }

  /** `error` in words when the state file was lost ({@link StateGuard.explain}); `written`: the sitemaps were. */
  explain(error: unknown, written: boolean): unknown {
    return this.#guard === undefined ? error : this.#guard.explain(error, written);
  }

  /** Runs `fn` in one transaction (committed when it returns, or with the open batch). */
  transaction<T>(fn: () => T): T {
    return this.#run(fn) as T;
  }

  /**
   * The id of a known URL, or undefined. A URL found again closer to the start (`depth`) gets the
   * smaller depth while it is queued (breadth-first order can be crossed by concurrent pages), and
   * is queued again (`requeued`) when it was left out as too deep and `depth` is within
   * `maxDepth`; `promoted` when it was a sitemap seed still queued (now in the link frontier).
   */
  lookup(url: string, depth: number, maxDepth: number): Known | undefined {
    const cached = this.#ids.get(url);
    if (cached !== undefined && cached.depth <= depth)
      return { id: cached.id, requeued: false, promoted: false };
    const row = this.#s.find.get(url) as
      | { id: number; depth: number; state: number; verdict: Verdict | null }
      | undefined;
    if (row === undefined) return undefined;
    let [requeued, promoted] = [false, false];
    if (depth < row.depth) {
      if (row.state === 0)
        promoted = this.#s.lowerDepth.run(depth, row.id, depth).changes > 0 && row.depth >= SEED_DEPTH;
      else if (row.verdict === 'too-deep' && depth <= maxDepth)
        requeued = this.#s.requeueTooDeep.run(depth, row.id).changes > 0;
    }
    this.#remember(url, row.id, Math.min(depth, row.depth));
    return { id: row.id, requeued, promoted };
  }

  /**
   * Adds a URL not known yet: queued, or (with `outcome`) finished at once without a fetch
   * (excluded, a trap, too deep). Returns its id.
   */
  insert(url: string, depth: number, source: UrlSource, via: number | null, outcome?: Outcome): number {
    const id = Number(this.#s.insert.run(url, depth, via, source).lastInsertRowid);
    this.#remember(url, id, depth);
    if (outcome !== undefined) this.finish(id, outcome);
    return id;
  }

  /** Records that page `source` links to `target` (once per pair). */
  link(target: number, source: number): void {
    if (target !== source) this.#links.add(target, source);
  }

  /** Forgets the URLs seen lately (the loop's cache of ids): the output looks none up. */
  forgetSeen(): void {
    this.#ids.clear();
  }

  /** Puts leased URLs back in the queue (those not fetched when a run stops). */
  releaseLeases(): void {
    this.#s.requeue.run();
  }

  /**
   * Every URL with the address of the page that first linked to it and its number of inbound
   * links, in discovery order (streamed from disk), for the report.
   */
  *reportRows(): Generator<UrlRecord & { viaUrl: string | null; inlinks: number }> {
    this.#links.merge();
    const stmt = this.#db.prepare(
      `SELECT u.*, v.url AS via_url, (SELECT COUNT(*) FROM links l WHERE l.target = u.id) AS inlinks
       FROM urls u LEFT JOIN urls v ON v.id = u.via ORDER BY u.id`,
    );
    for (const r of stmt.iterate()) {
      const row = r as RawRow & { via_url: string | null; inlinks: number };
      yield { ...toRecord(row), viaUrl: row.via_url, inlinks: row.inlinks };
    }
  }

  /** The same URLs as {@link reportRows}, each as an array in the order of `REPORT_CELLS_SQL`. */
  reportCells(): Iterable<unknown[]> {
    this.#links.merge();
    return this.#db.prepare(REPORT_CELLS_SQL).raw().iterate() as Iterable<unknown[]>;
  }

  #remember(url: string, id: number, depth: number): void {
    if (this.#ids.size >= ID_CACHE) {
      const oldest = this.#ids.keys().next().value;
      if (oldest !== undefined) this.#ids.delete(oldest);
    }
    this.#ids.set(url, { id, depth });
  }

  /** Takes up to `n` queued URLs, nearest to the start first, and marks them leased. */
  lease(n: number): LeasedRow[] {
    return this.transaction(() => {
      const rows = this.#s.lease.all(n) as LeaseRaw[];
      for (const r of rows) this.#s.setLeased.run(r.id);
      return rows.map((r) => leased(r));
    });
  }

  /**
   * Takes up to `n` sitemap seeds that no link has reached, as entry points (depth 0). The crawler
   * asks only once nothing else is queued or in flight, so a seed that a page links to is crawled
   * at its link depth instead.
   */
  leaseSeeds(n: number): LeasedRow[] {
    return this.transaction(() => {
      const rows = this.#s.leaseSeeds.all(n) as LeaseRaw[];
      for (const r of rows) this.#s.setLeasedAt.run(0, r.id);
      return rows.map((r) => leased(r, 0));
    });
  }

  /** Records the outcome of a URL (call inside the page's transaction). */
  finish(id: number, o: Outcome): void {
    // A 304 (or a failure of a listed page): what the last crawl recorded stays, verdict included.
    if (o.keep === true) this.#s.keep.run(keepParams(id, o));
    else this.#s.finish.run(finishParams(id, o));
  }

  /**
   * Starts a recrawl of a finished crawl, in one transaction: every URL the crawl fetched (or
   * robots.txt kept out) is queued again, keeping what was recorded of it (its verdict stays until
   * it is fetched again, so a recrawl stopped early still publishes every page), with its verdict
   * remembered as the one to compare with; the site's sitemaps are read again when seeding. A URL
   * the crawl's scope now keeps out (`outOfScope`: an `--exclude` added since, say) is finished
   * with that outcome at once, and is removed from the sitemap if it was listed.
   */
  beginRecrawl(at: string, outOfScope?: (url: string, start: boolean) => Outcome | undefined): void {
    this.transaction(() => {
      const generation = this.getMeta('recrawls') ?? '0';
      // The changes of a crawl whose output was never written (a crash, a full disk) were never
      // published: they stay, and this recrawl's changes are merged into them (MERGE_CHANGE).
      const published = this.getMeta('published') === generation;
      this.#db.exec(
        `UPDATE urls SET prev_verdict = verdict${published ? ', change = NULL, change_at = NULL' : ''},
           attempts = CASE WHEN verdict IN ${UNFETCHED} THEN attempts ELSE 0 END,
           state = CASE WHEN verdict IN ${UNFETCHED} THEN 2 ELSE 0 END`,
      );
      if (outOfScope !== undefined) {
        // Judged while reading, written after: better-sqlite3 runs one statement at a time.
        const out: Array<{ id: number; outcome: Outcome }> = [];
        const rows = this.#db
          .prepare('SELECT id, url, source, prev_verdict FROM urls WHERE state = 0')
          .iterate();
        for (const r of rows as Iterable<{
          id: number;
          url: string;
          source: UrlSource;
          prev_verdict: Verdict | null;
        }>) {
          const outcome = outOfScope(r.url, r.source === 'start');
          if (outcome === undefined) continue;
          out.push({
            id: r.id,
            outcome: r.prev_verdict === 'listed' ? { ...outcome, change: 'removed', changeAt: at } : outcome,
          });
        }
        for (const o of out) this.finish(o.id, o.outcome);
      }
      this.#s.setMeta.run('recrawls', String(Number(generation) + 1));
      this.#s.setMeta.run('recrawled', at);
      this.#s.setMeta.run('status', 'running');
      this.#db.prepare("DELETE FROM meta WHERE key = 'seeded'").run();
    });
  }

  /** Records that this crawl's output (sitemaps, change set) is written: its changes are published. */
  published(): void {
    this.#guard?.check();
    this.setMeta('published', this.getMeta('recrawls') ?? '0');
  }

  /** Pages by what this crawl observed against the one before. */
  changeCounts(): ChangeCounts {
    return this.#db.prepare(CHANGE_COUNTS_SQL).get() as ChangeCounts;
  }

  /** URLs added to, changed in or removed from the sitemap by this crawl, in discovery order. */
  *changes(): Generator<UrlRecord> {
    for (const r of this.#db.prepare(CHANGES_SQL).iterate()) yield toRecord(r as RawRow);
  }

  /** Counts one more URL of a pattern; returns the count including it. */
  countPattern(key: string): number {
    return (this.#s.pattern.get(key) as { n: number }).n;
  }

  /** Queued, done, fetched (an HTTP exchange was made) and listed URLs. */
  counts(): StateCounts {
    return this.#db.prepare(COUNTS_SQL).get() as StateCounts;
  }

  /** {@link counts}, {@link verdictCounts} and {@link statusCounts} from one scan of every URL. */
  tallies(): Tallies {
    return talliesOf(tallyRows(this.#db));
  }

  /** Number of URLs per verdict (`queued` for those never reached). */
  verdictCounts(): Map<string, number> {
    const rows = this.#db.prepare(VERDICT_COUNTS_SQL).all() as Array<{ v: string; n: number }>;
    return new Map(rows.map((r) => [r.v, r.n]));
  }

  /** Number of fetched URLs per HTTP status. */
  statusCounts(): Map<number, number> {
    const rows = this.#db.prepare(STATUS_COUNTS_SQL).all() as Array<{ status: number; n: number }>;
    return new Map(rows.map((r) => [r.status, r.n]));
  }

  /** Every URL, in discovery order (streamed from disk). */
  *records(): Generator<UrlRecord> {
    for (const r of this.#db.prepare('SELECT * FROM urls ORDER BY id').iterate()) yield toRecord(r as RawRow);
  }

  /** URLs with a verdict, in discovery order, at most `limit`. */
  byVerdict(verdicts: readonly string[], limit: number): UrlRecord[] {
    const marks = verdicts.map(() => '?').join(', ');
    return (
      this.#db
        .prepare(`SELECT * FROM urls WHERE verdict IN (${marks}) ORDER BY id LIMIT ?`)
        .all(...verdicts, limit) as RawRow[]
    ).map(toRecord);
  }

  /**
   * The listed pages, in discovery order (streamed from disk): `columns` only, by their SQL names;
   * `raw`: each as an array of them (no object a page: the sitemap's passes at a million pages).
   */
  listed<T = RawRow>(columns = '*', raw = false): Iterable<T> {
    const stmt = this.#db.prepare(`SELECT ${columns} FROM urls WHERE verdict = 'listed' ORDER BY id`);
    return (raw ? stmt.raw() : stmt).iterate() as Iterable<T>;
  }

  /** Pages linking to a URL (at most `limit`) and how many there are. */
  referrers(id: number, limit: number): { urls: string[]; total: number } {
    this.#links.merge();
    const urls = (
      this.#db
        .prepare(
          'SELECT u.url FROM links l JOIN urls u ON u.id = l.source WHERE l.target = ? ORDER BY l.source LIMIT ?',
        )
        .all(id, limit) as Array<{ url: string }>
    ).map((r) => r.url);
    return { urls, total: this.inlinkCount(id) };
  }

  /** Inbound link counts, for `urls.jsonl`. */
  inlinkCount(id: number): number {
    this.#links.merge();
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM links WHERE target = ?').get(id) as { n: number }).n;
  }

  /** A URL by its (normalised) address. */
  find(url: string): UrlRecord | undefined {
    const r = this.#db.prepare('SELECT * FROM urls WHERE url = ?').get(url) as RawRow | undefined;
    return r === undefined ? undefined : toRecord(r);
  }

  /** Lets other connections read it until closed, no other crawl let in (`shareDb`; `onStep`: tests). */
  share(onStep?: (step: ShareStep) => void): void {
    // The hand-over opens the journal files by name: those of whoever replaced this file, if so.
    this.#guard?.check();
    this.#commitBatch();
    // Every row in the log, counted or not: the reader sees only `links`, and must not merge.
    this.#links.merge(true);
    shareDb(this.#db, onStep);
    this.#shared = { onStep };
  }

  /** The identity of the file its crawl opened (none for a reader or in memory): state-guard.ts. */
  get identity(): FileIdentity | undefined {
    return this.#guard?.identity;
  }

  /** A read-only state over a second connection to a state {@link share}d by its crawl. */
  static async reader(path: string): Promise<CrawlState> {
    return new CrawlState(path, await openStateReader(path));
  }

  /** Checkpoints the WAL into the file and closes it (releasing the lock); a reader only closes. */
  close(): void {
    if (!this.#db.open) return;
    try {
      // A file deleted or replaced under its crawl gets nothing more: SQLite would write the
      // journal files at its path, which are another crawl's if it was replaced.
      if (this.#db.readonly || this.#guard?.look() !== undefined) return;
      this.#commitBatch();
      this.#links.merge();
      if (this.#shared !== undefined) endSharing(this.#db, this.#shared.onStep);
      this.#db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      this.#db.close();
    }
  }
}
