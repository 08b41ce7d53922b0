/**
 * Politeness shared by every worker of a crawl (issue 17): per host, the next allowed send time
 * and the delay between two sends (from the crawl's rate, or robots.txt's Crawl-delay when longer)
 * live in the `hosts` table, and a worker claims a send slot with one atomic statement (the row's
 * lock orders the claims of all workers), then waits until the slot's time before it sends. The
 * database's clock is the only clock, so workers on machines whose clocks differ keep the spacing.
 * Every claimed slot is logged in `sends` (what `crawl-status` and the tests read). A host with no
 * delay costs no round trip.
 *
 * With a host limit (`hostConcurrency` given), the requests in flight on a host are counted in the
 * `flights` table, per host and worker: a place is taken under the host's advisory lock only while
 * the live workers' places are fewer than the limit, and given back when the answer is in. A dead
 * worker's places stop counting when its heartbeat is older than its lease, as its claims do.
 */
import type { PgDb } from './frontier-postgres-db.js';
import type { SlotSource } from './scheduler.js';

/** The claimed slot, logged, and how long until it (ms; negative when it is already due). */
const CLAIM = `
WITH u AS (
  UPDATE hosts SET next_at = GREATEST(next_at, clock_timestamp())
    + make_interval(secs => GREATEST(delay_ms, COALESCE(crawl_delay_ms, 0)) / 1000.0)
  WHERE origin = $1
  RETURNING origin, next_at - make_interval(secs => GREATEST(delay_ms, COALESCE(crawl_delay_ms, 0)) / 1000.0) AS slot
)
INSERT INTO sends (origin, at, worker) SELECT origin, slot, $2 FROM u
RETURNING (extract(epoch FROM at - clock_timestamp()) * 1000)::float8 AS wait_ms`;

/** How long a worker waits before it asks again for a place on a full host (ms, first and last). */
const FULL_WAIT_MS = [10, 200] as const;

export class PostgresSlots implements SlotSource {
  readonly #db: PgDb;
  readonly #worker: string;
  readonly #delayMs: number;
  readonly #hostLimit: number | undefined;
  #flights: Promise<void> | undefined;
  readonly #sleep: (ms: number) => Promise<void>;
  /** Crawl-delays (ms) this worker applied, by origin. */
  readonly #crawlDelays = new Map<string, number>();
  /** Origins whose row exists (with this worker's delays written into it). */
  readonly #known = new Map<string, Promise<void>>();

  constructor(
    db: PgDb,
    o: {
      workerId: string;
      delayMs: number;
      /** Requests in flight on one host, all workers together; undefined: each worker's own limit only. */
      hostLimit?: number | undefined;
      sleep: (ms: number) => Promise<void>;
    },
  ) {
    this.#db = db;
    this.#worker = o.workerId;
    this.#delayMs = o.delayMs;
    this.#hostLimit = o.hostLimit;
    this.#sleep = o.sleep;
  }

  /** A robots.txt Crawl-delay for the host (every worker reads the same robots.txt, and the longest delay wins). */
  setCrawlDelay(origin: string, ms: number): void {
    if (ms <= 0 || (this.#crawlDelays.get(origin) ?? 0) >= ms) return;
    this.#crawlDelays.set(origin, ms);
    this.#known.delete(origin);
  }

  async claim(origin: string): Promise<void> {
    if (this.#hostLimit !== undefined) await this.#enter(origin, this.#hostLimit);
    try {
      await this.#claimSlot(origin);
    } catch (error) {
      await this.release(origin).catch(() => undefined);
      throw error;
    }
  }

  /** A rendered page's own request: a send slot in the spacing, no place on the host (its page holds one). */
  pace(origin: string): Promise<void> {
    return this.#claimSlot(origin);
  }

  /** Gives back the place on the host that `claim` took (the answer is in, or the request failed). */
  async release(origin: string): Promise<void> {
    if (this.#hostLimit === undefined) return;
    await this.#db.query(
      'give back a place on the host',
      'UPDATE flights SET n = n - 1 WHERE origin = $1 AND worker = $2 AND n > 0',
      [origin, this.#worker],
    );
  }

  async #enter(origin: string, limit: number): Promise<void> {
    this.#flights ??= this.#db.transaction('create the host flights table', async (c) => {
      // Workers start together: one creates the table, the others find it.
      await c.query("SELECT pg_advisory_xact_lock(hashtext(current_schema()), hashtext('flights'))");
      await c.query(
        'CREATE TABLE IF NOT EXISTS flights (origin text NOT NULL, worker text NOT NULL, n integer NOT NULL, PRIMARY KEY (origin, worker))',
      );
      // A worker id that ran before holds nothing now.
      await c.query('DELETE FROM flights WHERE worker = $1', [this.#worker]);
    });
    await this.#flights;
    for (let wait: number = FULL_WAIT_MS[0]; ; wait = Math.min(wait * 2, FULL_WAIT_MS[1])) {
      const entered = await this.#db.transaction('take a place on the host', async (c) => {
        await c.query('SELECT pg_advisory_xact_lock(hashtext(current_schema()), hashtext($1))', [origin]);
        // A statement after the lock: its snapshot sees every place taken or given back before.
        const r = await c.query(
          `INSERT INTO flights (origin, worker, n)
           SELECT $1, $2, 1 WHERE (
             SELECT COALESCE(sum(f.n), 0) FROM flights f JOIN workers w ON w.id = f.worker
             WHERE f.origin = $1 AND w.stopped_at IS NULL
               AND w.heartbeat > clock_timestamp() - make_interval(secs => w.lease_seconds)
           ) < $3
           ON CONFLICT (origin, worker) DO UPDATE SET n = flights.n + 1`,
          [origin, this.#worker, limit],
        );
        return (r.rowCount ?? 0) > 0;
      });
      if (entered) return;
      await this.#sleep(wait);
    }
  }

  async #claimSlot(origin: string): Promise<void> {
    if (this.#delayMs <= 0 && (this.#crawlDelays.get(origin) ?? 0) <= 0) return;
    let known = this.#known.get(origin);
    if (known === undefined) {
      known = this.#ensure(origin);
      this.#known.set(origin, known);
      known.catch(() => this.#known.delete(origin));
    }
    await known;
    const delay = Math.max(this.#delayMs, this.#crawlDelays.get(origin) ?? 0);
    for (;;) {
      const rows = await this.#db.query<{ wait_ms: number }>('claim a send slot', CLAIM, [
        origin,
        this.#worker,
      ]);
      const wait = rows[0]?.wait_ms ?? 0;
      const due = performance.now() + wait;
      if (wait > 0) await this.#sleep(Math.ceil(wait));
      // A process that woke up late (a loaded machine) would send into the next worker's slot:
      // its slot is let go and a new one claimed, so that sends keep the spacing, not just claims.
      if (performance.now() - due <= delay / 2) return;
    }
  }

  async #ensure(origin: string): Promise<void> {
    await this.#db.query(
      'record the host',
      `INSERT INTO hosts (origin, delay_ms, crawl_delay_ms) VALUES ($1, $2, $3)
       ON CONFLICT (origin) DO UPDATE SET delay_ms = GREATEST(hosts.delay_ms, excluded.delay_ms),
         crawl_delay_ms = GREATEST(hosts.crawl_delay_ms, excluded.crawl_delay_ms)`,
      [origin, this.#delayMs, this.#crawlDelays.get(origin) ?? null],
    );
  }
}
