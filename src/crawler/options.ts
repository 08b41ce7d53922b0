/**
 * The options of {@link crawl}: one bag, documented here, resolved once by
 * {@link resolveCrawlOptions} into a complete internal form; contradictions are refused there.
 */
import { resolve } from 'node:path';
import type { Dispatcher } from 'undici';
import { headerRecord } from '../core/checks.js';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import type { Changefreq, EntryInput } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { CHANGEFREQS } from '../core/limits.js';
import type { AddressPolicy } from '../http/address.js';
import type { HttpClient } from '../http/client.js';
import { DEFAULT_USER_AGENT } from '../http/headers.js';
import type { FetchLike } from '../http/types.js';
import {
  type ImageFilterOptions,
  type ResolvedImageFilter,
  resolveImageFilter,
} from '../page/image-filter.js';
import { isProductToken } from '../robots/match.js';
import type { CrawlProgress, PageEvent } from './events.js';
import { isPostgresState } from './frontier-postgres-db.js';
import type { SharedCrawlOptions } from './frontier-postgres-options.js';
import { normalizeCrawlUrl, type ParamPolicy } from './normalize-url.js';
import { type RenderCrawlOptions, type ResolvedRender, resolveRender } from './render-options.js';
import type { CrawlSitemapOptions, CrawlStoreOptions } from './store-publish.js';

export type { CrawlProgress, PageEvent } from './events.js';
export type { PgStep, SharedCrawlOptions } from './frontier-postgres-options.js';
export type { RenderCrawlOptions } from './render-options.js';
export type { CrawlSitemapOptions } from './store-publish.js';

