/**
 * The workers of a shared crawl: each registers in `workers` and heartbeats, and each heartbeat
 * renews the claims it holds, so that a claim expires only when its worker stopped (killed, its
 * machine lost, its connection gone for longer than the lease). A worker that ends says how.
 */
import { hostname } from 'node:os';
import type { PgDb } from './frontier-postgres-db.js';
import type { ResolvedShared } from './frontier-postgres-options.js';

/** Registers the worker (again, when a worker of that id ran before). */
export async function registerWorker(db: PgDb, s: ResolvedShared): Promise<void> {
  await db.query(
    'register the worker',
    `INSERT INTO workers (id, host, pid, lease_seconds) VALUES ($1, $2, $3, $4)
     ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid, lease_seconds = excluded.lease_seconds,
       started_at = now(), heartbeat = now(), stopped_at = NULL, ended = NULL`,
    [s.workerId, hostname(), process.pid, Math.ceil(s.leaseSeconds)],
  );
}

/** The heartbeat: every third of the lease, the worker's row and its claims are renewed. */
export class Heartbeat {
  readonly #db: PgDb;
  readonly #s: ResolvedShared;
  readonly #timer: NodeJS.Timeout;
  #beating: Promise<void> | undefined;

  constructor(db: PgDb, s: ResolvedShared) {
    this.#db = db;
    this.#s = s;
    this.#timer = setInterval(() => this.#beat(), Math.max(200, (s.leaseSeconds * 1000) / 3));
    // The crawl's own work keeps the process alive; a heartbeat alone must not.
    this.#timer.unref();
  }

  #beat(): void {
    if (this.#beating !== undefined) return;
    const { workerId, leaseSeconds } = this.#s;
    // One connection, no retry: a missed beat is made up by the next one (a third of the lease later).
    this.#beating = this.#db.pool
      .query(
        `WITH w AS (UPDATE workers SET heartbeat = clock_timestamp() WHERE id = $1)
         UPDATE urls SET lease_until = clock_timestamp() + make_interval(secs => $2)
         WHERE state = 1 AND lease_owner = $1`,
        [workerId, leaseSeconds],
      )
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => {
        this.#beating = undefined;
      });
  }

  /** Stops beating and records how the worker ended (`done`, `aborted`, `failed`). */
  async stop(ended: string): Promise<void> {
    clearInterval(this.#timer);
    await this.#beating;
    // No retry: a worker that cannot sign off is taken for dead once its heartbeat is old.
    await this.#db.pool
      .query('UPDATE workers SET stopped_at = clock_timestamp(), ended = $2 WHERE id = $1', [
        this.#s.workerId,
        ended,
      ])
      .catch(() => undefined);
  }
}
