import { wholeNumber } from '../core/checks.js';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { MAX_BYTES, MAX_URLS } from '../core/limits.js';
import { locationPrefix } from '../core/url.js';
import { type FeedOptions, type ResolvedFeed, resolveFeed } from './feed-options.js';
import { ADDED_EXTENSION, FILE_NAME } from './file-names.js';
import { type LastmodPolicy, resolveLastmodPolicy } from './lastmod-policy.js';
import { resolveNewsWindow } from './news-window.js';
import type { Extension } from './serialize.js';
import type { Sink } from './sink.js';
import type { StreamFactory } from './web-stream-sink.js';

/**
 * Where a set goes when it is not a folder: `'memory'` (the result's `memory` map), `{ streams }`
 * (one web `WritableStream` per file, asked for by name), or any {@link Sink}.
 */
export type WriterOutput = 'memory' | { streams: StreamFactory } | Sink;

/**
 * File names of a set, without extensions (`.xml` or `.txt`, and `.gz`, are added). Names are 1 to
 * 100 of A-Z, a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit, and unique in the set.
 */
export interface FileNames {
  /**
   * The entry point. Extra indexes (more than `maxSitemapsPerIndex` children) are `NAME-2`, … (for
   * the default, `sitemap-index-2`, …). @default 'sitemap'
   */
  index?: string;
  /**
   * The name of the Nth automatically rotated child of a section (N from 0; section '' for none).
   * @default (n, section) => `sitemap-${section ? `${section}-` : ''}${String(n + 1).padStart(5, '0')}`
   */
  child?: (n: number, section: string) => string;
}

/** What the writer does with an invalid record (see {@link WriteSitemapsOptions.onInvalid}). */
export type OnInvalid = 'fail' | 'skip' | 'drop-field';

/** Options of {@link writeSitemaps}. The caller's object is never modified. */
export interface WriteSitemapsOptions {
  /**
   * Folder the sitemaps go into (created when missing), atomically. Only files of the writer's
   * manifest are ever replaced or removed. Give this or `output`.
   */
  outDir?: string;
  /** Write into memory or web streams instead of a folder (see {@link WriterOutput}). */
  output?: WriterOutput;
  /**
   * Write the manifest (`.sitemapkit-manifest.json`: every file and URL with a change hash) with
   * the set. A folder always has one (the next run relies on it). @default true for a folder or a Sink, false for memory and streams
   */
  manifest?: boolean;
  /** Public URL of `outDir`, e.g. `https://example.com/`. Entries must lie under it (the location rule). */
  baseUrl: string;
  /** Compress every file; names gain `.gz`. `{level}` picks the zlib level. @default false */
  gzip?: boolean | { level: number };
  /** `xml` (urlset and index) or `txt` (one URL a line; several files get an XML index). @default 'xml' */
  format?: 'xml' | 'txt';
  /** URLs per file, 1 to 50,000. @default 50000 */
  maxUrlsPerFile?: number;
  /** Uncompressed bytes per file, 1,024 to 52,428,800. @default 52428800 */
  maxBytesPerFile?: number;
  /** Children per index file, 1 to 50,000 (extra indexes are `sitemap-index-2.xml`, …). @default 50000 */
  maxSitemapsPerIndex?: number;
  /**
   * The set's file names, for a site that must keep another generator's names (see
   * {@link FileNames}). @default `sitemap.xml`, `sitemap-00001.xml`, …
   */
  names?: FileNames;
  /** Write an index over the children even when one file holds every URL. @default false */
  alwaysIndex?: boolean;
  /**
   * What an invalid or duplicate record does: `fail` writes nothing and throws; `skip` leaves it
   * out and counts it; `drop-field` keeps a record whose `loc` is good without its bad optional
   * fields (lastmod, changefreq, priority, an image, a video, news, its alternates), with a
   * warning each, and leaves out the rest like `skip`. Under both, a one-sided or inconsistent
   * hreflang group loses its alternates (with a warning), so the set passes `validate`.
   * @default 'fail'
   */
  onInvalid?: OnInvalid;
  /** Hosts that cross-submit to this sitemap (their robots.txt names it): their URLs pass the location rule. @default [] */
  allowHosts?: readonly string[];
  /** Keep the tags Google dropped in 2022. @default false */
  legacy?: boolean;
  /** Extension namespaces to declare on every urlset. @default those seen in the first 1,000 entries */
  extensions?: readonly Extension[];
  /** `true` copies the bundled stylesheet as `sitemap.xsl` and references it; a string references that URL. @default false */
  xsl?: boolean | string;
  /** Also write the HTML site map for people (`sitemap.html` and its pages). @default false */
  html?: boolean | { siteName?: string; linksPerPage?: number };
  /** A robots.txt file whose `Sitemap:` lines for this output are added or replaced; other lines stay as they are. */
  updateRobots?: string;
  /** The clock for index lastmods and the manifest; `SOURCE_DATE_EPOCH` (seconds) wins when set. @default () => new Date() */
  now?: () => Date;
  /** Detect duplicate locs (a hashed set: about 8 bytes of memory per URL). @default true */
  dedupe?: boolean;
  /**
   * News entries published longer ago than this before the build time lose their `<news:news>`
   * block (the URL stays): a duration such as `'2d'` or `'48h'`, or milliseconds; `false`, `0` or
   * `'off'` keeps every block. See docs/news-and-feeds.md. @default '2d' (Google News' window)
   */
  newsWindow?: number | string | false;
  /**
   * A delta feed `feed.xml` (Atom 1.0 or RSS 2.0) of the newest entries by lastmod or news
   * publication date, beside the sitemaps. See docs/news-and-feeds.md. @default no feed
   */
  feed?: FeedOptions;
  /**
   * What to do when the set's lastmods look untrustworthy (all one value, or all within minutes of
   * the build time): `warn` (a warning), `drop` (write the set without lastmod, with the warning),
   * `keep` (say nothing). See docs/news-and-feeds.md. @default 'warn'
   */
  lastmodPolicy?: LastmodPolicy;
  /** Receives every finding (invalid records, dropped legacy tags, …). */
  onDiagnostic?: DiagnosticHandler;
  /** Called about every 1,000 records with the number read so far. */
  onProgress?: (records: number) => void;
  /** Aborts the run; the previous set stays in place. */
  signal?: AbortSignal;
}

