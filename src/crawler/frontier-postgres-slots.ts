/**
 * Politeness shared by every worker of a crawl (issue 17): per host, the next allowed send time
 * and the delay between two sends (from the crawl's rate, or robots.txt's Crawl-delay when longer)
 * live in the `hosts` table, and a worker claims a send slot with one atomic statement (the row's
 * lock orders the claims of all workers), then waits until the slot's time before it sends. The
 * database's clock is the only clock, so workers on machines whose clocks differ keep the spacing.
 * Every claimed slot is logged in `sends` (what `crawl-status` and the tests read). A host with no
 * delay costs no round trip.
 *
 * With a host limit (`hostConcurrency` given), each request in flight on a host is a row of the
 * `places` table, named by a token the worker picks before its first try: a place is taken under
 * the host's advisory lock only while the live workers' places are fewer than the limit, and
 * given back (its row deleted) when the answer is in. Both are idempotent, so the retry of a
 * statement whose answer was lost (it took effect, then the connection dropped) neither takes a
 * second place (with a limit of 1 the host would stall for every worker) nor gives back another
 * request's. A dead worker's places stop counting when its heartbeat is older than its lease, as
 * its claims do; a worker id that starts again clears its old rows.
 *
 * A send slot's claim is named by a token (a uuid) the worker picks before its first try, stored
 * with the slot in `sends`: when the answer to a claim is lost (it committed, then the connection
 * dropped), the retry finds its token's row and waits for that slot rather than claiming another
 * (a second claim would move the host's next slot one delay further: the host would wait twice
 * the configured delay).
 */
import { randomUUID } from 'node:crypto';
import type { PgStep } from './frontier-postgres.js';
import type { PgDb } from './frontier-postgres-db.js';
import type { SlotSource } from './scheduler.js';

/** The claimed slot, logged with its token, and how long until it (ms; negative when it is already due). */
const CLAIM = `
WITH u AS (
  UPDATE hosts SET next_at = GREATEST(next_at, clock_timestamp())
    + make_interval(secs => GREATEST(delay_ms, COALESCE(crawl_delay_ms, 0)) / 1000.0)
  WHERE origin = $1
  RETURNING origin, next_at - make_interval(secs => GREATEST(delay_ms, COALESCE(crawl_delay_ms, 0)) / 1000.0) AS slot
)
INSERT INTO sends (origin, at, worker, token) SELECT origin, slot, $2, $3 FROM u
RETURNING (extract(epoch FROM at - clock_timestamp()) * 1000)::float8 AS wait_ms`;

/** A claim's slot when its token's row exists (the try whose answer was lost committed it). */
const HELD = `SELECT (extract(epoch FROM at - clock_timestamp()) * 1000)::float8 AS wait_ms
FROM sends WHERE token = $1`;

/** How long a worker waits before it asks again for a place on a full host (ms, first and last). */
const FULL_WAIT_MS = [10, 200] as const;

