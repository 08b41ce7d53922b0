/**
 * robots.txt fetched once per host per cache period for a whole shared crawl (issue 17), not once
 * per worker: the first worker to need a host's file claims its fetch in the `robots` table (the
 * claim expires, so a worker killed while fetching does not block the others), fetches it through
 * the crawl's own client, and stores the text with its fetch time, status and expiry; the other
 * workers wait for that row and parse the same text. An unreachable robots.txt is not shared: each
 * worker keeps its own short-lived "disallow everything" and asks again later, as a crawl of one
 * process does.
 */
import { SitemapkitError } from '../core/errors.js';
import {
  fetchRobotsTxt,
  RobotsCache,
  type RobotsCacheOptions,
  type RobotsFetchResult,
  robotsTxtUrl,
} from '../robots/fetch.js';
import { parseRobotsTxt, RobotsTxt } from '../robots/robots-txt.js';
import type { PgDb } from './frontier-postgres-db.js';

/** How long a worker may take to fetch a host's robots.txt before another may try. */
const FETCH_CLAIM_SECONDS = 60;
/** How often a worker looks for the file another worker is fetching. */
const WAIT_MS = 100;

type Row = {
  status: 'ok' | 'unavailable';
  http_status: number | null;
  body: string | null;
  final_url: string;
  redirects: string;
  error: string | null;
  fetched_ms: number;
  left_ms: number;
};

export class SharedRobotsCache extends RobotsCache {
  readonly #db: PgDb;
  readonly #worker: string;
  readonly #o: RobotsCacheOptions;
  readonly #local = new Map<string, { result: RobotsFetchResult; expiresAt: number }>();
  readonly #pending = new Map<string, Promise<RobotsFetchResult>>();
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(
    db: PgDb,
    o: { workerId: string; sleep: (ms: number) => Promise<void> },
    options: RobotsCacheOptions,
  ) {
    super(options);
    this.#db = db;
    this.#worker = o.workerId;
    this.#sleep = o.sleep;
    this.#o = { ...options };
  }

  #now(): number {
    return (this.#o.now ?? Date.now)();
  }

  override peek(url: string): RobotsFetchResult | undefined {
    const slot = this.#local.get(robotsTxtUrl(url));
    return slot !== undefined && this.#now() < slot.expiresAt ? slot.result : undefined;
  }

  override async get(url: string): Promise<RobotsFetchResult> {
    const key = robotsTxtUrl(url);
    const fresh = this.peek(key);
    if (fresh !== undefined) return fresh;
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const p = this.#load(key).finally(() => this.#pending.delete(key));
    this.#pending.set(key, p);
    return p;
  }

  async #load(key: string): Promise<RobotsFetchResult> {
    const maxAge = Math.min(this.#o.maxAgeMs ?? 86_400_000, 86_400_000);
    for (;;) {
      const rows = await this.#db.query<Row>(
        'read robots.txt',
        `SELECT status, http_status, body, final_url, redirects, error,
           (extract(epoch FROM fetched_at) * 1000)::float8 AS fetched_ms,
           (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS left_ms
         FROM robots WHERE origin = $1 AND expires_at > clock_timestamp()`,
        [key],
      );
      if (rows[0] !== undefined) {
        const result = this.#rebuild(key, rows[0]);
        this.#local.set(key, { result, expiresAt: this.#now() + rows[0].left_ms });
        return result;
      }
      const claimed = await this.#db.query(
        'claim the robots.txt fetch',
        `INSERT INTO robots (origin, fetched_at, expires_at, status, final_url, redirects, fetching_by, fetching_until)
         VALUES ($1, '-infinity', '-infinity', 'none', $1, '[]', $2, clock_timestamp() + make_interval(secs => $3))
         ON CONFLICT (origin) DO UPDATE SET fetching_by = excluded.fetching_by, fetching_until = excluded.fetching_until
         WHERE robots.expires_at <= clock_timestamp()
           AND (robots.fetching_until IS NULL OR robots.fetching_until < clock_timestamp())
         RETURNING origin`,
        [key, this.#worker, FETCH_CLAIM_SECONDS],
      );
      if (claimed.length === 0) {
        // Another worker is fetching it.
        await this.#sleep(WAIT_MS);
        continue;
      }
      const result = await fetchRobotsTxt(key, this.#o);
      if (result.status === 'unreachable') {
        await this.#db.query(
          'release the robots.txt fetch',
          'UPDATE robots SET fetching_by = NULL, fetching_until = NULL WHERE origin = $1',
          [key],
        );
        this.#local.set(key, { result, expiresAt: this.#now() + (this.#o.unreachableTtlMs ?? 300_000) });
        return result;
      }
      await this.#db.query(
        'store robots.txt',
        `UPDATE robots SET fetched_at = to_timestamp($2 / 1000.0), expires_at = clock_timestamp() + make_interval(secs => $3 / 1000.0),
           status = $4, http_status = $5, body = $6, final_url = $7, redirects = $8, error = $9,
           fetching_by = NULL, fetching_until = NULL
         WHERE origin = $1`,
        [
          key,
          result.fetchedAt,
          maxAge,
          result.status,
          result.httpStatus ?? null,
          result.status === 'ok' ? result.robots.lines.map((l) => l.text).join('\n') : null,
          result.finalUrl,
          JSON.stringify(result.redirects),
          result.error?.message ?? null,
        ],
      );
      this.#local.set(key, { result, expiresAt: this.#now() + maxAge });
      return result;
    }
  }

  /** The stored outcome as the fetch gave it: the same text parsed, or the same allow-all. */
  #rebuild(key: string, r: Row): RobotsFetchResult {
    const mode = this.#o.mode ?? 'google';
    const base = {
      url: key,
      finalUrl: r.final_url,
      redirects: JSON.parse(r.redirects) as string[],
      fetchedAt: r.fetched_ms,
    };
    const result: RobotsFetchResult =
      r.status === 'ok'
        ? { ...base, status: 'ok', robots: parseRobotsTxt(r.body ?? '', { mode, url: r.final_url }) }
        : {
            ...base,
            status: 'unavailable',
            robots: RobotsTxt.allowAll(`${key} is unavailable: everything is allowed`, mode),
            error: new SitemapkitError('ERR_HTTP', r.error ?? 'robots.txt unavailable', {
              where: r.final_url,
              hint: 'RFC 9309 §2.3.1.3: crawlers may access any resource',
            }),
          };
    if (r.http_status !== null) result.httpStatus = r.http_status;
    return result;
  }
}
