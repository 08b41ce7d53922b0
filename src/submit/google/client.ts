/**
 * Google Search Console for one property: the sitemaps API (submit, get, list; webmasters/v3) and
 * the URL Inspection API (searchconsole/v1), authorised by a service account. Every request goes
 * through the shared HTTP client and retry policy (`exchange.ts`); the access token is cached
 * (`token.ts`). A refusal of one sitemap is a result, not an exception, so that a caller learns
 * per sitemap whether Google accepted it.
 */
import { httpUrl } from '../../core/checks.js';
import { SitemapkitError } from '../../core/errors.js';
import type { AddressPolicy } from '../../http/address.js';
import type { HttpClient } from '../../http/client.js';
import { type ApiHttpOptions, apiHttp } from '../api-http.js';
import {
  readServiceAccount,
  type ServiceAccount,
  type ServiceAccountKey,
  serviceAccountFrom,
} from './credentials.js';
import { apiError, type ErrorSubject, GoogleApiError } from './errors.js';
import { type ExchangeContext, exchange, type GoogleRequest, jsonOf } from './exchange.js';
import { checkSite, encodeSite, inProperty } from './site.js';
import { REDACTED, TokenCache, tokenRequest } from './token.js';
import type { GoogleInspection, GoogleSitemap, GoogleSubmitResult } from './types.js';
import { inspectionOf, sitemapOf } from './types.js';

/** Where the sitemaps API lives. */
export const GOOGLE_API_ROOT = 'https://www.googleapis.com/';
/** Where the URL Inspection API lives. */
export const GOOGLE_INSPECTION_ROOT = 'https://searchconsole.googleapis.com/';

/** Options of {@link openSearchConsole}: one bag for submit, status and inspection. */
export interface GoogleOptions extends ApiHttpOptions {
  /** The property: `https://www.example.com/` (URL-prefix, with its trailing slash) or `sc-domain:example.com`. */
  site: string;
  /** The service account key file: its path, or its parsed JSON. */
  credentials: string | ServiceAccountKey;
  /** Root of the sitemaps API (a proxy, a test double). @default GOOGLE_API_ROOT */
  apiRoot?: string;
  /** Root of the URL Inspection API. @default `apiRoot` when given, else GOOGLE_INSPECTION_ROOT */
  inspectionApiRoot?: string;
  /** Language of the inspection's messages (BCP-47). @default Google's: en-US */
  languageCode?: string;
  /** See `ParseOptions.addressPolicy`; the token endpoint and the API roots count as starts. @default 'default' */
  addressPolicy?: AddressPolicy;
  /** Milliseconds since the epoch: the JWT's times, the token's expiry, HTTP-date `Retry-After`. @default Date.now */
  now?: () => number;
  /** A `Retry-After` longer than this gives up instead of waiting. @default 600000 (10 min) */
  maxRetryAfterMs?: number;
  /** Send nothing: submits are reported as `dry-run` and every request goes to `onRequest` only. @default false */
  dryRun?: boolean;
  /** Sees each request before it is sent (or instead, in a dry run), the token and the assertion redacted. */
  onRequest?: (request: GoogleRequest) => void;
  signal?: AbortSignal;
}

/** The root URL `value` with a trailing slash. */
function rootOf(name: string, value: string): string {
  const u = httpUrl(name, value, 'the root URL of the API');
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  u.search = '';
  u.hash = '';
  return u.href;
}

/**
 * Reads the key file and opens a client for one property. Throws `ERR_OPTIONS` for bad options
 * and `ERR_INPUT` for a key file that cannot be read or is not a service account key.
 *
 * @example
 * const gsc = await openSearchConsole({ site: 'sc-domain:example.com', credentials: 'key.json' });
 * try {
 *   const r = await gsc.submitSitemap('https://www.example.com/sitemap.xml');
 *   console.log(r.status); // 'submitted' or 'failed'
 * } finally {
 *   await gsc.close();
 * }
 */
export async function openSearchConsole(options: GoogleOptions): Promise<SearchConsoleClient> {
  const site = checkSite(options.site);
  const account =
    typeof options.credentials === 'string'
      ? await readServiceAccount(options.credentials)
      : serviceAccountFrom(options.credentials, 'credentials');
  return new SearchConsoleClient(site, account, options);
}