export class PostgresSlots implements SlotSource {
  readonly #db: PgDb;
  readonly #worker: string;
  readonly #delayMs: number;
  readonly #hostLimit: number | undefined;
  #places: Promise<void> | undefined;
  /** The last token picked for a place (unique for this worker id, whose old rows are cleared). */
  #token = 0;
  /** The tokens of the places this worker holds, by origin (any of them frees a place on it). */
  readonly #held = new Map<string, number[]>();
  readonly #sleep: (ms: number) => Promise<void>;
  readonly #onStep: ((step: PgStep, urls: readonly string[]) => void | Promise<void>) | undefined;
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
      /** Fault injection and tests: called when a slot is due and its request goes out next. */
      onStep?: ((step: PgStep, urls: readonly string[]) => void | Promise<void>) | undefined;
    },
  ) {
    this.#db = db;
    this.#worker = o.workerId;
    this.#delayMs = o.delayMs;
    this.#hostLimit = o.hostLimit;
    this.#sleep = o.sleep;
    this.#onStep = o.onStep;
  }

  /** A robots.txt Crawl-delay for the host (every worker reads the same robots.txt, and the longest delay wins). */
  setCrawlDelay(origin: string, ms: number): void {
    if (ms <= 0 || (this.#crawlDelays.get(origin) ?? 0) >= ms) return;
    this.#crawlDelays.set(origin, ms);
    this.#known.delete(origin);
  }

  async claim(origin: string): Promise<void> {
    if (this.#hostLimit !== undefined) {
      const token = ++this.#token;
      await this.#enter(origin, this.#hostLimit, token);
      const held = this.#held.get(origin);
      if (held === undefined) this.#held.set(origin, [token]);
      else held.push(token);
    }
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
    // The token leaves this worker's list before the first try: a retry deletes the same row.
    const token = this.#held.get(origin)?.pop();
    if (token === undefined) return;
    await this.#db.with('give back a place on the host', (c) =>
      c.query({
        name: 'sk_give_back',
        text: 'DELETE FROM places WHERE worker = $1 AND token = $2',
        values: [this.#worker, token],
      }),
    );
  }

  async #enter(origin: string, limit: number, token: number): Promise<void> {
    // A worker id that ran before holds nothing now (its tokens start again at 1).
    this.#places ??= this.#db
      .query('clear the host places of this worker id', 'DELETE FROM places WHERE worker = $1', [
        this.#worker,
      ])
      .then(() => undefined);
    await this.#places;
    for (let wait: number = FULL_WAIT_MS[0]; ; wait = Math.min(wait * 2, FULL_WAIT_MS[1])) {
      let tries = 0;
      const entered = await this.#db.transaction('take a place on the host', async (c) => {
        await c.query('SELECT pg_advisory_xact_lock(hashtext(current_schema()), hashtext($1))', [origin]);
        // A retry: the try before may have committed with its answer lost, and then the place is ours.
        if (tries++ > 0) {
          const had = await c.query({
            name: 'sk_place_held',
            text: 'SELECT 1 FROM places WHERE worker = $1 AND token = $2',
            values: [this.#worker, token],
          });
          if ((had.rowCount ?? 0) > 0) return true;
        }
        // A statement after the lock: its snapshot sees every place taken or given back before.
        const r = await c.query({
          name: 'sk_take_place',
          text: `INSERT INTO places (worker, token, origin)
           SELECT $2, $3, $1 WHERE (
             SELECT count(*) FROM places p JOIN workers w ON w.id = p.worker
             WHERE p.origin = $1 AND w.stopped_at IS NULL
               AND w.heartbeat > clock_timestamp() - make_interval(secs => w.lease_seconds)
           ) < $4
           ON CONFLICT (worker, token) DO NOTHING`,
          values: [origin, this.#worker, token, limit],
        });
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
      const wait = await this.#claimOnce(origin);
      const due = performance.now() + wait;
      if (wait > 0) await this.#sleep(Math.ceil(wait));
      // A process that woke up more than half a delay late (a loaded machine) would send into the
      // next worker's slot: it sends in none of its late slot and claims a new one, at the end of
      // the host's queue, so that each send goes out within half a delay after a slot of its own.
      // The late slot is not given back: its row stays in `sends` (a slot no request used) and the
      // host's next slot stays one delay past it, so the host may idle up to one delay. Moving
      // `next_at` back is safe only as a compare-and-set that fails once any worker claimed after
      // the late slot (the usual case on a host several workers share), and on success it would
      // give back less than half a delay, for one more round trip and its `sends` row deleted.
      if (performance.now() - due <= delay / 2) {
        await this.#onStep?.('pg:slot-due', [origin]);
        return;
      }
    }
  }

  /** One slot, claimed exactly once however often the statement is tried; ms until it. */
  async #claimOnce(origin: string): Promise<number> {
    // Picked before the first try: every retry names the same claim.
    const token = randomUUID();
    let tries = 0;
    return this.#db.with('claim a send slot', async (c) => {
      if (tries++ > 0) {
        const had = await c.query<{ wait_ms: number }>({ name: 'sk_send_held', text: HELD, values: [token] });
        if (had.rows[0] !== undefined) return had.rows[0].wait_ms;
      }
      const r = await c.query<{ wait_ms: number }>({
        name: 'sk_claim_send',
        text: CLAIM,
        values: [origin, this.#worker, token],
      });
      return r.rows[0]?.wait_ms ?? 0;
    });
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
