/**
 * Fetching robots.txt with RFC 9309 §2.3–2.4 semantics, as a table with one row per outcome:
 *
 * | outcome                                   | status        | rules        |
 * |-------------------------------------------|---------------|--------------|
 * | 2xx                                       | `ok`          | the file     |
 * | 3xx, at most `maxRedirects` (5) in a row  | (followed)    | the target's, for the original authority |
 * | more redirects, or a 3xx without Location | `unavailable` | allow all    |
 * | 4xx except 429                            | `unavailable` | allow all    |
 * | 429 (as Google does), 5xx                 | `unreachable` | disallow all |
 * | timeout, DNS or connection error          | `unreachable` | disallow all |
 *
 * The network is the HTTP layer's client (or one made from `fetch` / `dispatcher`), and the clock
 * of the cache is injected.
 */
import type { Dispatcher } from 'undici';
import { SitemapkitError } from '../core/errors.js';
import type { AddressPolicy } from '../http/address.js';
import { HttpClient } from '../http/client.js';
import { HttpError } from '../http/errors.js';
import type { FetchLike } from '../http/types.js';
import type { RobotsMode } from './parse.js';
import { parseRobotsTxt, ROBOTS_MAX_BYTES, RobotsTxt } from './robots-txt.js';

/** The subset of WHATWG `fetch` sitemapkit calls (it lives in the HTTP layer now). */
export type { FetchLike } from '../http/types.js';

/** `ok`: a file was read. `unavailable`: 4xx or too many redirects (allow all). `unreachable`: 5xx, 429 or a network failure (disallow all). */
export type RobotsFetchStatus = 'ok' | 'unavailable' | 'unreachable';

/** Options of {@link fetchRobotsTxt} and {@link RobotsCache}. */
export interface RobotsFetchOptions {
  /** Your own fetch (it hides the connected address from the address policy). @default a keep-alive undici pool */
  fetch?: FetchLike;
  /** Your own undici `Dispatcher` instead of sitemapkit's pool. */
  dispatcher?: Dispatcher;
  /** See `ParseOptions.addressPolicy`. @default 'default' */
  addressPolicy?: AddressPolicy;
  /** A client shared with other calls; `fetch`, `dispatcher`, `userAgent` and `addressPolicy` are then its own. */
  httpClient?: HttpClient;
  /** Sent as the `User-Agent` header. */
  userAgent?: string;
  /** Parser mode. @default 'google' */
  mode?: RobotsMode;
  /** Per robots.txt fetch, body included. @default 10000 */
  timeoutMs?: number;
  /** Consecutive redirects followed (RFC 9309 §2.3.1.2: at least five). @default 5 */
  maxRedirects?: number;
  /** Bytes read and parsed; the rest is not downloaded. @default 512000 (500 KiB) */
  maxBytes?: number;
  /** Aborts the fetch; an abort throws `ERR_ABORTED` rather than counting as unreachable. */
  signal?: AbortSignal;
  /** Milliseconds since the epoch. @default Date.now */
  now?: () => number;
}

/** What fetching a site's robots.txt gave. */
export interface RobotsFetchResult {
  /** `scheme://host[:port]/robots.txt` of the original authority: the rules apply to it. */
  url: string;
  status: RobotsFetchStatus;
  /** The rules to obey: the file, or allow-all / disallow-all with the reason. */
  robots: RobotsTxt;
  /** The last HTTP status, when a response came. */
  httpStatus?: number;
  /** The URL the body came from (after redirects). */
  finalUrl: string;
  /** The redirect targets followed, in order. */
  redirects: string[];
  /** When it was fetched (ms since the epoch, by the injected clock). */
  fetchedAt: number;
  /** For `unavailable`/`unreachable`: what went wrong, as an error with a stable code. */
  error?: SitemapkitError;
  /** Set by {@link RobotsCache} when a failed refresh kept the previous rules (RFC 9309 §2.4). */
  stale?: true;
}

