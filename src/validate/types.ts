/**
 * Public types of the validator: what {@link validateSitemap} takes and returns.
 */

import type { Dispatcher } from 'undici';
import type { Diagnostic, Severity } from '../core/diagnostics.js';
import type { AddressPolicy } from '../http/address.js';
import type { FetchLike } from '../http/types.js';
import type { SitemapInfo, SitemapSource } from '../parser/types.js';
import type { RobotsTxt } from '../robots/robots-txt.js';

/** A rule's severity, or `off` to disable it. */
export type RuleSetting = Severity | 'off';

/** Options of the live checks (`live: true` takes all the defaults). */
export interface LiveOptions {
  /** Requests in flight at once, over all hosts. @default 8 */
  concurrency?: number;
  /** Requests in flight at once per host (politeness). @default 2 */
  perHost?: number;
  /** Time allowed per request, body included, in milliseconds. @default 15000 */
  timeoutMs?: number;
  /** Bytes of a page read at most (the head holds what is checked). @default 2097152 (2 MiB) */
  maxPageBytes?: number;
  /** Retries after 429, 503 or a network failure (honouring Retry-After). @default 2 */
  retries?: number;
  /** The longest Retry-After waited for; a longer one ends the retries. @default 60000 */
  maxRetryAfterMs?: number;
  /**
   * `auto`: HEAD first, then GET only for HTML pages (their body holds the robots meta tag and the
   * canonical) or when HEAD fails; `get`: GET only, for servers that mishandle HEAD. @default 'auto'
   */
  method?: 'auto' | 'get';
  /** Pages checked at most (the first ones listed); the rest are only validated offline. @default no limit */
  limit?: number;
  /**
   * Fetch pages that robots.txt disallows, for owners checking their own staging site. By default
   * a URL is fetched only when robots.txt allows it for `agent` (else it is reported as
   * `robots-sitemap-disallowed`) and for the product token of the User-Agent (else
   * `live-robots-skipped`), as the crawler obeys it. @default false
   */
  ignoreRobots?: boolean;
}

/** Progress of a run, for progress bars. */
export interface ValidateProgress {
  /** Pages read so far. */
  urls: number;
  /** Sitemaps read so far. */
  sitemaps: number;
  /** Live checks finished. */
  checked: number;
  /** Live checks queued or running. */
  pending: number;
}

