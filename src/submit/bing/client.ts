/**
 * The Bing Webmaster API over the shared HTTP layer: one client per run, every call retried by the
 * HTTP layer's retry policy (429, 5xx and Bing's throttle faults; `Retry-After` honoured up to a
 * limit). The API key is sent in the query, as Bing documents, and redacted from every error.
 */
import { SitemapkitError } from '../../core/errors.js';
import type { HttpClient } from '../../http/client.js';
import { HttpError } from '../../http/errors.js';
import { decideRetry, type RetryPolicy } from '../../http/retry.js';
import { type ApiHttpOptions, apiHttp } from '../api-http.js';
import {
  BingError,
  type BingFeed,
  type BingQuota,
  type BingRequest,
  bingApiRoot,
  bingRequest,
  bingSiteUrl,
  faultOf,
  readFeeds,
  readQuota,
  redactKey,
  redactUrl,
  unwrap,
} from './api.js';

/** Options of the Bing Webmaster client (one bag for every Bing call). */
export interface BingOptions extends ApiHttpOptions {
  /** The site as listed in Bing Webmaster Tools, e.g. `https://www.example.com/`. */
  siteUrl: string;
  /** The API key of Bing Webmaster Tools (Settings > API access). The CLI reads `BING_WEBMASTER_API_KEY` too. */
  apiKey: string;
  /** @default BING_API_ROOT (`https://ssl.bing.com/webmaster/api.svc/json/`) */
  apiRoot?: string;
  /** Retries of one call after 429, 5xx, a throttle fault or a network error. @default 5 */
  retries?: number;
}

/** One call's outcome: the `d` of the answer, and how many attempts it took. */
export interface BingCall {
  d: unknown;
  attempts: number;
  status: number;
}

/** A Bing Webmaster API client for one site. Close it when done. */
export class BingClient {
  readonly siteUrl: string;
  readonly apiRoot: string;
  readonly #key: string;
  readonly #http: HttpClient;
  readonly #policy: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #now: () => number;
  readonly #signal: AbortSignal | undefined;

