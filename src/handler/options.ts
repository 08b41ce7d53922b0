/** The handler's options, checked and completed once (the same checks as every entry point). */
import { wholeNumber } from '../core/checks.js';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { MAX_URLS } from '../core/limits.js';
import { locationPrefix } from '../core/url.js';
import type { Extension } from '../writer/serialize.js';
import { MemoryCache } from './cache.js';
import type {
  Compressor,
  EntriesSource,
  FileSource,
  HandlerCache,
  PagedSource,
  SitemapHandlerOptions,
  SourceVersion,
} from './types.js';

export type ResolvedSource =
  | { kind: 'entries'; entries: EntriesSource }
  | { kind: 'paged'; paged: PagedSource }
  | { kind: 'files'; files: FileSource };

export interface ResolvedHandlerOptions {
  /** `https://example.com/dir/`. */
  prefix: string;
  /** The path of `prefix`: `/dir/`. */
  basePath: string;
  source: ResolvedSource;
  version: () => SourceVersion | Promise<SourceVersion>;
  maxUrlsPerFile: number;
  /** The format the set's files are published in (the index is XML either way). */
  format: 'xml' | 'txt';
  /** The views' links to a file of the set: `.txt` for a text set (see html-view.ts). */
  xmlSuffix: string;
  /** The views' link to the index. */
  indexSuffix: string;
  cacheControl: string;
  xslHref: string | undefined;
  robots: string | undefined;
  allowHosts: readonly string[];
  extensions: readonly Extension[];
  cache: HandlerCache | undefined;
  brotli: Compressor | undefined;
  gzip: Compressor | undefined;
  siteName: string;
  onDiagnostic: DiagnosticHandler | undefined;
  onError: ((error: unknown) => void) | undefined;
  now: () => Date;
}

function bad(message: string, hint?: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message, hint === undefined ? {} : { hint });
}

function resolveSource(s: unknown): ResolvedSource {
  if (typeof s === 'function') return { kind: 'entries', entries: s as EntriesSource };
  if (typeof s === 'object' && s !== null) {
    const o = s as Partial<PagedSource & FileSource>;
    if (typeof o.count === 'function' && typeof o.page === 'function')
      return { kind: 'paged', paged: s as PagedSource };
    if (typeof o.files === 'function' && typeof o.entries === 'function')
      return { kind: 'files', files: s as FileSource };
  }
  throw bad(
    'source must be a function returning entries, a paged source { count(section), page(index, size, section) }, or a file source { files(), entries(name) }',
    'see docs/serving.md',
  );
}

function compressor(name: string, c: unknown): Compressor | undefined {
  if (c === undefined) return undefined;
  if (typeof c !== 'function')
    throw bad(`${name} must be a function returning a { readable, writable } pair`);
  return c as Compressor;
}

/** Checks and completes the options once; contradictions are refused here, not on a request. */
export function resolveHandlerOptions(o: SitemapHandlerOptions): ResolvedHandlerOptions {
  if (typeof o !== 'object' || o === null) throw bad('createSitemapHandler needs an options object');
  let prefix: string;
  try {
    prefix = locationPrefix(o.baseUrl, 'dir');
  } catch {
    throw bad(
      `baseUrl "${String(o.baseUrl)}" must be an absolute http(s) URL such as https://example.com/`,
      'give the public URL of the folder sitemap.xml is served from',
    );
  }
  const source = resolveSource(o.source);
  if (o.version !== undefined && typeof o.version !== 'function')
    throw bad('version must be a function returning a string, a number or a Date');
  const fixed = `boot-${Date.now().toString(36)}`;
  const maxAge = wholeNumber('maxAge', o.maxAge, 3600, { min: 0, max: 31_536_000 });
  const cacheBytes = wholeNumber('cacheBytes', o.cacheBytes, 64 * 1024 * 1024, { min: 0 });
  if (o.cache !== undefined && o.cache !== false) {
    const c = o.cache as Partial<HandlerCache>;
    if (typeof c.get !== 'function' || typeof c.set !== 'function')
      throw bad('cache must be false or an object with get(key) and set(key, bytes)');
  }
  if (o.robots !== undefined && typeof o.robots !== 'boolean' && typeof o.robots !== 'string')
    throw bad('robots must be true, false or the text of robots.txt');
  const robots =
    o.robots === true ? 'User-agent: *\nAllow: /\n' : typeof o.robots === 'string' ? o.robots : undefined;
  if (o.format !== undefined && o.format !== 'xml' && o.format !== 'txt')
    throw bad(`format must be xml or txt, got ${JSON.stringify(o.format)}`);
  const format = o.format ?? 'xml';
  const host = new URL(prefix).host;
  return {
    prefix,
    basePath: new URL(prefix).pathname,
    source,
    version: o.version ?? (() => fixed),
    maxUrlsPerFile: wholeNumber('maxUrlsPerFile', o.maxUrlsPerFile, MAX_URLS, { min: 1, max: MAX_URLS }),
    format,
    xmlSuffix: `.${format}`,
    indexSuffix: '.xml',
    cacheControl: maxAge === 0 ? 'no-cache' : `public, max-age=${maxAge}`,
    xslHref: o.xsl === true ? `${prefix}sitemap.xsl` : undefined,
    robots,
    allowHosts: [...(o.allowHosts ?? [])],
    extensions: [...(o.extensions ?? [])],
    cache:
      o.cache === false ? undefined : (o.cache ?? (cacheBytes > 0 ? new MemoryCache(cacheBytes) : undefined)),
    brotli: compressor('brotli', o.brotli),
    gzip: compressor('gzip', o.gzip),
    siteName: o.siteName ?? host,
    onDiagnostic: o.onDiagnostic,
    onError: o.onError,
    now: o.now ?? (() => new Date()),
  };
}