/** Options of {@link validateSitemap}. The caller's object is never modified. */
export interface ValidateOptions {
  /** Follow sitemap indexes and validate every sitemap of the tree. @default false */
  recursive?: boolean;
  /**
   * The source is a site (one http(s) URL): find its sitemaps (robots.txt `Sitemap:` lines, else
   * the well-known paths) and validate each tree; implies `recursive` unless it is `false`. @default false
   */
  discover?: boolean;
  /**
   * The public URL of a sitemap read from a file, bytes or a stream: enables the location rule,
   * the robots.txt `Sitemap:` check, and (with `recursive`) reading the children that live beside
   * it on disk: URLs under its folder are read from the file's folder, never fetched.
   * @default none
   */
  sitemapUrl?: string;
  /**
   * robots.txt: a URL (fetched with RFC 9309 semantics), a file path, a parsed {@link RobotsTxt},
   * or `false` for none. @default the sitemap's site's /robots.txt when the source is an http(s) URL
   */
  robots?: string | RobotsTxt | false;
  /** The crawler robots.txt rules and robots meta tags are read for. @default 'Googlebot' */
  agent?: string;
  /** Hosts whose robots.txt cross-submits to this sitemap (their URLs pass the location rule). @default [] */
  allowHosts?: readonly string[];
  /** Fetch every listed page and check what a crawler sees (`true`: default settings). @default false */
  live?: boolean | LiveOptions;
  /** Severity per rule code, or `off` (see docs/rules.md for the codes). @default each rule's own */
  rules?: Readonly<Record<string, RuleSetting>>;
  /** Rule codes to leave out (the same as `rules: { CODE: 'off' }`). @default [] */
  disable?: readonly string[];
  /** Diagnostics kept on the result; the counts include the rest. @default 10000 */
  maxDiagnostics?: number;
  /** Diagnostics kept per rule (so that one flood does not hide the other rules). @default 1000 */
  maxPerRule?: number;
  /** Receives every diagnostic kept or not (after severity overrides; disabled rules never arrive). */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** Called every 1,000 pages and at each sitemap's end. */
  onProgress?: (progress: ValidateProgress) => void;
  /**
   * Extra request headers (credentials too) for sitemaps, robots.txt and pages on the origins of
   * the sources you give; never sent to another origin, also not after a redirect.
   */
  headers?: Readonly<Record<string, string>>;
  /** User-Agent of every request. @default 'sitemapkit/0.1 (+https://github.com/sitemapkit/sitemapkit)' */
  userAgent?: string;
  /** Time allowed per sitemap request, in milliseconds. @default 30000 */
  timeoutMs?: number;
  /**
   * Your own fetch for sitemaps, robots.txt and pages (it hides the connected address from the
   * address policy). @default a keep-alive undici pool
   */
  fetch?: FetchLike;
  /** Your own undici `Dispatcher` instead of sitemapkit's pool. */
  dispatcher?: Dispatcher;
  /** See `ParseOptions.addressPolicy`: pages and children moving from public to private addresses. @default 'default' */
  addressPolicy?: AddressPolicy;
  /** The clock, in milliseconds since the epoch (lastmod in the future, news age). @default Date.now */
  now?: () => number;
  /** Cancels the run; it then rejects with a `SitemapkitError` `ERR_ABORTED`. */
  signal?: AbortSignal;
}

/** What a {@link validateSitemap} source can be: one sitemap (path, URL, bytes, stream) or several paths/URLs. */
export type ValidateSource = SitemapSource | readonly string[];

/** How often one rule fired. */
export interface RuleCount {
  code: string;
  /** Severity after overrides. */
  severity: Severity;
  /** Every occurrence, kept or not. */
  count: number;
  summary: string;
  fix: string;
}

/** Totals of a run. */
export interface ValidationSummary {
  errors: number;
  warnings: number;
  infos: number;
  /** Sitemaps read (index files included). */
  sitemaps: number;
  /** Pages read. */
  urls: number;
  /** Pages fetched by the live checks. */
  checked: number;
  /** No error (warnings allowed): what exit code 0 means. */
  valid: boolean;
}

/** Figures for the report's charts. */
export interface ValidationStats {
  /** Pages by lastmod month (`YYYY-MM`); pages without lastmod count under `none`. */
  lastmodByMonth: Record<string, number>;
  /** Live answers by HTTP status (`200`, `301`, …; `failed` when none came). */
  statusCodes: Record<string, number>;
}

/** What {@link validateSitemap} resolves to. */
export interface ValidationResult {
  /** The sources, as named in diagnostics. */
  sources: string[];
  /** Findings in the order found (at most `maxDiagnostics`; `rules` counts all of them). */
  diagnostics: Diagnostic[];
  /** One row per rule that fired, errors first, then by count. */
  rules: RuleCount[];
  summary: ValidationSummary;
  /** Occurrences per sitemap (as named in diagnostics; `''` for the site as a whole) and rule code. */
  perSitemap: Record<string, Record<string, number>>;
  /** Facts about each sitemap read (format, entries, bytes…), from the parser. */
  sitemaps: SitemapInfo[];
  stats: ValidationStats;
  /** ISO times of the run. */
  startedAt: string;
  finishedAt: string;
  /** The settings that shaped the run, for the report header. */
  settings: {
    recursive: boolean;
    live: boolean;
    agent: string;
    sitemapUrl?: string;
    robots?: string;
    /** With `discover`: the sitemaps found. */
    discovered?: string[];
  };
}