export type ResolvedOutput =
  | { kind: 'folder'; dir: string }
  | { kind: 'memory' }
  | { kind: 'streams'; factory: StreamFactory }
  | { kind: 'sink'; sink: Sink };

export interface ResolvedWriterOptions {
  output: ResolvedOutput;
  manifest: boolean;
  baseUrl: string;
  prefix: string;
  gzip: false | { level: number };
  format: 'xml' | 'txt';
  maxUrlsPerFile: number;
  maxBytesPerFile: number;
  maxSitemapsPerIndex: number;
  /** The entry point's name, without extension. */
  indexName: string;
  /** Names rotated children; undefined: the writer's own names. */
  childName: ((n: number, section: string) => string) | undefined;
  alwaysIndex: boolean;
  onInvalid: OnInvalid;
  allowHosts: readonly string[];
  legacy: boolean;
  extensions: readonly Extension[] | undefined;
  xsl: false | { bundled: true } | { href: string };
  html: false | { siteName?: string; linksPerPage?: number };
  updateRobots: string | undefined;
  buildTime: Date;
  dedupe: boolean;
  /** 0: off. */
  newsWindowMs: number;
  feed: ResolvedFeed | undefined;
  lastmodPolicy: LastmodPolicy;
  onDiagnostic: DiagnosticHandler | undefined;
  onProgress: ((records: number) => void) | undefined;
  signal: AbortSignal | undefined;
}

function bad(message: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message);
}

function flag(name: string, v: unknown): boolean {
  if (v === undefined) return false;
  if (typeof v !== 'boolean') throw bad(`${name} must be true or false, got ${String(v)}`);
  return v;
}

/** The clock: `SOURCE_DATE_EPOCH` (reproducible builds) wins over `now`, which wins over the system clock. */
export function buildTimeFrom(now: (() => Date) | undefined, env: NodeJS.ProcessEnv = process.env): Date {
  const epoch = env['SOURCE_DATE_EPOCH'];
  if (epoch !== undefined && epoch !== '') {
    if (!/^\d+$/.test(epoch)) throw bad(`SOURCE_DATE_EPOCH must be whole seconds since 1970, got "${epoch}"`);
    return new Date(Number(epoch) * 1000);
  }
  const d = now?.() ?? new Date();
  if (Number.isNaN(d.getTime())) throw bad('now() returned an invalid Date');
  // Whole seconds: index lastmods and the manifest need no more, and it keeps them short.
  return new Date(Math.floor(d.getTime() / 1000) * 1000);
}

function resolveOutput(o: WriteSitemapsOptions): ResolvedOutput {
  const out = o?.output;
  if (out === undefined) {
    if (typeof o?.outDir !== 'string' || o.outDir === '') throw bad('outDir is required');
    return { kind: 'folder', dir: o.outDir };
  }
  if (o.outDir !== undefined) throw bad('give outDir or output, not both');
  if (out === 'memory') return { kind: 'memory' };
  if (typeof out === 'object' && out !== null) {
    if ('streams' in out && typeof out.streams === 'function')
      return { kind: 'streams', factory: out.streams };
    const sink = out as Partial<Sink>;
    if (
      typeof sink.start === 'function' &&
      typeof sink.create === 'function' &&
      typeof sink.put === 'function' &&
      typeof sink.commit === 'function' &&
      typeof sink.abort === 'function' &&
      typeof sink.locate === 'function'
    ) {
      return { kind: 'sink', sink: out as Sink };
    }
  }
  throw bad(
    "output must be 'memory', { streams: (name) => WritableStream }, or a Sink (start, create, put, commit, abort, locate)",
  );
}

