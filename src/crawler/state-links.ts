/**
 * The link graph's writes, staged. Every page adds a row to `links (target, source)` for each URL
 * it names, and that table is ordered by target: the navigation every page repeats lands in as
 * many different B-tree pages as it has links, each written to the WAL again at every commit (the
 * loop commits every few pages). Rows go first to `link_log`, a plain append-only table (one or
 * two pages a commit, durable with the page that found them), and move to `links` in one sorted
 * `INSERT … SELECT` every {@link MERGE_ROWS} rows, when the state is opened or closed, and before
 * anything reads the links: each hot page of `links` is then written once per merge, not once per
 * commit. Same rows in the end (`INSERT OR IGNORE`: a pair once).
 */
import type BetterSqlite3 from 'better-sqlite3';

/** Rows staged before they are merged (about 1,600 pages of 31 links). */
const MERGE_ROWS = 50_000;

export class LinkLog {
  readonly #add: BetterSqlite3.Statement;
  readonly #merge: BetterSqlite3.Statement;
  readonly #clear: BetterSqlite3.Statement;
  #staged: number;

  constructor(db: BetterSqlite3.Database) {
    this.#add = db.prepare('INSERT INTO link_log (target, source) VALUES (?, ?)');
    this.#merge = db.prepare(
      'INSERT OR IGNORE INTO links (target, source) SELECT target, source FROM link_log ORDER BY target, source',
    );
    this.#clear = db.prepare('DELETE FROM link_log');
    // A run killed before its merge left rows: they count as staged until the next merge. A reader
    // (the report's thread) cannot merge them: the crawl that shared the state merged them all.
    this.#staged = db.readonly
      ? 0
      : (db.prepare('SELECT COUNT(*) AS n FROM link_log').get() as { n: number }).n;
  }

  /** Stages a link (inside the page's transaction). */
  add(target: number, source: number): void {
    this.#add.run(target, source);
    this.#staged++;
  }

  /** Whether enough rows are staged for a merge to pay (the loop merges inside its batch). */
  get full(): boolean {
    return this.#staged >= MERGE_ROWS;
  }

  /**
   * Moves the staged rows into `links` (call inside a transaction, or alone: it is two statements).
   * `all`: even when none are counted (a state shared with a reader, which cannot merge them).
   */
  merge(all = false): void {
    if (this.#staged === 0 && !all) return;
    this.#merge.run();
    this.#clear.run();
    this.#staged = 0;
  }
}