/** Options of {@link crawl}. Only `start` and `outDir` are required. The object is never modified. */
export interface CrawlOptions extends RenderCrawlOptions, SharedCrawlOptions {
  /**
   * Where the crawl starts: one URL or several (same or other hosts). Credentials in a start URL
   * (`https://user:pass@staging.example.com/`) become HTTP basic auth, sent to that origin only.
   */
  start: string | readonly string[];
  /** Folder the sitemaps go into (the writer's file names; only its own files are replaced). */
  outDir: string;
  /**
   * Public URL of `outDir`, e.g. `https://example.com/`. Every listed URL (as published) must lie
   * under its folder; a crawl whose start URL cannot is refused before the first request.
   * @default `publicOrigin` (or the first start URL's origin) + `/`
   */
  baseUrl?: string;
  /**
   * Where the crawled site is published: an origin (`https://example.com`) or a base URL with a
   * path (`https://example.com/docs/15/`). URLs of the first start origin are rewritten to it
   * before writing (`http://localhost:8080/a` → `https://example.com/docs/15/a`: crawl a staging or
   * localhost build, publish for the real site), and links on the crawled pages that name the
   * published site are mapped back to the crawled copy.
   */
  publicOrigin?: string;
  /**
   * The state database. Without it the crawl keeps its state in a temporary folder that is
   * deleted when `crawl()` returns or throws (nothing to resume then). A `postgres://` URL keeps
   * the crawl in that database instead, shared by every worker given the same `crawlId`.
   * @default a temporary file (the CLI: `./.sitemapkit/crawl-HOST.db`)
   */
  state?: string;
  /**
   * Continue the crawl of an existing `state` (throws `ERR_STATE` when there is none). A state
   * whose crawl had finished fetches nothing: the output is written again with the options given
   * now (a corrected `baseUrl` or `publicOrigin`, say). @default false
   */
  resume?: boolean;
  /**
   * Delete an existing state and start over. Without it, the state of an unfinished crawl is
   * refused (resume it, or start over with `fresh`), and that of a finished one is started over.
   * @default false
   */
  fresh?: boolean;
  /**
   * Bring the finished crawl in `state` up to date (docs/crawl.md, "Recrawl"): every page it knows
   * is fetched again with a conditional request, compared on its main text, and `changed`, `added`
   * or `removed`; an interrupted recrawl continues, and without a state file it is a first crawl.
   * @default false
   */
  recrawl?: boolean;
  /** Write what this crawl added, changed and removed as a change set (JSON Lines) here. @default none */
  changes?: string;
  /**
   * Folder of the crawl report (`report.html`, `urls.jsonl`, `urls.csv`); never inside `outDir`.
   * @default none (the CLI: `./sitemapkit-report`)
   */
  report?: string | false;
  /**
   * Hold the process's heap close to what lives in it while the crawl runs, through V8 flags of the
   * whole process (docs/crawl.md, "Memory"; the CLI does), and collect it at a large crawl's last
   * page. Flags the process was started with are left alone; the others are set back. @default false
   */
  holdHeap?: boolean;
  /** Requests in flight at once, over all hosts. @default 4 */
  concurrency?: number;
  /** Requests in flight at once on one host. @default `concurrency` */
  hostConcurrency?: number;
  /** Requests per second per host (0: no limit). A robots.txt Crawl-delay that is longer wins. @default 0 */
  rate?: number;
  /** Obey robots.txt (RFC 9309 fetch semantics and rules). `false` is for your own staging sites only. @default true */
  robots?: boolean;
  /** Longest robots.txt `Crawl-delay` obeyed, milliseconds; a longer one is capped with a warning. @default 30000 */
  maxCrawlDelayMs?: number;
  /** The User-Agent header. @default 'sitemapkit/0.1 (+https://github.com/sitemapkit/sitemapkit)' */
  userAgent?: string;
  /** The product token matched against robots.txt groups. @default the User-Agent's first token ('sitemapkit') */
  robotsAgent?: string;
  /**
   * Agents whose `<meta name=AGENT>` and `X-Robots-Tag: AGENT:` directives count, besides the
   * generic ones and `robotsAgent`: a `noindex` for any of them keeps the page out.
   * @default ['googlebot', 'bingbot']
   */
  metaAgents?: readonly string[];
  /** Extra request headers (sent to the crawled origins only; never to other hosts). */
  headers?: Readonly<Record<string, string>>;
  /** Per request, body included, milliseconds. @default 30000 */
  timeoutMs?: number;
  /** Further attempts after a timeout, network error, 408, 425, 429 or 5xx. @default 2 */
  retries?: number;
  /** First retry backoff (doubled each attempt, at most 30 s), milliseconds. @default 1000 */
  retryBaseMs?: number;
  /** Longest `Retry-After` (429/503) waited for, milliseconds; longer gives the URL up. @default 120000 */
  maxRetryAfterMs?: number;
  /** Bytes of one page read at most; the rest is ignored (with a warning). @default 10485760 (10 MiB) */
  maxPageBytes?: number;
  /** More hosts to crawl (`host` or `host:port`). @default [] */
  hosts?: readonly string[];
  /** Also crawl subdomains of the start hosts. @default false */
  subdomains?: boolean;
  /** Only crawl paths that start with this, e.g. `/docs/`. @default '/' */
  pathPrefix?: string;
  /** Globs (picomatch) over `path?query`: when given, only matching URLs are crawled (start URLs are always fetched). @default [] */
  include?: readonly string[];
  /** Globs (picomatch) over `path?query`: matching URLs are neither fetched nor listed. @default [] */
  exclude?: readonly string[];
  /** Link hops from a start URL (0: the start pages only). @default Infinity */
  maxDepth?: number;
  /** HTTP-fetched URLs at most (a resumed crawl counts what it had). @default Infinity */
  maxPages?: number;
  /** Strip session-ID and tracking parameters (the shared list). @default true */
  stripTracking?: boolean;
  /** Keep only these query parameters (case-insensitive). Exclusive with `dropParams`. */
  keepParams?: readonly string[];
  /** Remove these query parameters (case-insensitive). Exclusive with `keepParams`. @default [] */
  dropParams?: readonly string[];
  /** Crawler-trap guards: repeating path segments, endless calendars. @default true */
  trapGuards?: boolean;
  /** URLs per pattern (same path and query parameter names; values ignored), 0 for no cap. @default 1000 */
  maxPerPattern?: number;
  /** Follow links marked `rel=nofollow`. @default false */
  followNofollow?: boolean;
  /** List PDFs (200, application/pdf) too. @default false */
  includePdf?: boolean;
  /** Also start from the URLs of the site's sitemaps (robots.txt `Sitemap:` lines and well-known paths). @default false */
  seedSitemaps?: boolean;
  /**
   * With `seedSitemaps`: the sitemaps' URLs, already read, queued instead of reading the site's
   * sitemaps again (`crawl --audit --seed-sitemaps` reads the published sitemaps once, for both).
   * @default the site's sitemaps are read
   */
  seedUrls?: readonly string[];
  /** `depth`: priority from link-hop depth (see `priorityMap`). Google ignores priority. @default 'none' */
  priority?: 'none' | 'depth';
  /** Priority by depth 0, 1, 2, …; the last applies to every deeper page. @default [1, 0.8, 0.5, 0.3] */
  priorityMap?: readonly number[];
  /** A changefreq for every URL (only when asked). */
  changefreq?: Changefreq;
  /** Which page images the sitemaps list: not a template's (on more than `maxShare` of the pages), not `exclude`d. @default { maxShare: 0.5 } */
  images?: ImageFilterOptions;
  /**
   * How the sitemaps are written: the writer's own options (`gzip`, `xsl`, `html`, `updateRobots`,
   * `maxUrlsPerFile`, `maxBytesPerFile`, `maxSitemapsPerIndex`, `legacy`, `feed`, `newsWindow`,
   * `lastmodPolicy`), with the writer's types, checks and defaults (through the store,
   * `lastmodPolicy` is `keep` unless given). `outDir`, `baseUrl` and the hosts allowed come from the crawl.
   */
  sitemaps?: CrawlSitemapOptions;
  /**
   * Rewrites each listed page's entry just before it is written (after `publicOrigin`): `audit
   * --out` keeps a published sitemap's lastmod where the page agrees. Return the entry to write.
   * @default none
   */
  adjustEntry?: (entry: EntryInput) => EntryInput;
  /**
   * Publish through the site store (docs/crawl.md, "Publishing through the store"): the crawl's
   * entries are the whole set, synchronised into the store at this path and built as one unit
   * (stable shards, only changed files rewritten, the publish gate); `changes` is then the store's
   * change set. A path, or the path with the gate's `maxDrop` and `force`. @default none
   */
  store?: string | CrawlStoreOptions;
  /**
   * Your own fetch for every request (pages, robots.txt, sitemaps). It hides the address connected
   * to, so the address policy can judge only IP literals in URLs. @default a keep-alive undici pool
   */
  fetch?: FetchLike;
  /** Your own undici `Dispatcher` (a `ProxyAgent`, say) for every request, instead of the crawl's pool. */
  dispatcher?: Dispatcher;
  /**
   * Links, redirects and sitemap entries that move from a public address to a private one
   * (loopback, 10/8, 192.168/16, link-local, cloud metadata…): refused (`default`), no private
   * address at all (`strict`), or no check (`off`). A start on a private address (a site on
   * localhost, a staging box) is allowed outside `strict`. @default 'default'
   */
  addressPolicy?: AddressPolicy;
  /** A client shared with other calls (its pool, address policy, User-Agent and headers); the caller closes it. */
  httpClient?: HttpClient;
  /** The clock, ms since the epoch. @default Date.now */
  now?: () => number;
  /** Waits `ms`; the crawler's only timer (inject it to control time in tests). @default setTimeout */
  sleep?: (ms: number) => Promise<void>;
  /** Stops the crawl: the state is kept, no output is written, and `ERR_ABORTED` is thrown. */
  signal?: AbortSignal;
  /** Findings (ignored canonicals, hreflang problems, capped delays, traps, …). */
  onDiagnostic?: DiagnosticHandler;
  /** Called after every finished URL. */
  onProgress?: (progress: CrawlProgress) => void;
  /** Called for every finished URL. */
  onPage?: (event: PageEvent) => void;
}

