/**
 * The Bing Webmaster API's JSON endpoint, as documented for `IWebmasterApi`
 * (learn.microsoft.com/dotnet/api/microsoft.bing.webmaster.api.interfaces.iwebmasterapi): a method
 * is `API_ROOT + Name` with the key in the `apikey` query parameter; GET methods take their
 * arguments in the query (`GetUrlSubmissionQuota?siteUrl=…`), POST methods a JSON object of named
 * arguments (`{"siteUrl": …, "urlList": […]}`); answers are WCF-wrapped as `{"d": …}`, failures an
 * `ApiFault` `{"ErrorCode": n, "Message": "ERROR!!! …"}`. Pure: requests are built and answers read
 * here, sent by `client.ts`. The key never leaves this module unredacted except in the request URL.
 */
import { SitemapkitError } from '../../core/errors.js';

/** The API root of the JSON endpoint. */
export const BING_API_ROOT = 'https://ssl.bing.com/webmaster/api.svc/json/';

/** URLs per `SubmitUrlBatch`: Bing's documented maximum per call. */
export const BING_MAX_BATCH = 500;

/** What stands for the API key wherever a request is shown. */
export const REDACTED = 'REDACTED';

/** Bing's `ApiErrorCode` values, by name (the enum of `Microsoft.Bing.Webmaster.Api.Interfaces`). */
export const BING_ERROR_CODES: Readonly<Record<number, string>> = {
  0: 'None',
  1: 'InternalError',
  2: 'UnknownError',
  3: 'InvalidApiKey',
  4: 'ThrottleUser',
  5: 'ThrottleHost',
  6: 'UserBlocked',
  7: 'InvalidUrl',
  8: 'InvalidParameter',
  9: 'TooManySites',
  10: 'UserNotFound',
  11: 'NotFound',
  12: 'AlreadyExists',
  13: 'NotAllowed',
  14: 'NotAuthorized',
  15: 'UnexpectedState',
  16: 'Deprecated',
};

/**
 * Why Bing refused, as a closed set: `invalid-key` (ErrorCode 3), `not-verified` (the site is not
 * verified for this key: NotAuthorized, or an AuthorizationFailed message), `quota` (the daily or
 * monthly URL quota is spent), `throttled` (ThrottleUser/ThrottleHost, or HTTP 429), `invalid-url`
 * (a URL not of the site, or malformed), `blocked` (UserBlocked), `server` (5xx, InternalError),
 * `network`, `bad-answer` (not the documented JSON), `other`.
 */
export type BingFailureReason =
  | 'invalid-key'
  | 'not-verified'
  | 'quota'
  | 'throttled'
  | 'invalid-url'
  | 'blocked'
  | 'server'
  | 'network'
  | 'bad-answer'
  | 'other';

/** A refusal or failure of the Bing Webmaster API (`ERR_BING`); `reason` is stable, the message is prose. */
export class BingError extends SitemapkitError {
  readonly reason: BingFailureReason;
  /** The HTTP status, when Bing answered. */
  readonly status: number | undefined;
  /** Bing's `ErrorCode`, when its answer carried one. */
  readonly bingCode: number | undefined;

  constructor(
    reason: BingFailureReason,
    message: string,
    extra: { where?: string; hint?: string; status?: number; bingCode?: number; cause?: unknown } = {},
  ) {
    super('ERR_BING', message, {
      ...(extra.where === undefined ? {} : { where: extra.where }),
      hint: extra.hint ?? HINTS[reason],
      cause: extra.cause,
    });
    this.reason = reason;
    this.status = extra.status;
    this.bingCode = extra.bingCode;
  }
}

const HINTS: Record<BingFailureReason, string> = {
  'invalid-key':
    'check the API key (Bing Webmaster Tools > Settings > API access); pass it with --api-key or BING_WEBMASTER_API_KEY',
  'not-verified':
    'add and verify the site in Bing Webmaster Tools with the account of this API key, and give --site exactly as listed there',
  quota: 'the rest is kept for the next run; the quota is renewed daily',
  throttled: 'Bing asks to slow down: run again later',
  'invalid-url': 'submit only URLs of the site given with --site',
  blocked: 'the account is blocked by Bing Webmaster Tools: see its messages there',
  server: 'Bing had a server error: run again later',
  network: 'check that ssl.bing.com is reachable from here',
  'bad-answer': 'check --bing-api-root: the answer was not the Bing Webmaster JSON API',
  other: 'see the message from Bing',
};

