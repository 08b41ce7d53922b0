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
 * The network is injected (`fetch`, default `globalThis.fetch`), and so is the clock of the cache.
 */
import { SitemapkitError } from '../core/errors.js';
import type { RobotsMode } from './parse.js';
import { parseRobotsTxt, ROBOTS_MAX_BYTES, RobotsTxt } from './robots-txt.js';

/** The subset of WHATWG `fetch` the robots and submit modules use. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** `ok`: a file was read. `unavailable`: 4xx or too many redirects (allow all). `unreachable`: 5xx, 429 or a network failure (disallow all). */
export type RobotsFetchStatus = 'ok' | 'unavailable' | 'unreachable';

/** Options of {@link fetchRobotsTxt} and {@link RobotsCache}. */
export interface RobotsFetchOptions {
  /** The network. @default globalThis.fetch */
  fetch?: FetchLike;
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

async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array> {
  const body = response.body;
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
      // One byte past the cap is enough for the parser to know it was cut.
      if (total > maxBytes) break;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(Math.min(total, maxBytes + 1));
  let at = 0;
  for (const c of chunks) {
    const take = Math.min(c.length, out.length - at);
    out.set(c.subarray(0, take), at);
    at += take;
    if (at === out.length) break;
  }
  return out;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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
  const doFetch = options.fetch ?? (globalThis.fetch as FetchLike);
  const mode = options.mode ?? 'google';
  const maxRedirects = options.maxRedirects ?? 5;
  const maxBytes = options.maxBytes ?? ROBOTS_MAX_BYTES;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const headers: Record<string, string> = { accept: 'text/plain, */*;q=0.1' };
  if (options.userAgent !== undefined) headers['user-agent'] = options.userAgent;
  const redirects: string[] = [];
  const fetchedAt = now();
  const base = { url: target, redirects, fetchedAt };
  const unreachable = (
    why: string,
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
      status: 'unreachable',
      robots: RobotsTxt.disallowAll(`${target} is unreachable (${why}): everything is disallowed`, mode),
      finalUrl,
      error,
    };
    if (httpStatus !== undefined) r.httpStatus = httpStatus;
    return r;
  };
  const unavailable = (why: string, httpStatus: number | undefined, finalUrl: string): RobotsFetchResult => {
    const r: RobotsFetchResult = {
      ...base,
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

  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  let current = target;
  try {
    for (;;) {
      const response = await doFetch(current, { redirect: 'manual', headers, signal });
      const status = response.status;
      if (REDIRECTS.has(status)) {
        const location = response.headers.get('location');
        await response.body?.cancel().catch(() => undefined);
        if (location === null)
          return unavailable(`HTTP ${status} without a Location header`, status, current);
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          return unavailable(`HTTP ${status} to an invalid Location "${location}"`, status, current);
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          return unavailable(`HTTP ${status} to a non-http(s) Location "${location}"`, status, current);
        }
        if (redirects.length >= maxRedirects) {
          return unavailable(`more than ${maxRedirects} consecutive redirects`, status, current);
        }
        current = next.href;
        redirects.push(current);
        continue;
      }
      if (status >= 200 && status < 300) {
        const bytes = await readCapped(response, maxBytes);
        const robots = parseRobotsTxt(bytes, { mode, url: current, maxBytes });
        return { ...base, status: 'ok', robots, httpStatus: status, finalUrl: current };
      }
      await response.body?.cancel().catch(() => undefined);
      if (status === 429)
        return unreachable(
          'HTTP 429 Too Many Requests (treated like 5xx, as Google does)',
          status,
          undefined,
          current,
        );
      if (status >= 400 && status < 500) return unavailable(`HTTP ${status}`, status, current);
      if (status >= 500) return unreachable(`HTTP ${status}`, status, undefined, current);
      return unavailable(`unexpected HTTP ${status}`, status, current);
    }
  } catch (cause) {
    if (options.signal?.aborted === true) {
      throw new SitemapkitError('ERR_ABORTED', `fetching ${target} was aborted`, { cause, where: target });
    }
    if (timeout.aborted)
      return unreachable(`no complete answer within ${timeoutMs} ms`, undefined, cause, current);
    const e = cause as { message?: string; cause?: { code?: string; message?: string } };
    const detail = e.cause?.code ?? e.cause?.message ?? e.message ?? String(cause);
    return unreachable(`network error: ${detail}`, undefined, cause, current);
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

  /**
   * The cached outcome for the site of `url` while it is fresh, without fetching; undefined when
   * {@link get} would fetch. For callers that must decide synchronously (the crawler's loop).
   */
  peek(url: string): RobotsFetchResult | undefined {
    const slot = this.#slots.get(robotsTxtUrl(url));
    return slot !== undefined && (this.#options.now ?? Date.now)() < slot.expiresAt ? slot.result : undefined;
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
