/**
 * One options bag per entry point, resolved once into a complete internal form; contradictions
 * and wrong types throw `ERR_OPTIONS` before any work starts.
 */

import { wholeNumber } from '../core/checks.js';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { MAX_BYTES } from '../core/limits.js';
import { HttpClient } from '../http/client.js';
import type { HttpOptions } from './http.js';
import type { DiscoverOptions, ParseOptions, SitemapInfo, TreeOptions } from './types.js';

export interface ResolvedParseOptions {
  onDiagnostic: DiagnosticHandler | undefined;
  onSitemap: ((info: SitemapInfo) => void) | undefined;
  onItem: ParseOptions['onItem'];
  sitemapUrl: string | undefined;
  allowHosts: readonly string[];
  crossSubmit: boolean | undefined;
  maxBytes: number;
  maxDownloadBytes: number;
  maxElementDepth: number;
  maxDiagnostics: number;
  rawUrls: boolean;
  http: HttpOptions;
}

export interface ResolvedTreeOptions extends ResolvedParseOptions {
  maxDepth: number;
  concurrency: number;
  maxSitemaps: number;
  maxUrls: number;
  /** Parse workers (0: none). */
  threads: number;
  /** Whether several roots are read in the workers too (threads given), or only the children (the default). */
  threadsForRoots: boolean;
}

/** Time allowed per sitemap request, body included, unless `timeoutMs` says otherwise. */
export const SITEMAP_TIMEOUT_MS = 30_000;

/** The HTTP side of an entry point's options: the given client, or a new one the entry point closes. */
export function resolveHttpOptions(o: DiscoverOptions): HttpOptions {
  const timeoutMs = wholeNumber('timeoutMs', o.timeoutMs, SITEMAP_TIMEOUT_MS, { min: 1, unbounded: true });
  const maxRedirects = wholeNumber('maxRedirects', o.maxRedirects, 5, { min: 0, unbounded: true });
  const client =
    o.httpClient ??
    new HttpClient({
      fetch: o.fetch,
      dispatcher: o.dispatcher,
      headers: o.headers,
      userAgent: o.userAgent,
      addressPolicy: o.addressPolicy,
    });
  return {
    client,
    ownsClient: o.httpClient === undefined,
    userAgent: client.userAgent,
    timeoutMs,
    maxRedirects,
    signal: o.signal,
  };
}

/** Closes the entry point's own client (a shared one stays open). */
export async function closeHttp(http: HttpOptions): Promise<void> {
  if (http.ownsClient) await http.client.close();
}

export function resolveParseOptions(o: ParseOptions = {}): ResolvedParseOptions {
  if (o.sitemapUrl !== undefined && !/^https?:\/\/[^/]/i.test(o.sitemapUrl)) {
    throw new SitemapkitError('ERR_OPTIONS', `sitemapUrl "${o.sitemapUrl}" is not an absolute http(s) URL`, {
      hint: 'give the public URL the sitemap is served at, such as https://www.example.com/sitemap.xml',
    });
  }
  return {
    onDiagnostic: o.onDiagnostic,
    onSitemap: o.onSitemap,
    onItem: o.onItem,
    sitemapUrl: o.sitemapUrl,
    allowHosts: [...(o.allowHosts ?? [])],
    crossSubmit: o.crossSubmit,
    maxBytes: wholeNumber('maxBytes', o.maxBytes, MAX_BYTES, { min: 1, unbounded: true }),
    maxDownloadBytes: wholeNumber('maxDownloadBytes', o.maxDownloadBytes, MAX_BYTES, {
      min: 1,
      unbounded: true,
    }),
    maxElementDepth: wholeNumber('maxElementDepth', o.maxElementDepth, 64, { min: 1, unbounded: true }),
    maxDiagnostics: wholeNumber('maxDiagnostics', o.maxDiagnostics, 10_000, { min: 0, unbounded: true }),
    rawUrls: o.rawUrls === true,
    http: resolveHttpOptions(o),
  };
}

export function resolveTreeOptions(o: TreeOptions = {}): ResolvedTreeOptions {
  const concurrency = wholeNumber('concurrency', o.concurrency, 4, { min: 1, unbounded: true });
  // Parse workers are asked for, never the default: on the 2-core machine, quiet, twenty 50,000-URL
  // gzip children took 3.95 s with two workers against 3.65 s in one thread (bench/parse-tree.mjs;
  // each worker's own JIT, garbage collector and the codec cost more CPU than the overlap saves),
  // at twice the peak RSS.
  const threads = wholeNumber('threads', o.threads, 0, { min: 0, max: 256 });
  return {
    ...resolveParseOptions(o),
    maxDepth: wholeNumber('maxDepth', o.maxDepth, 10, { min: 0, unbounded: true }),
    concurrency,
    maxSitemaps: wholeNumber('maxSitemaps', o.maxSitemaps, 10_000, { min: 1, unbounded: true }),
    maxUrls: wholeNumber('maxUrls', o.maxUrls, 10_000_000, { min: 1, unbounded: true }),
    threads,
    threadsForRoots: o.threads !== undefined,
  };
}