/** One request as it is sent, with the key in its URL. */
export interface BingRequest {
  method: 'GET' | 'POST';
  /** The API method, e.g. `SubmitUrlBatch`. */
  name: string;
  url: string;
  body?: string;
}

/** The API root with a trailing slash; validates it. Throws `ERR_OPTIONS`. */
export function bingApiRoot(root: string | undefined): string {
  const value = root ?? BING_API_ROOT;
  let u: URL;
  try {
    u = new URL(value);
  } catch (cause) {
    throw new SitemapkitError('ERR_OPTIONS', `the Bing API root "${value}" is not a URL`, {
      cause,
      hint: `e.g. ${BING_API_ROOT}`,
    });
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw new SitemapkitError('ERR_OPTIONS', `the Bing API root must be http(s), not ${u.protocol}`, {
      where: value,
    });
  }
  u.search = '';
  u.hash = '';
  if (!u.pathname.endsWith('/')) u.pathname += '/';
  return u.href;
}

/**
 * The request for API method `name`: GET with `params` in the query, or POST with `body` as JSON.
 * The key goes last in the query (`apikey=`), so that {@link redactUrl} can always find it.
 */
export function bingRequest(
  root: string,
  apiKey: string,
  name: string,
  params: Record<string, string>,
  body?: Record<string, unknown>,
): BingRequest {
  const q = new URLSearchParams(params);
  q.set('apikey', apiKey);
  const url = `${root}${name}?${q.toString()}`;
  return body === undefined
    ? { method: 'GET', name, url }
    : { method: 'POST', name, url, body: JSON.stringify(body) };
}

/** `url` with the value of its `apikey` parameter replaced by `REDACTED`. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]apikey=)[^&#]*/gi, `$1${REDACTED}`);
}

/** `text` with every occurrence of the key replaced (for messages that might echo it back). */
export function redactKey(text: string, apiKey: string): string {
  return apiKey === '' ? text : text.split(apiKey).join(REDACTED);
}

/** The site URL as Bing lists sites: an http(s) URL; a bare origin gets its `/`. Throws `ERR_OPTIONS`. */
export function bingSiteUrl(site: string): string {
  let u: URL;
  try {
    u = new URL(site);
  } catch (cause) {
    throw new SitemapkitError('ERR_OPTIONS', `the site "${site}" is not a URL`, {
      cause,
      hint: 'give the site as it is listed in Bing Webmaster Tools, e.g. https://www.example.com/',
    });
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw new SitemapkitError('ERR_OPTIONS', `the site must be an http(s) URL, not ${u.protocol}`, {
      where: site,
      hint: 'give the site as it is listed in Bing Webmaster Tools, e.g. https://www.example.com/',
    });
  }
  return u.href;
}

/** Whether `url` lies on the site (same origin, under its path). */
export function isOnSite(url: URL, siteUrl: string): boolean {
  const site = new URL(siteUrl);
  return url.origin === site.origin && url.pathname.startsWith(site.pathname);
}

/** The `d` of a successful answer; `bad-answer` when the body is not `{"d": …}`. */
export function unwrap(text: string, where: string, status: number): unknown {
  let json: unknown;
  try {
    json = text.trim() === '' ? { d: null } : JSON.parse(text);
  } catch (cause) {
    throw new BingError('bad-answer', `Bing answered HTTP ${status} with a body that is not JSON`, {
      where,
      status,
      cause,
    });
  }
  if (typeof json !== 'object' || json === null || !('d' in json)) {
    throw new BingError('bad-answer', `Bing answered HTTP ${status} without the "d" of its JSON answers`, {
      where,
      status,
    });
  }
  return (json as { d: unknown }).d;
}