  constructor(options: BingOptions) {
    if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') {
      throw new SitemapkitError('ERR_OPTIONS', 'no Bing Webmaster API key given', {
        hint: 'pass apiKey (CLI: --api-key KEY or BING_WEBMASTER_API_KEY)',
      });
    }
    this.#key = options.apiKey.trim();
    this.siteUrl = bingSiteUrl(options.siteUrl);
    this.apiRoot = bingApiRoot(options.apiRoot);
    const http = apiHttp(options, { maxRetryAfterMs: 3_600_000 });
    this.#timeoutMs = http.timeoutMs;
    this.#policy = http.policy;
    this.#sleep = http.sleep;
    this.#now = http.now;
    this.#signal = http.signal;
    this.#http = http.client;
    this.#http.start(this.apiRoot);
  }

  // A method, not an inline test: TypeScript would keep a narrowing of `aborted` across awaits.
  #aborted(): boolean {
    return this.#signal?.aborted === true;
  }

  /** The request for `name`, built exactly as {@link call} sends it (the key in its URL). */
  request(name: string, params: Record<string, string>, body?: Record<string, unknown>): BingRequest {
    return bingRequest(this.apiRoot, this.#key, name, params, body);
  }

  /** A request as it may be shown: the key redacted. */
  shown(r: BingRequest): BingRequest {
    return { ...r, url: redactUrl(r.url) };
  }

  /** Sends one request, retrying as the policy says. Throws {@link BingError} or `ERR_ABORTED`. */
  async call(r: BingRequest): Promise<BingCall> {
    const where = redactUrl(r.url);
    let attempts = 0;
    for (;;) {
      if (this.#aborted()) throw aborted(where);
      attempts++;
      let status: number | undefined;
      let retryAfter: string | null = null;
      let failure: BingError;
      try {
        const res = await this.#http.request(r.url, {
          method: r.method,
          headers: { 'content-type': 'application/json; charset=utf-8', accept: 'application/json' },
          ...(r.body === undefined ? {} : { body: r.body }),
          timeoutMs: this.#timeoutMs,
          maxBytes: 16 * 1024 * 1024,
          signal: this.#signal,
        });
        status = res.status;
        const text = await res.text();
        if (status >= 200 && status < 300) return { d: unwrap(text, where, status), attempts, status };
        failure = faultOf(status, text, where, this.#key);
        retryAfter = res.headers.get('retry-after');
      } catch (cause) {
        if (cause instanceof BingError) throw cause;
        if (this.#aborted() || (cause instanceof HttpError && cause.reason === 'aborted'))
          throw aborted(where, cause);
        const said = cause instanceof Error ? redactKey(cause.message, this.#key) : String(cause);
        failure = new BingError('network', `${r.name} failed: ${said}`, {
          where,
          hint: `check that ${new URL(this.apiRoot).host} is reachable from here`,
        });
        // A name that does not resolve, a bad certificate or a refused address stays so on a retry.
        if (cause instanceof HttpError && FINAL_NETWORK.has(cause.reason)) throw failure;
      }
      // Bing's throttle faults come as HTTP 400 with ErrorCode 4 or 5: retried as a 429 would be.
      const judged = failure.reason === 'throttled' ? 429 : status;
      const decision = decideRetry(this.#policy, attempts, judged, retryAfter, this.#now());
      if (decision.kind === 'retry') {
        try {
          await this.#sleep(decision.delayMs, this.#signal);
        } catch (cause) {
          throw aborted(where, cause);
        }
        continue;
      }
      if (decision.kind === 'final') throw failure;
      const why =
        decision.kind === 'too-long'
          ? `Bing asks to wait ${Math.ceil(decision.retryAfterMs / 1000)} s (Retry-After), longer than allowed`
          : `gave up after ${attempts} attempt(s)`;
      throw new BingError(failure.reason, `${failure.message}; ${why}`, {
        where,
        ...(failure.hint === undefined ? {} : { hint: failure.hint }),
        ...(failure.status === undefined ? {} : { status: failure.status }),
        ...(failure.bingCode === undefined ? {} : { bingCode: failure.bingCode }),
      });
    }
  }

  /** `GetUrlSubmissionQuota`: the URLs the site may still submit today and this month. */
  async quota(): Promise<BingQuota> {
    const r = this.quotaRequest();
    return readQuota((await this.call(r)).d, redactUrl(r.url));
  }

  quotaRequest(): BingRequest {
    return this.request('GetUrlSubmissionQuota', { siteUrl: this.siteUrl });
  }

  /** `SubmitUrlBatch` of at most {@link BING_MAX_BATCH} URLs. */
  submitUrlBatchRequest(urlList: readonly string[]): BingRequest {
    return this.request('SubmitUrlBatch', {}, { siteUrl: this.siteUrl, urlList });
  }

  /** `SubmitFeed`: a sitemap (or RSS/Atom feed) URL for Bing to fetch. */
  submitFeedRequest(feedUrl: string): BingRequest {
    return this.request('SubmitFeed', {}, { siteUrl: this.siteUrl, feedUrl });
  }

  /** `GetFeeds`: the sitemaps and feeds submitted for the site, with Bing's verdict on each. */
  async feeds(): Promise<BingFeed[]> {
    const r = this.request('GetFeeds', { siteUrl: this.siteUrl });
    return readFeeds((await this.call(r)).d, redactUrl(r.url));
  }

  async close(): Promise<void> {
    await this.#http.close();
  }
}

const FINAL_NETWORK: ReadonlySet<string> = new Set([
  'dns',
  'tls',
  'address-refused',
  'bad-scheme',
  'too-large',
]);

function aborted(where: string, cause?: unknown): SitemapkitError {
  return new SitemapkitError('ERR_ABORTED', 'Bing submission aborted', { where, cause });
}