export interface ResolvedCrawlOptions {
  starts: string[];
  origins: string[];
  /** The start URLs as given (credentials included): the HTTP client's starts. */
  startUrls: string[];
  /** Extra headers, sent to the start origins only. */
  headers: Record<string, string>;
  outDir: string;
  baseUrl: string;
  /** The published base URL without its trailing slash (`https://example.com/docs/15`), or undefined. */
  publicOrigin: string | undefined;
  /** Undefined: a temporary state, deleted when the crawl returns. */
  state: string | undefined;
  mode: 'new' | 'resume' | 'fresh' | 'recrawl';
  changes: string | undefined;
  report: string | undefined;
  holdHeap: boolean;
  concurrency: number;
  hostConcurrency: number;
  delayMs: number;
  robots: boolean;
  maxCrawlDelayMs: number;
  userAgent: string;
  robotsAgent: string;
  metaAgents: string[];
  timeoutMs: number;
  retries: number;
  retryBaseMs: number;
  maxRetryAfterMs: number;
  maxPageBytes: number;
  hosts: string[];
  subdomains: boolean;
  pathPrefix: string;
  include: string[];
  exclude: string[];
  maxDepth: number;
  maxPages: number;
  params: ParamPolicy;
  trapGuards: boolean;
  maxPerPattern: number;
  followNofollow: boolean;
  includePdf: boolean;
  seedSitemaps: boolean;
  seedUrls: readonly string[] | undefined;
  priorityMap: number[] | undefined;
  changefreq: Changefreq | undefined;
  images: ResolvedImageFilter;
  sitemaps: CrawlSitemapOptions;
  fetch: FetchLike | undefined;
  dispatcher: Dispatcher | undefined;
  addressPolicy: AddressPolicy | undefined;
  httpClient: HttpClient | undefined;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  signal: AbortSignal | undefined;
  onDiagnostic: DiagnosticHandler | undefined;
  onProgress: ((progress: CrawlProgress) => void) | undefined;
  onPage: ((event: PageEvent) => void) | undefined;
  adjustEntry: ((entry: EntryInput) => EntryInput) | undefined;
  /** Rendering in headless Chromium (`mode: false`: none). */
  render: ResolvedRender;
}

