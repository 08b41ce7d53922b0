/**
 * Public types of the parser: what it reads, what it yields and the options of each entry point.
 */

import type { Dispatcher } from 'undici';
import type { Diagnostic, DiagnosticHandler } from '../core/diagnostics.js';
import type { SitemapEntry, SitemapReference } from '../core/entry.js';
import type { AddressPolicy } from '../http/address.js';
import type { HttpClient } from '../http/client.js';
import type { FetchLike } from '../http/types.js';

/** The formats the parser recognises, sniffed from content (never from the file name or Content-Type). */
export type SitemapFormat = 'urlset' | 'sitemapindex' | 'text' | 'rss' | 'atom';

/** What {@link parseSitemap} yields: a page (no `kind`), or a child of an index that is not followed. */
export type SitemapItem = SitemapEntry | SitemapReference;

/** A page found while walking a tree, with the sitemap (URL or path) it came from. */
export type TreeEntry = SitemapEntry & { sitemap: string };

/**
 * Where a sitemap comes from: a file path or an http(s) URL (a string or `URL`), bytes, `{ text }`,
 * a Node readable stream, a web `ReadableStream`, or any async iterable of byte chunks.
 */
export type SitemapSource =
  | string
  | URL
  | Uint8Array
  | { text: string }
  | NodeJS.ReadableStream
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array>;

/** Where an item starts in its document: its `<url>`, `<sitemap>`, `<item>` or `<entry>` tag, or its line of a text sitemap. */
export interface ItemPosition {
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /**
   * The `<loc>` (or feed link, or line) exactly as written, entities decoded and blanks trimmed;
   * present only when it differs from the item's `loc`, its normal form.
   */
  written?: string;
}

/** Options of the pure push parser {@link SitemapParser}. */
export interface SitemapParserOptions {
  /** Receives each page entry and index child, in document order, with where it starts. */
  onItem: (item: SitemapItem, position: ItemPosition) => void;
  /** Receives each finding. */
  onDiagnostic: DiagnosticHandler;
  /** The name used in diagnostics (`Diagnostic.sitemap`): a URL or a path. */
  sitemap?: string;
  /**
   * The URL(s) the sitemap lives at. When given, the location rule applies: entries must lie under
   * the sitemap's folder on its scheme, host and port (any of the URLs, for example before and
   * after a redirect). @default no location check
   */
  sitemapUrl?: string | readonly string[];
  /** Hosts that cross-submit to this sitemap (their robots.txt names it). @default [] */
  allowHosts?: readonly string[];
  /**
   * Called instead of reporting `url-outside-location`, so that an adapter can check robots.txt
   * cross-submits before deciding. The item is delivered through `onItem` right after.
   */
  onOutsideLocation?: (diagnostic: Diagnostic, item: SitemapItem) => void;
  /** Uncompressed bytes read at most; the rest is refused with `sitemap-too-large`. @default 52,428,800 */
  maxBytes?: number;
  /** Deepest element nesting. @default 64 */
  maxElementDepth?: number;
}

/** Facts about one sitemap, known once it has been read. */
export interface SitemapInfo {
  /** The URL or path as given (the name used in diagnostics). */
  sitemap: string;
  /** The URL the content came from, after redirects (fetched sitemaps only). */
  url?: string;
  /** The format sniffed from the content; absent when it could not be read. */
  format?: SitemapFormat;
  /** Whether sitemapkit removed a gzip layer. */
  gzip: boolean;
  /** Page entries yielded. */
  entries: number;
  /** Index children found. */
  sitemaps: number;
  /** Bytes parsed (after decompression). */
  bytes: number;
  /** Bytes read from the source (compressed size for gzip). */
  downloadedBytes: number;
  /** Bytes gunzip produced (0 without gzip); at most the cap plus one chunk. */
  inflatedBytes: number;
  errors: number;
  warnings: number;
  /** In a tree: the index that listed this sitemap. */
  parent?: string;
  /** In a tree: 0 for a root, 1 for its children, and so on. */
  depth?: number;
}