export class SearchConsoleClient {
  /** The property, as checked (`https://www.example.com/` or `sc-domain:example.com`). */
  readonly site: string;
  /** The service account's e-mail: the user to add to the property. */
  readonly clientEmail: string;
  readonly apiRoot: string;
  readonly inspectionApiRoot: string;
  readonly #account: ServiceAccount;
  readonly #http: HttpClient;
  readonly #ctx: ExchangeContext;
  readonly #tokens: TokenCache;
  readonly #o: GoogleOptions;
  #announcedToken = false;

  constructor(site: string, account: ServiceAccount, options: GoogleOptions) {
    this.site = site;
    this.#account = account;
    this.#o = options;
    this.clientEmail = account.clientEmail;
    this.apiRoot = rootOf('apiRoot', options.apiRoot ?? GOOGLE_API_ROOT);
    this.inspectionApiRoot = rootOf(
      'inspectionApiRoot',
      options.inspectionApiRoot ?? options.apiRoot ?? GOOGLE_INSPECTION_ROOT,
    );
    const http = apiHttp(options, { maxRetryAfterMs: 600_000 });
    this.#http = http.client;
    // The endpoints are the caller's own choice: each is a start for the address policy.
    for (const u of [account.tokenUri, this.apiRoot, this.inspectionApiRoot]) this.#http.start(u);
    this.#ctx = http;
    this.#tokens = new TokenCache(account, this.#ctx);
  }

  /** Access tokens obtained from the token endpoint so far (the rest came from the cache). */
  get tokensObtained(): number {
    return this.#tokens.obtained;
  }

  /** `…/webmasters/v3/sites/SITE/sitemaps[/FEEDPATH]`. */
  sitemapsUrl(feedpath?: string): string {
    const base = `${this.apiRoot}webmasters/v3/sites/${encodeSite(this.site)}/sitemaps`;
    return feedpath === undefined ? base : `${base}/${encodeURIComponent(feedpath)}`;
  }

  /** `…/v1/urlInspection/index:inspect`. */
  inspectionUrl(): string {
    return `${this.inspectionApiRoot}v1/urlInspection/index:inspect`;
  }