export const DEFAULT_PRIORITY_MAP: readonly number[] = [1, 0.8, 0.5, 0.3];
export const DEFAULT_META_AGENTS: readonly string[] = ['googlebot', 'bingbot'];

function bad(message: string, hint?: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message, hint === undefined ? {} : { hint });
}

function count(
  name: string,
  v: number | undefined,
  min: number,
  dflt: number,
  allowInfinity = false,
): number {
  if (v === undefined) return dflt;
  if (allowInfinity && v === Number.POSITIVE_INFINITY) return v;
  if (!Number.isInteger(v) || v < min)
    throw bad(`${name} must be a whole number of at least ${min}, got ${v}`);
  return v;
}

/** The file name part for a host: `example.com`, `localhost_8080`. */
export function stateNameFor(url: string): string {
  const u = new URL(url);
  return `crawl-${u.host.replace(/[^A-Za-z0-9.-]/g, '_')}.db`;
}

/** Checks and completes the options once. Throws `ERR_OPTIONS` naming the option and the fix. */
export function resolveCrawlOptions(o: CrawlOptions, cwd: string = process.cwd()): ResolvedCrawlOptions {
  const startList = typeof o?.start === 'string' ? [o.start] : [...(o?.start ?? [])];
  if (startList.length === 0)
    throw bad('start is required: the URL to crawl from, such as https://example.com/');
  if (typeof o.outDir !== 'string' || o.outDir === '')
    throw bad('outDir (the folder for the sitemaps) is required');
  const stripTracking = o.stripTracking !== false;
  if (o.keepParams !== undefined && o.dropParams !== undefined && o.dropParams.length > 0) {
    throw bad(
      'keepParams and dropParams exclude each other: a keep-list already drops every other parameter',
    );
  }
  const params: ParamPolicy = {
    stripTracking,
    keep: o.keepParams === undefined ? undefined : new Set(o.keepParams.map((p) => p.toLowerCase())),
    drop: new Set((o.dropParams ?? []).map((p) => p.toLowerCase())),
  };
  const userHeaders = headerRecord('headers', o.headers);
  if (o.addressPolicy !== undefined && !['default', 'strict', 'off'].includes(o.addressPolicy)) {
    throw bad(`addressPolicy must be "default", "strict" or "off", not "${o.addressPolicy}"`);
  }
  if (o.fetch !== undefined && o.dispatcher !== undefined) throw bad('give fetch or dispatcher, not both');
  if (o.httpClient !== undefined && (o.fetch ?? o.dispatcher ?? o.addressPolicy) !== undefined) {
    throw bad(
      'httpClient brings its own transport and address policy: give fetch, dispatcher and addressPolicy to it',
    );
  }
  const starts: string[] = [];
  const origins: string[] = [];
  for (const raw of startList) {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      throw bad(
        `start URL "${raw}" is not an absolute URL`,
        'give the full address, such as https://example.com/',
      );
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw bad(`start URL "${raw}" is not http(s)`);
    const n = normalizeCrawlUrl(u.href, undefined, params);
    if (n === undefined) throw bad(`start URL "${raw}" cannot be crawled`);
    starts.push(n);
    const origin = `${u.protocol}//${u.host}`;
    if (!origins.includes(origin)) origins.push(origin);
  }
  let publicOrigin: string | undefined;
  if (o.publicOrigin !== undefined) {
    let p: URL;
    try {
      p = new URL(o.publicOrigin);
    } catch {
      throw bad(
        `publicOrigin "${o.publicOrigin}" is not an absolute URL`,
        'give an origin such as https://www.example.com, or a base URL such as https://example.com/docs/',
      );
    }
    if (p.protocol !== 'http:' && p.protocol !== 'https:')
      throw bad(`publicOrigin "${o.publicOrigin}" is not http(s)`);
    if (p.search !== '' || p.hash !== '' || p.username !== '' || p.password !== '') {
      throw bad(
        `publicOrigin "${o.publicOrigin}" must be an origin or a base URL (scheme, host, port and path), without a query, fragment or credentials`,
      );
    }
    // A base URL names a folder: "/docs/15" and "/docs/15/" publish the same place.
    publicOrigin = `${p.protocol}//${p.host}${p.pathname.replace(/\/+$/, '')}`;
  }
  const baseUrl = o.baseUrl ?? `${publicOrigin ?? origins[0]!}/`;
  try {
    const b = new URL(baseUrl);
    if (b.protocol !== 'http:' && b.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw bad(`baseUrl "${baseUrl}" must be an absolute http(s) URL such as https://example.com/`);
  }
  const concurrency = count('concurrency', o.concurrency, 1, 4);
  if (concurrency > 256) throw bad(`concurrency ${concurrency} is more than 256`);
  const hostConcurrency = Math.min(count('hostConcurrency', o.hostConcurrency, 1, concurrency), concurrency);
  const rate = o.rate ?? 0;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate < 0)
    throw bad(`rate must be 0 or more requests a second, got ${rate}`);
  const outDir = resolve(cwd, o.outDir);
  let report: string | undefined;
  if (o.report !== false && o.report !== undefined) {
    report = resolve(cwd, o.report);
    const inside = report === outDir || report.startsWith(`${outDir}/`) || report.startsWith(`${outDir}\\`);
    if (inside) {
      throw bad(
        `the report folder ${report} is inside the output folder ${outDir}`,
        'the report is for you, not for the public: pass --report DIR outside the deploy folder',
      );
    }
  }
  if (o.resume === true && o.fresh === true) throw bad('resume and fresh exclude each other');
  if (o.recrawl === true && (o.resume === true || o.fresh === true)) {
    throw bad(
      `recrawl and ${o.resume === true ? 'resume' : 'fresh'} exclude each other`,
      'recrawl continues an interrupted recrawl by itself',
    );
  }
  const ua = o.userAgent ?? DEFAULT_USER_AGENT;
  if (/[\r\n]/.test(ua)) throw bad('userAgent has a line break');
  const robotsAgent = o.robotsAgent ?? /^[A-Za-z_-]+/.exec(ua)?.[0] ?? 'sitemapkit';
  if (!isProductToken(robotsAgent)) {
    throw bad(`robotsAgent "${robotsAgent}" is not a product token (letters, "_" and "-" only)`);
  }
  const pathPrefix = o.pathPrefix ?? '/';
  if (!pathPrefix.startsWith('/')) throw bad(`pathPrefix must start with "/", got "${pathPrefix}"`);
  let priorityMap: number[] | undefined;
  if (o.priority === 'depth' || o.priorityMap !== undefined) {
    priorityMap = [...(o.priorityMap ?? DEFAULT_PRIORITY_MAP)];
    if (priorityMap.length === 0 || priorityMap.some((p) => !Number.isFinite(p) || p < 0 || p > 1)) {
      throw bad(`priorityMap must list priorities from 0.0 to 1.0, got ${priorityMap.join(',')}`);
    }
  } else if (o.priority !== undefined && o.priority !== 'none') {
    throw bad(`priority must be none or depth, got ${String(o.priority)}`);
  }
  if (o.changefreq !== undefined && !(CHANGEFREQS as readonly string[]).includes(o.changefreq)) {
    throw bad(`changefreq must be one of ${CHANGEFREQS.join(', ')}, got ${o.changefreq}`);
  }
  if (o.state === undefined && (o.resume === true || o.fresh === true || o.recrawl === true)) {
    throw bad(
      `${o.resume === true ? 'resume' : o.fresh === true ? 'fresh' : 'recrawl'} needs state: the file of the crawl`,
      'without state a crawl keeps its state in a temporary folder that is deleted when it returns',
    );
  }
  const state = o.state === undefined || isPostgresState(o.state) ? o.state : resolve(cwd, o.state);
  return {
    starts,
    origins,
    startUrls: startList,
    headers: userHeaders,
    outDir,
    baseUrl,
    publicOrigin,
    state,
    mode: o.recrawl === true ? 'recrawl' : o.resume === true ? 'resume' : o.fresh === true ? 'fresh' : 'new',
    changes: o.changes === undefined ? undefined : resolve(cwd, o.changes),
    report,
    holdHeap: o.holdHeap === true,
    concurrency,
    hostConcurrency,
    delayMs: rate > 0 ? Math.ceil(1000 / rate) : 0,
    robots: o.robots !== false,
    maxCrawlDelayMs: count('maxCrawlDelayMs', o.maxCrawlDelayMs, 0, 30_000),
    userAgent: ua,
    robotsAgent,
    metaAgents: [
      ...new Set([...(o.metaAgents ?? DEFAULT_META_AGENTS), robotsAgent].map((a) => a.toLowerCase())),
    ],
    timeoutMs: count('timeoutMs', o.timeoutMs, 1, 30_000),
    retries: count('retries', o.retries, 0, 2),
    retryBaseMs: count('retryBaseMs', o.retryBaseMs, 0, 1000),
    maxRetryAfterMs: count('maxRetryAfterMs', o.maxRetryAfterMs, 0, 120_000),
    maxPageBytes: count('maxPageBytes', o.maxPageBytes, 1024, 10 * 1024 * 1024),
    hosts: [...(o.hosts ?? [])],
    subdomains: o.subdomains === true,
    pathPrefix,
    include: [...(o.include ?? [])],
    exclude: [...(o.exclude ?? [])],
    maxDepth: count('maxDepth', o.maxDepth, 0, Number.POSITIVE_INFINITY, true),
    maxPages: count('maxPages', o.maxPages, 1, Number.POSITIVE_INFINITY, true),
    params,
    trapGuards: o.trapGuards !== false,
    maxPerPattern: count('maxPerPattern', o.maxPerPattern, 0, 1000),
    followNofollow: o.followNofollow === true,
    includePdf: o.includePdf === true,
    seedSitemaps: o.seedSitemaps === true,
    seedUrls: o.seedUrls,
    priorityMap,
    changefreq: o.changefreq,
    images: resolveImageFilter(o.images),
    sitemaps: { ...o.sitemaps },
    fetch: o.fetch,
    dispatcher: o.dispatcher,
    addressPolicy: o.addressPolicy,
    httpClient: o.httpClient,
    now: o.now ?? Date.now,
    sleep: o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    signal: o.signal,
    onDiagnostic: o.onDiagnostic,
    onProgress: o.onProgress,
    onPage: o.onPage,
    adjustEntry: o.adjustEntry,
    render: resolveRender(o),
  };
}