/** Options shared by every entry point that reads sitemaps. */
export interface ParseOptions {
  /** Receives each finding as it happens. */
  onDiagnostic?: DiagnosticHandler;
  /** Receives the facts about each sitemap once it is read. */
  onSitemap?: (info: SitemapInfo) => void;
  /**
   * Receives each page entry and index child as soon as it is read, with the sitemap it is in (as
   * named in diagnostics) and where it starts, before the iteration yields it. For callers that
   * need positions (the validator); in a tree, items a cap later drops are seen here too.
   */
  onItem?: (item: SitemapItem, sitemap: string, position: ItemPosition) => void;
  /**
   * The public URL of a sitemap read from a file, bytes or a stream: enables the location rule.
   * Fetched sitemaps use their own URL. @default none
   */
  sitemapUrl?: string;
  /** Hosts whose robots.txt cross-submits to the sitemap, known in advance. @default [] */
  allowHosts?: readonly string[];
  /**
   * Fetch robots.txt of hosts found outside the sitemap's location, to honour cross-submits
   * (sitemaps.org): one request per host, at most 20 hosts per parse.
   * @default true for fetched sitemaps, false otherwise
   */
  crossSubmit?: boolean;
  /** Uncompressed bytes read per sitemap (decompression stops there). @default 52,428,800 (50 MiB) */
  maxBytes?: number;
  /** Bytes downloaded per sitemap (before decompression). @default 52,428,800 */
  maxDownloadBytes?: number;
  /** Deepest element nesting accepted. @default 64 */
  maxElementDepth?: number;
  /**
   * Yield each `loc` (of pages and index children) exactly as written, entities decoded and blanks
   * trimmed, instead of its normal form (WHATWG serialisation: percent-encoding, punycode, lower-case
   * scheme and host, `/` for an empty path). Other URL fields stay normalised; a tree still follows
   * and de-duplicates children by their normal form. @default false
   */
  rawUrls?: boolean;
  /** Time allowed for one request, from connecting to the last byte, in milliseconds. @default 30,000 */
  timeoutMs?: number;
  /** Redirects followed per request. @default 5 */
  maxRedirects?: number;
  /**
   * Extra request headers (credentials too), sent to the origins of the sitemaps you give
   * (robots.txt and children there included), never to another origin, also not after a redirect.
   */
  headers?: Readonly<Record<string, string>>;
  /** The User-Agent of every request. @default 'sitemapkit/0.1 (+https://github.com/sitemapkit/sitemapkit)' */
  userAgent?: string;
  /**
   * Your own fetch function, for proxies or test doubles. It hides the address connected to, so
   * the address policy can judge only IP literals in URLs. @default a keep-alive undici pool
   */
  fetch?: FetchLike;
  /** Your own undici `Dispatcher` (a `ProxyAgent`, say) instead of sitemapkit's pool. */
  dispatcher?: Dispatcher;
  /**
   * Moves from a public address to a private one (loopback, 10/8, 192.168/16, link-local, cloud
   * metadata…) by a redirect or an index child: refused (`default`), no private address at all
   * (`strict`, for services parsing untrusted sitemaps), or no check (`off`). @default 'default'
   */
  addressPolicy?: AddressPolicy;
  /** A client shared between calls (its pool, its address policy); the caller closes it. */
  httpClient?: HttpClient;
  /** Cancels the work; iteration then throws a `SitemapkitError` with code `ERR_ABORTED`. */
  signal?: AbortSignal;
  /** Diagnostics kept on the result (`onDiagnostic` still gets all of them). @default 10,000 */
  maxDiagnostics?: number;
}

/** Options of {@link parseSitemapTree}. */
export interface TreeOptions extends ParseOptions {
  /** Index levels followed below a root (an index listing indexes counts 2). @default 10 */
  maxDepth?: number;
  /**
   * Sitemaps in flight at once: the one whose entries are being handed out and the next ones in
   * line, opened (fetched) and read ahead of their turn. Entries still come out in the order of a
   * walk with concurrency 1. @default 4
   */
  concurrency?: number;
  /**
   * Worker threads that read (inflate, parse, check) an index's children while this thread fetches
   * and hands the entries out; given, the roots are read in them too. 0 reads everything in this
   * thread. Asked for, never the default: today the workers' own start-up, garbage collection and
   * messages cost more than the overlap saves (docs/performance.md, Trees). @default 0
   */
  threads?: number;
  /** Sitemaps read per tree, roots included. @default 10,000 */
  maxSitemaps?: number;
  /** Page entries yielded per tree. @default 10,000,000 */
  maxUrls?: number;
}

/** Options of {@link discoverSitemaps}. */
export interface DiscoverOptions
  extends Pick<
    ParseOptions,
    | 'onDiagnostic'
    | 'timeoutMs'
    | 'maxRedirects'
    | 'headers'
    | 'userAgent'
    | 'fetch'
    | 'dispatcher'
    | 'addressPolicy'
    | 'httpClient'
    | 'signal'
  > {
  /** Also probe the well-known paths when robots.txt lists sitemaps. @default true */
  probeWellKnown?: boolean;
}

/** A sitemap found by {@link discoverSitemaps}. */
export interface DiscoveredSitemap {
  url: string;
  /** `robots`: a Sitemap: line of robots.txt; `well-known`: a conventional path that answered with a sitemap. */
  source: 'robots' | 'well-known';
}

/**
 * The result of a parse: iterate it once with `for await`; `diagnostics` and `sitemaps` fill up
 * while it runs and are complete when the iteration ends.
 */
export interface SitemapParse<T> extends AsyncIterable<T> {
  /** Findings so far (at most `maxDiagnostics`). */
  readonly diagnostics: readonly Diagnostic[];
  /** Facts about each sitemap read so far. */
  readonly sitemaps: readonly SitemapInfo[];
  /** Error diagnostics so far, including those not kept in `diagnostics`. */
  readonly errorCount: number;
}

/** What {@link parseSitemapToArray} resolves to. */
export interface ParsedSitemap {
  items: SitemapItem[];
  diagnostics: Diagnostic[];
  sitemaps: SitemapInfo[];
  errorCount: number;
}
