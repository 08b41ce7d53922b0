/**
 * What the search engines' clients (IndexNow, Bing Webmaster, Google Search Console) share: the
 * options of their HTTP client, retries and clock, resolved once in one place, so that the three
 * read and check them alike (same names, same defaults, same sentences for a bad value).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { wholeNumber } from '../core/checks.js';
import type { AddressPolicy } from '../http/address.js';
import { HttpClient } from '../http/client.js';
import type { RetryPolicy } from '../http/retry.js';
import type { FetchLike } from '../http/types.js';

/** The HTTP, retry and clock options of every search engine client. */
export interface ApiHttpOptions {
  /** Your own fetch (proxies, test doubles). @default a keep-alive undici pool */
  fetch?: FetchLike;
  /** Your own undici `Dispatcher` instead of sitemapkit's pool. */
  dispatcher?: Dispatcher;
  /** See `ParseOptions.addressPolicy`; the API's endpoints count as starts. @default 'default' */
  addressPolicy?: AddressPolicy;
  /** @default DEFAULT_USER_AGENT */
  userAgent?: string;
  /** Waits between retries. @default timers/promises setTimeout */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds since the epoch, for HTTP-date `Retry-After`. @default Date.now */
  now?: () => number;
  /** Retries of one request after 429, 5xx or a network error. @default 5 */
  retries?: number;
  /** First backoff; doubled on each retry. @default 1000 */
  backoffMs?: number;
  /** Longest backoff between two tries. @default 60000 */
  maxBackoffMs?: number;
  /** A `Retry-After` longer than this gives up instead of waiting. @default 3600000 (1 h) */
  maxRetryAfterMs?: number;
  /** Per request. @default 30000 */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The resolved options: the client (its endpoints to be given as starts), retries and clock. */
export interface ApiHttp {
  client: HttpClient;
  timeoutMs: number;
  policy: RetryPolicy;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  signal: AbortSignal | undefined;
}

/**
 * Checks and completes `options` (`ERR_OPTIONS` naming a bad one) and opens the HTTP client:
 * 429 and every 5xx are worth another try and their `Retry-After` is read, as all three APIs
 * document. `maxRetryAfterMs` is the default of the longest `Retry-After` waited for.
 */
export function apiHttp(options: ApiHttpOptions, defaults: { maxRetryAfterMs: number }): ApiHttp {
  const ms = (name: 'backoffMs' | 'maxBackoffMs' | 'maxRetryAfterMs', fallback: number): number =>
    wholeNumber(name, options[name], fallback);
  const policy: RetryPolicy = {
    retries: wholeNumber('retries', options.retries, 5),
    baseMs: ms('backoffMs', 1000),
    maxMs: ms('maxBackoffMs', 60_000),
    maxRetryAfterMs: ms('maxRetryAfterMs', defaults.maxRetryAfterMs),
    statuses: (s) => s === 429 || s >= 500,
    retryAfterStatuses: (s) => s === 429 || s >= 500,
  };
  const timeoutMs = wholeNumber('timeoutMs', options.timeoutMs, 30_000, { min: 1 });
  return {
    client: new HttpClient({
      fetch: options.fetch,
      dispatcher: options.dispatcher,
      userAgent: options.userAgent,
      addressPolicy: options.addressPolicy,
    }),
    timeoutMs,
    policy,
    sleep:
      options.sleep ??
      ((ms: number, signal?: AbortSignal) => delay(ms, undefined, signal === undefined ? {} : { signal })),
    now: options.now ?? Date.now,
    signal: options.signal,
  };
}
