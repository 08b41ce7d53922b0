/**
 * What the sitemap handler serves from: the shapes of its sources, its cache and its compressors.
 * Only types: nothing here runs, so the `sitemapkit/handler` subpath stays free of Node.
 */
import type { DiagnosticHandler } from '../core/diagnostics.js';
import type { SitemapEntryInput } from '../core/entry.js';
import type { Extension } from '../writer/serialize.js';

/** Entries as a source yields them: an array, a sync or an async iterable. */
export type EntryList =
  | Iterable<SitemapEntryInput>
  | AsyncIterable<SitemapEntryInput>
  | Promise<Iterable<SitemapEntryInput> | AsyncIterable<SitemapEntryInput>>;

/**
 * Every entry of the set, in a stable order, each time it is called. Files are cut as the writer
 * cuts them (50,000 URLs or 50 MB, and one series per `section`). Good for sets of a few files:
 * serving a child reads the source up to that child.
 */
export type EntriesSource = () => EntryList;

/**
 * A source that can be read a page at a time (a database table with `LIMIT`/`OFFSET` or keyset
 * paging): child N of a section is `page(N, maxUrlsPerFile, section)`, so serving a child reads
 * only its own rows.
 */
export interface PagedSource {
  /** Sections, each with its own series of children (`sitemap-SECTION-00001.xml`). @default one series without a name */
  sections?: readonly string[] | (() => readonly string[] | Promise<readonly string[]>);
  /** Entries in the section ('' when there are no sections). */
  count(section: string): number | Promise<number>;
  /** The entries of page `index` (0-based) of `size` entries, in a stable order. */
  page(index: number, size: number, section: string): EntryList;
}

/**
 * A set whose entries already know their file (stable shards, as a site store keeps them), so
 * that children keep their URLs as the site changes instead of shifting with every insert.
 */
export interface FileSource {
  /**
   * The children, in index order: names without extension (`products-a`), with their newest
   * lastmod, and a `version` when the source knows one per file (it changes exactly when the
   * file's content does): then a child keeps its `ETag`, `Last-Modified` and cached bytes across
   * versions of the set for as long as its own version stays.
   */
  files(): Promise<
    ReadonlyArray<{ name: string; lastmod?: string | undefined; version?: string | number | undefined }>
  >;
  /** The entries of one child (never called for a name `files()` did not list). */
  entries(name: string): EntryList;
}

/** Any of the three sources. */
export type HandlerSource = EntriesSource | PagedSource | FileSource;

/** What `version()` returns: changes whenever the data does. A `Date` also becomes `Last-Modified`. */
export type SourceVersion = string | number | Date;

/** A compressor: bytes in, compressed bytes out (a `CompressionStream` has this shape). */
export type Compressor = () => { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };

/**
 * Where generated files are kept between requests, by key (the key names the source's version,
 * the file and its encoding). The handler's default keeps them in memory; an on-disk or shared
 * cache is any object of this shape.
 */
export interface HandlerCache {
  get(key: string): Uint8Array | undefined | Promise<Uint8Array | undefined>;
  set(key: string, body: Uint8Array): void | Promise<void>;
}

/** Options of {@link createSitemapHandler}. The caller's object is never modified. */
export interface SitemapHandlerOptions {
  /**
   * The public URL of the folder the sitemaps are served from, e.g. `https://example.com/`: the
   * entry point is `sitemap.xml` under it, and every entry must lie under it (the location rule).
   */
  baseUrl: string;
  /** Entries: a function returning them, a paged source, or a file source (see each type). */
  source: HandlerSource;
  /** Tells the cache when the data changed. @default a constant: files are generated once per process */
  version?: () => SourceVersion | Promise<SourceVersion>;
  /** URLs per child, 1 to 50,000 (also the page size of a paged source). @default 50000 */
  maxUrlsPerFile?: number;
  /**
   * The format the set is published in, as `generate --format` (and a site store's `format`) write
   * it: `txt` serves each child, and a set of one file, only as `NAME.txt` (`text/plain`), and the
   * index `sitemap.xml` (XML: the protocol has no text index) lists the `.txt` children; their
   * `.xml` paths are then not files of the set. With `xml`, every file also has a `.txt` twin.
   * @default 'xml'
   */
  format?: 'xml' | 'txt';
  /** `Cache-Control: public, max-age=…` in seconds (0: `no-cache`). @default 3600 */
  maxAge?: number;
  /** Serve the bundled stylesheet as `sitemap.xsl` and reference it from every file. @default false */
  xsl?: boolean;
  /**
   * Also answer `/robots.txt` (at the origin's root): this text (or `User-agent: *` + `Allow: /`)
   * with the `Sitemap:` line. @default false
   */
  robots?: boolean | string;
  /** Hosts that cross-submit to this sitemap: their URLs pass the location rule. @default [] */
  allowHosts?: readonly string[];
  /** Extension namespaces to declare on every urlset. @default each element declares its own */
  extensions?: readonly Extension[];
  /** The cache of generated files; `false` for none. @default in memory, up to `cacheBytes` */
  cache?: HandlerCache | false;
  /** Bytes the default in-memory cache may hold. @default 67,108,864 (64 MiB) */
  cacheBytes?: number;
  /** Brotli, for runtimes whose `CompressionStream` lacks it (the Node adapter supplies node:zlib). */
  brotli?: Compressor;
  /** gzip. @default `new CompressionStream('gzip')` */
  gzip?: Compressor;
  /** Site name in the HTML view's title. @default the host of baseUrl */
  siteName?: string;
  /** Receives every finding (invalid entries are left out, with an error each). */
  onDiagnostic?: DiagnosticHandler;
  /** Receives a failure of the source (the request is answered 500 without its details). */
  onError?: (error: unknown) => void;
  /** The clock for `Last-Modified` when the version is not a Date. @default () => new Date() */
  now?: () => Date;
}

/** The web-standard handler, and which request paths it answers. */
export interface SitemapHandler {
  (request: Request): Promise<Response>;
  /** Whether a request path (`/sitemap.xml`, …) is one of the handler's routes. */
  matches(pathname: string): boolean;
}