function resolveNames(names: FileNames | undefined): Pick<ResolvedWriterOptions, 'indexName' | 'childName'> {
  if (names === undefined) return { indexName: 'sitemap', childName: undefined };
  if (typeof names !== 'object' || names === null)
    throw bad('names must be an object such as { index: "sitemap-index", child: (n) => "sitemap-" + n }');
  const index = names.index ?? 'sitemap';
  if (typeof index !== 'string' || !FILE_NAME.test(index) || ADDED_EXTENSION.test(index)) {
    throw bad(
      `names.index must be a file name without extension (1–100 of A-Z, a-z, 0-9, ".", "_" and "-"; .xml and .gz are added), got ${JSON.stringify(index)}`,
    );
  }
  const child = names.child;
  if (child !== undefined && typeof child !== 'function')
    throw bad('names.child must be a function (n, section) => name, such as (n) => "sitemap-" + n');
  return { indexName: index, childName: child };
}

/** Checks and completes the options once; contradictions are refused here, not deep in the run. */
export function resolveWriterOptions(o: WriteSitemapsOptions): ResolvedWriterOptions {
  const output = resolveOutput(o);
  const manifest = o.manifest ?? (output.kind === 'folder' || output.kind === 'sink');
  if (typeof manifest !== 'boolean') throw bad(`manifest must be true or false, got ${String(manifest)}`);
  if (!manifest && output.kind === 'folder') {
    throw bad('a folder always gets its manifest (the next run relies on it); leave manifest out');
  }
  if (typeof o.baseUrl !== 'string') throw bad('baseUrl (the public URL of outDir) is required');
  let prefix: string;
  try {
    prefix = locationPrefix(o.baseUrl, 'dir');
  } catch {
    throw bad(`baseUrl "${o.baseUrl}" must be an absolute http(s) URL such as https://example.com/`);
  }
  const format = o.format ?? 'xml';
  if (format !== 'xml' && format !== 'txt') throw bad(`format must be xml or txt, got ${String(format)}`);
  let gzip: false | { level: number } = false;
  if (o.gzip === true) gzip = { level: 6 };
  else if (typeof o.gzip === 'object' && o.gzip !== null)
    gzip = { level: wholeNumber('gzip.level', o.gzip.level, 6, { min: 0, max: 9 }) };
  const onInvalid = o.onInvalid ?? 'fail';
  if (onInvalid !== 'fail' && onInvalid !== 'skip' && onInvalid !== 'drop-field')
    throw bad(`onInvalid must be fail, skip or drop-field, got ${String(onInvalid)}`);
  let xsl: ResolvedWriterOptions['xsl'] = false;
  if (o.xsl === true) xsl = { bundled: true };
  else if (typeof o.xsl === 'string') {
    if (o.xsl === '') throw bad('xsl must be a URL, or true for the bundled stylesheet');
    xsl = { href: o.xsl };
  }
  if (format === 'txt' && o.extensions !== undefined && o.extensions.length > 0) {
    throw bad('extensions are XML only; text sitemaps carry URLs alone');
  }
  const html = o.html === true ? {} : typeof o.html === 'object' && o.html !== null ? { ...o.html } : false;
  return {
    output,
    manifest,
    baseUrl: prefix,
    prefix,
    gzip,
    format,
    maxUrlsPerFile: wholeNumber('maxUrlsPerFile', o.maxUrlsPerFile, MAX_URLS, { min: 1, max: MAX_URLS }),
    maxBytesPerFile: wholeNumber('maxBytesPerFile', o.maxBytesPerFile, MAX_BYTES, {
      min: 1024,
      max: MAX_BYTES,
    }),
    maxSitemapsPerIndex: wholeNumber('maxSitemapsPerIndex', o.maxSitemapsPerIndex, MAX_URLS, {
      min: 1,
      max: MAX_URLS,
    }),
    ...resolveNames(o.names),
    alwaysIndex: flag('alwaysIndex', o.alwaysIndex),
    onInvalid,
    allowHosts: [...(o.allowHosts ?? [])],
    legacy: o.legacy === true,
    extensions: o.extensions === undefined ? undefined : [...o.extensions],
    xsl,
    html,
    updateRobots: o.updateRobots,
    buildTime: buildTimeFrom(o.now),
    dedupe: o.dedupe !== false,
    newsWindowMs: resolveNewsWindow(o.newsWindow),
    feed: resolveFeed(o.feed),
    lastmodPolicy: resolveLastmodPolicy(o.lastmodPolicy, output),
    onDiagnostic: o.onDiagnostic,
    onProgress: o.onProgress,
    signal: o.signal,
  };
}