/** The robots.txt URL for any URL of a site: `scheme://host[:port]/robots.txt`. */
export function robotsTxtUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch (cause) {
    throw new SitemapkitError('ERR_OPTIONS', `"${url}" is not an absolute URL`, {
      cause,
      hint: 'give http(s)://host/…',
    });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new SitemapkitError('ERR_OPTIONS', `"${url}" is not an http(s) URL`, {
      hint: 'robots.txt exists only for http and https',
    });
  }
  return `${u.protocol}//${u.host}/robots.txt`;
}

/**
 * Fetches and parses the robots.txt of the site `url` belongs to. Never throws for what the
 * server does (that is the status table above); throws `ERR_OPTIONS` for a non-http(s) URL and
 * `ERR_ABORTED` when `signal` aborts.
 */
export async function fetchRobotsTxt(
  url: string,
  options: RobotsFetchOptions = {},
): Promise<RobotsFetchResult> {
  const target = robotsTxtUrl(url);
  const client =
    options.httpClient ??
    new HttpClient({
      fetch: options.fetch,
      dispatcher: options.dispatcher,
      userAgent: options.userAgent,
      addressPolicy: options.addressPolicy,
    });
  if (options.httpClient === undefined) client.start(target);
  try {
    return await fetchWith(client, target, options);
  } finally {
    if (options.httpClient === undefined) await client.close();
  }
}

async function fetchWith(
  client: HttpClient,
  target: string,
  options: RobotsFetchOptions,
): Promise<RobotsFetchResult> {
  const mode = options.mode ?? 'google';
  const maxRedirects = options.maxRedirects ?? 5;
  const maxBytes = options.maxBytes ?? ROBOTS_MAX_BYTES;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fetchedAt = now();
  const base = { url: target, fetchedAt };
  const unreachable = (
    why: string,
    redirects: string[],
    httpStatus?: number,
    cause?: unknown,
    finalUrl = target,
  ): RobotsFetchResult => {
    const error = new SitemapkitError('ERR_HTTP', `robots.txt unreachable: ${why}`, {
      where: finalUrl,
      cause,
      hint: 'RFC 9309 §2.3.1.4: crawlers must assume complete disallow until it can be fetched',
    });
    const r: RobotsFetchResult = {
      ...base,
      redirects,
      status: 'unreachable',
      robots: RobotsTxt.disallowAll(`${target} is unreachable (${why}): everything is disallowed`, mode),
      finalUrl,
      error,
    };
    if (httpStatus !== undefined) r.httpStatus = httpStatus;
    return r;
  };
  const unavailable = (
    why: string,
    redirects: string[],
    httpStatus: number | undefined,
    finalUrl: string,
  ): RobotsFetchResult => {
    const r: RobotsFetchResult = {
      ...base,
      redirects,
      status: 'unavailable',
      robots: RobotsTxt.allowAll(`${target} is unavailable (${why}): everything is allowed`, mode),
      finalUrl,
      error: new SitemapkitError('ERR_HTTP', `robots.txt unavailable: ${why}`, {
        where: finalUrl,
        hint: 'RFC 9309 §2.3.1.3: crawlers may access any resource',
      }),
    };
    if (httpStatus !== undefined) r.httpStatus = httpStatus;
    return r;
  };

  try {
    const response = await client.request(target, {
      headers: { accept: 'text/plain, */*;q=0.1' },
      timeoutMs,
      maxRedirects,
      // One byte past the cap is enough for the parser to know it was cut.
      maxBytes: maxBytes + 1,
      overflow: 'truncate',
      signal: options.signal,
    });
    const { status, url: current, redirects } = response;
    if (status >= 200 && status < 300) {
      const bytes = await response.bytes();
      const robots = parseRobotsTxt(bytes, { mode, url: current, maxBytes });
      return { ...base, redirects, status: 'ok', robots, httpStatus: status, finalUrl: current };
    }
    response.cancel();
    if (status === 429)
      return unreachable(
        'HTTP 429 Too Many Requests (treated like 5xx, as Google does)',
        redirects,
        status,
        undefined,
        current,
      );
    if (status >= 400 && status < 500) return unavailable(`HTTP ${status}`, redirects, status, current);
    if (status >= 500) return unreachable(`HTTP ${status}`, redirects, status, undefined, current);
    return unavailable(`unexpected HTTP ${status}`, redirects, status, current);
  } catch (cause) {
    if (!(cause instanceof HttpError)) throw cause;
    const at = cause.where ?? target;
    const redirects = [...cause.redirects];
    switch (cause.reason) {
      case 'aborted':
        throw new SitemapkitError('ERR_ABORTED', `fetching ${target} was aborted`, { cause, where: target });
      case 'too-many-redirects':
        return unavailable(`more than ${maxRedirects} consecutive redirects`, redirects, cause.status, at);
      case 'redirect-loop':
      case 'bad-redirect':
        return unavailable(cause.message, redirects, cause.status, at);
      case 'bad-scheme':
        if (cause.status !== undefined) return unavailable(cause.message, redirects, cause.status, at);
        return unreachable(cause.message, redirects, undefined, cause, at);
      case 'timeout':
        return unreachable(`no complete answer within ${timeoutMs} ms`, redirects, undefined, cause, at);
      default:
        return unreachable(cause.message, redirects, undefined, cause, at);
    }
  }
}