  /** Sends one API call with a bearer token; a 401 renews the token once. Returns the final answer. */
  async #call(
    req: Omit<GoogleRequest, 'headers'> & { headers?: Record<string, string> },
    subject: ErrorSubject,
  ): Promise<{ status: number; body: string; attempts: number; note: string }> {
    const doing = `${subject.doing} ${subject.sitemap ?? subject.page ?? subject.site}`;
    const headers = { accept: 'application/json', ...req.headers };
    if (this.#o.dryRun === true) {
      if (!this.#announcedToken) this.#o.onRequest?.(tokenRequest(this.#account, undefined));
      this.#announcedToken = true;
      this.#o.onRequest?.({ ...req, headers: { ...headers, authorization: `Bearer ${REDACTED}` } });
      return { status: 0, body: '', attempts: 0, note: '' };
    }
    let attempts = 0;
    for (let renewed = false; ; renewed = true) {
      const token = await this.#tokens.get();
      this.#o.onRequest?.({ ...req, headers: { ...headers, authorization: `Bearer ${REDACTED}` } });
      const answer = await exchange(
        this.#ctx,
        { ...req, headers: { ...headers, authorization: `Bearer ${token}` } },
        doing,
      );
      attempts += answer.attempts;
      if (answer.status !== 401 || renewed) return { ...answer, attempts };
      this.#tokens.drop();
    }
  }

  /**
   * Submits a sitemap (`PUT …/sitemaps/FEEDPATH`). Resolves with `submitted` when Google accepted
   * it, `failed` (with the error) when it refused, `dry-run` in a dry run. Throws only what stops
   * every call: a refused key (`ERR_GOOGLE`, kind `auth`), no network, an abort.
   */
  async submitSitemap(sitemap: string): Promise<GoogleSubmitResult> {
    const subject: ErrorSubject = {
      site: this.site,
      clientEmail: this.clientEmail,
      sitemap,
      doing: 'submitting the sitemap',
    };
    const outside = inProperty(this.site, sitemap);
    if (outside !== undefined) {
      const error = new GoogleApiError('bad-request', `${sitemap} ${outside}`, {
        where: sitemap,
        hint: 'submit the sitemaps of this property only, or give the property that holds them with --site',
      });
      return { sitemap, status: 'failed', attempts: 0, message: error.message, error };
    }
    const url = this.sitemapsUrl(sitemap);
    // An empty body, sent with Content-Length: 0 (Google answers 411 to a PUT without one).
    const answer = await this.#call({ method: 'PUT', url, body: '' }, subject);
    if (this.#o.dryRun === true)
      return { sitemap, status: 'dry-run', attempts: 0, message: `would submit ${sitemap} to ${this.site}` };
    if (answer.status >= 200 && answer.status < 300) {
      return {
        sitemap,
        status: 'submitted',
        httpStatus: answer.status,
        attempts: answer.attempts,
        message: `submitted to ${this.site}`,
      };
    }
    const error = apiError(subject, answer.status, answer.body, url, answer.note);
    return {
      sitemap,
      status: 'failed',
      httpStatus: answer.status,
      attempts: answer.attempts,
      message: error.message,
      error,
    };
  }

  #noDryRun(what: string): void {
    if (this.#o.dryRun === true)
      throw new SitemapkitError('ERR_OPTIONS', `${what} reads from Google: it has no dry run`);
  }

  /** What Google knows of one sitemap (`GET …/sitemaps/FEEDPATH`). Throws `GoogleApiError` (404: `not-found`). */
  async getSitemap(sitemap: string): Promise<GoogleSitemap> {
    this.#noDryRun('getSitemap');
    const subject: ErrorSubject = {
      site: this.site,
      clientEmail: this.clientEmail,
      sitemap,
      doing: 'reading the status of the sitemap',
    };
    const url = this.sitemapsUrl(sitemap);
    const answer = await this.#call({ method: 'GET', url }, subject);
    if (answer.status !== 200) throw apiError(subject, answer.status, answer.body, url, answer.note);
    return sitemapOf(jsonOf(answer.body, url, 'sitemaps.get'));
  }

  /**
   * Every sitemap Google knows for the property (`GET …/sitemaps`), or the children of the index
   * `sitemapIndex`. An empty list when there is none (Google then leaves the field out).
   */
  async listSitemaps(options: { sitemapIndex?: string } = {}): Promise<GoogleSitemap[]> {
    this.#noDryRun('listSitemaps');
    const subject: ErrorSubject = {
      site: this.site,
      clientEmail: this.clientEmail,
      doing: 'listing the sitemaps of',
    };
    const base = this.sitemapsUrl();
    const url =
      options.sitemapIndex === undefined
        ? base
        : `${base}?sitemapIndex=${encodeURIComponent(options.sitemapIndex)}`;
    const answer = await this.#call({ method: 'GET', url }, subject);
    if (answer.status !== 200) throw apiError(subject, answer.status, answer.body, url, answer.note);
    const list = jsonOf(answer.body, url, 'sitemaps.list')['sitemap'];
    return Array.isArray(list) ? list.map((s) => sitemapOf(s)) : [];
  }

  /**
   * The URL Inspection verdict of one page, as Google's index has it (`POST …/v1/urlInspection/
   * index:inspect`). Throws `GoogleApiError`: `rate-limited` once the daily quota is spent.
   */
  async inspectUrl(page: string): Promise<GoogleInspection> {
    this.#noDryRun('inspectUrl');
    const subject: ErrorSubject = {
      site: this.site,
      clientEmail: this.clientEmail,
      page,
      doing: 'inspecting',
    };
    const outside = inProperty(this.site, page);
    if (outside !== undefined) {
      throw new GoogleApiError('bad-request', `${page} ${outside}`, {
        where: page,
        hint: 'inspect the pages of this property only',
      });
    }
    const url = this.inspectionUrl();
    const payload: Record<string, string> = { inspectionUrl: page, siteUrl: this.site };
    if (this.#o.languageCode !== undefined) payload['languageCode'] = this.#o.languageCode;
    const answer = await this.#call(
      {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: JSON.stringify(payload),
      },
      subject,
    );
    if (answer.status !== 200) throw apiError(subject, answer.status, answer.body, url, answer.note);
    return inspectionOf(page, jsonOf(answer.body, url, 'urlInspection.index.inspect'));
  }

  /** Releases the connections. */
  async close(): Promise<void> {
    await this.#http.close();
  }
}