/** A refusal in words, from the status and the `ApiFault` body (when it is one). */
export function faultOf(status: number, text: string, where: string, apiKey: string): BingError {
  let code: number | undefined;
  let message: string | undefined;
  try {
    const j = JSON.parse(text) as { ErrorCode?: unknown; Message?: unknown };
    if (typeof j.ErrorCode === 'number') code = j.ErrorCode;
    if (typeof j.Message === 'string') message = redactKey(j.Message, apiKey).trim();
  } catch {
    // Not the ApiFault shape: judged on the status alone.
  }
  const name = code === undefined ? undefined : (BING_ERROR_CODES[code] ?? `ErrorCode ${code}`);
  const said = message ?? (name === undefined ? '' : `ERROR!!! ${name}`);
  const tail = said === '' ? '' : ` (${said.length > 200 ? `${said.slice(0, 197)}...` : said})`;
  const extra = { where, status, ...(code === undefined ? {} : { bingCode: code }) };
  const reason = reasonOf(status, code, said);
  return new BingError(reason, `HTTP ${status}: ${SENTENCES[reason]}${tail}`, extra);
}

const SENTENCES: Record<BingFailureReason, string> = {
  'invalid-key': 'Bing does not accept the API key',
  'not-verified': 'the site is not verified in Bing Webmaster Tools for this API key',
  quota: 'the URL submission quota of the site is spent',
  throttled: 'Bing throttles the requests of this key or site',
  'invalid-url': 'Bing refused a URL (malformed, or not of the site)',
  blocked: 'Bing has blocked this account',
  server: 'Bing had a server error',
  network: 'the request did not reach Bing',
  'bad-answer': 'the answer was not the documented JSON',
  other: 'Bing refused the request',
};

function reasonOf(status: number, code: number | undefined, message: string): BingFailureReason {
  if (/quota|exceeded/i.test(message)) return 'quota';
  if (code === 3) return 'invalid-key';
  if (code === 14 || /AuthorizationFailed|not verified|NotAuthorized/i.test(message)) return 'not-verified';
  if (code === 4 || code === 5 || status === 429) return 'throttled';
  if (code === 6) return 'blocked';
  if (code === 7) return 'invalid-url';
  if (code === 1 || status >= 500) return 'server';
  if (status === 401) return 'invalid-key';
  if (status === 403) return 'not-verified';
  return 'other';
}

/** Daily and monthly URLs that can still be submitted (`GetUrlSubmissionQuota`). */
export interface BingQuota {
  DailyQuota: number;
  MonthlyQuota: number;
}

export function readQuota(d: unknown, where: string): BingQuota {
  const q = d as { DailyQuota?: unknown; MonthlyQuota?: unknown } | null;
  if (
    q === null ||
    typeof q !== 'object' ||
    typeof q.DailyQuota !== 'number' ||
    typeof q.MonthlyQuota !== 'number'
  )
    throw new BingError('bad-answer', 'GetUrlSubmissionQuota answered without DailyQuota and MonthlyQuota', {
      where,
    });
  return { DailyQuota: q.DailyQuota, MonthlyQuota: q.MonthlyQuota };
}

/**
 * A submitted sitemap or feed as `GetFeeds` lists it, with Bing's own field names. Dates are
 * WCF's `/Date(ms±hhmm)/` strings as sent; {@link bingDate} reads them.
 */
export interface BingFeed {
  Url: string;
  Type?: string;
  Status?: string;
  Submitted?: string | null;
  LastCrawled?: string | null;
  UrlCount?: number;
  FileSize?: number;
  Compressed?: boolean;
}

const FEED_FIELDS = [
  'Url',
  'Type',
  'Status',
  'Submitted',
  'LastCrawled',
  'UrlCount',
  'FileSize',
  'Compressed',
];

export function readFeeds(d: unknown, where: string): BingFeed[] {
  if (!Array.isArray(d))
    throw new BingError('bad-answer', 'GetFeeds answered without a list of feeds', { where });
  return d.map((raw) => {
    const f = raw as Record<string, unknown>;
    if (typeof f['Url'] !== 'string')
      throw new BingError('bad-answer', 'GetFeeds listed a feed without a Url', { where });
    const out: Record<string, unknown> = {};
    for (const k of FEED_FIELDS) if (f[k] !== undefined) out[k] = f[k];
    return out as unknown as BingFeed;
  });
}

/** WCF's JSON date `/Date(1316213995266-0700)/` as an ISO 8601 UTC string; undefined when not one. */
export function bingDate(value: string | null | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^\/Date\((-?\d+)(?:[+-]\d{4})?\)\/$/.exec(value);
  if (m === null) return undefined;
  const ms = Number(m[1]);
  // WCF writes DateTime.MinValue for "never": no date to show.
  if (ms <= -62135596800000) return undefined;
  return new Date(ms).toISOString();
}
