/**
 * The SQLite side of the lastmod policy (store/lastmods.ts): the live URLs' input lastmods in an
 * index by time, then text, whose two ends decide the verdict, so that a build does not read every
 * row of the table for it. Apart from sqlite.ts, which delegates to it.
 */
import type BetterSqlite3 from 'better-sqlite3';

// Partial, so a set without input lastmods pays nothing for it. Added after the first release of
// the format: created on open when missing (a store made before gets it when next opened).
export const LASTMODS =
  'CREATE INDEX IF NOT EXISTS urls_lastmods ON urls (julianday(input_lastmod), input_lastmod) WHERE file IS NOT NULL AND input_lastmod IS NOT NULL;';

const ENDS = (from: string): string =>
  `SELECT x, abs(julianday(x) - @jd) * 86400000.0 <= @near AS near FROM (
     SELECT * FROM (SELECT input_lastmod AS x FROM ${from}
       WHERE file IS NOT NULL AND input_lastmod IS NOT NULL
       ORDER BY julianday(input_lastmod), input_lastmod LIMIT 1)
     UNION ALL
     SELECT * FROM (SELECT input_lastmod AS x FROM ${from}
       WHERE file IS NOT NULL AND input_lastmod IS NOT NULL
       ORDER BY julianday(input_lastmod) DESC, input_lastmod DESC LIMIT 1))`;
const COUNT = (from: string): string =>
  `SELECT count(*) AS count, min(input_lastmod) AS first FROM ${from}
   WHERE file IS NOT NULL AND input_lastmod IS NOT NULL`;

export class SqliteLastmods {
  readonly #db: BetterSqlite3.Database;
  readonly #has: BetterSqlite3.Statement;
  /** Through the index (the planner would scan the table for the count without being told). */
  #indexed: { ends: BetterSqlite3.Statement; count: BetterSqlite3.Statement } | undefined;
  #scan: { ends: BetterSqlite3.Statement; count: BetterSqlite3.Statement } | undefined;

  constructor(db: BetterSqlite3.Database) {
    this.#db = db;
    this.#has = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'urls_lastmods'");
  }

  /**
   * The statements for now: a first build whose bulk load has dropped the indexes (the worker
   * thread builds them while the files are written) asks before they are back, and a statement
   * naming a missing index fails; it then reads the table, as a build did before the index.
   */
  #statements(): { ends: BetterSqlite3.Statement; count: BetterSqlite3.Statement } {
    if (this.#has.get() !== undefined) {
      this.#indexed ??= {
        ends: this.#db.prepare(ENDS('urls INDEXED BY urls_lastmods')),
        count: this.#db.prepare(COUNT('urls INDEXED BY urls_lastmods')),
      };
      return this.#indexed;
    }
    this.#scan ??= { ends: this.#db.prepare(ENDS('urls')), count: this.#db.prepare(COUNT('urls')) };
    return this.#scan;
  }

  /**
   * All texts are one when the lowest and the highest entry share theirs (one text has one time);
   * all times lie near the build's when both ends do (the distance grows away from it on either
   * side) and neither has none. Neither: no verdict, and the count (a walk of the index) is skipped.
   */
  judge(
    buildMs: number,
    nearMs: number,
  ): { count: number; first: string | null; same: boolean; near: boolean } {
    const st = this.#statements();
    const [low, high] = st.ends.all({ jd: buildMs / 86_400_000 + 2_440_587.5, near: nearMs }) as Array<{
      x: string;
      near: number | null;
    }>;
    if (low === undefined || high === undefined) return { count: 0, first: null, same: false, near: false };
    const same = low.x === high.x;
    const near = low.near === 1 && high.near === 1;
    if (!same && !near) return { count: 0, first: low.x, same, near };
    const r = st.count.get() as { count: number; first: string };
    return { count: r.count, first: r.first, same, near };
  }
}