/** Options of {@link RobotsCache}: the fetch options plus lifetimes. */
export interface RobotsCacheOptions extends RobotsFetchOptions {
  /** How long a fetched robots.txt is used (RFC 9309 §2.4: not more than 24 h). @default 86400000 */
  maxAgeMs?: number;
  /** How long an `unreachable` outcome is kept before trying again. @default 300000 (5 min) */
  unreachableTtlMs?: number;
  /**
   * When a refresh finds the file unreachable, the previous `ok` copy keeps being used while it is
   * younger than this (RFC 9309 §2.4 permits it; §2.3.1.4 suggests 30 days).
   * @default 2592000000 (30 days)
   */
  staleIfUnreachableMs?: number;
}

interface Slot {
  result: RobotsFetchResult;
  expiresAt: number;
  lastOk: RobotsFetchResult | undefined;
}

/**
 * robots.txt per authority, fetched once and reused for at most `maxAgeMs`. Concurrent lookups of
 * one site share one fetch. The clock is injectable (`now`), so lifetimes are testable.
 */
export class RobotsCache {
  readonly #options: RobotsCacheOptions;
  readonly #slots = new Map<string, Slot>();
  readonly #pending = new Map<string, Promise<RobotsFetchResult>>();

  constructor(options: RobotsCacheOptions = {}) {
    this.#options = { ...options };
  }

  /** The robots.txt outcome for the site of `url`, from the cache while it is fresh. */
  async get(url: string): Promise<RobotsFetchResult> {
    const key = robotsTxtUrl(url);
    const now = (this.#options.now ?? Date.now)();
    const slot = this.#slots.get(key);
    if (slot !== undefined && now < slot.expiresAt) return slot.result;
    const pending = this.#pending.get(key);
    if (pending !== undefined) return pending;
    const p = this.#refresh(key, slot).finally(() => this.#pending.delete(key));
    this.#pending.set(key, p);
    return p;
  }

  /** Whether `userAgent` may fetch `url`, by the site's robots.txt. */
  async isAllowed(url: string, userAgent: string): Promise<boolean> {
    return (await this.get(url)).robots.isAllowed(url, userAgent);
  }

  /** Forgets every entry. */
  clear(): void {
    this.#slots.clear();
  }

  async #refresh(key: string, previous: Slot | undefined): Promise<RobotsFetchResult> {
    const o = this.#options;
    const now = o.now ?? Date.now;
    const maxAge = Math.min(o.maxAgeMs ?? 86_400_000, 86_400_000);
    let result = await fetchRobotsTxt(key, o);
    let lastOk = result.status === 'ok' ? result : previous?.lastOk;
    let ttl = maxAge;
    if (result.status === 'unreachable') {
      ttl = o.unreachableTtlMs ?? 300_000;
      const keep = o.staleIfUnreachableMs ?? 2_592_000_000;
      if (lastOk !== undefined && result.fetchedAt - lastOk.fetchedAt < keep) {
        result = { ...lastOk, stale: true };
      } else {
        lastOk = undefined;
      }
    }
    this.#slots.set(key, { result, expiresAt: now() + ttl, lastOk });
    return result;
  }
}
