/**
 * "The URLs of SOURCE" for `robots lint --sitemap` and `submit --sitemap/--since`: a folder the
 * writer wrote (its manifest), a manifest file, a plain-text list (one URL a line), or a sitemap
 * file or URL read by the parser (indexes followed). Everything is streamed.
 */
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { fsError } from '../core/fs-errors.js';
import type { AddressPolicy } from '../http/address.js';
import type { FetchLike } from '../http/types.js';
import { parseSitemapTree } from '../parser/tree.js';
import { readLines } from '../sources/lines.js';
import { MANIFEST_NAME, readManifestEntries, readManifestHeader } from '../writer/manifest.js';

/** One URL of a source, with what the source knows about it. */
export interface SourceUrl {
  loc: string;
  lastmod?: string;
  /** The manifest's 16-hex-digit hash of the entry's XML. */
  hash?: string;
  /** 1-based line in a text list. */
  line?: number;
}

/** What a source turned out to be. */
export type UrlSourceKind = 'manifest' | 'text' | 'xml';

/** Options of {@link readSourceUrls}. */
export interface UrlSourceOptions {
  /** Read when the source is `-`. */
  stdin?: NodeJS.ReadableStream;
  /** Your own fetch, for sitemap URLs. @default a keep-alive undici pool */
  fetch?: FetchLike;
  /** Your own undici `Dispatcher`, for sitemap URLs. */
  dispatcher?: Dispatcher;
  /** See `ParseOptions.addressPolicy`. @default 'default' */
  addressPolicy?: AddressPolicy;
  signal?: AbortSignal;
  /** Findings of the sitemap parser (bad XML, invalid entries), for XML sources. */
  onDiagnostic?: DiagnosticHandler;
}

/** Streams a text list: one URL a line; blank lines and `#` comments are skipped. */
export async function* readUrlList(path: string, options: UrlSourceOptions = {}): AsyncGenerator<SourceUrl> {
  let input: NodeJS.ReadableStream;
  if (path === '-') {
    if (options.stdin === undefined)
      throw new SitemapkitError('ERR_INPUT', 'no standard input to read', { where: '-' });
    input = options.stdin;
  } else {
    input = createReadStream(path);
  }
  try {
    for await (const [raw, line] of readLines(input)) {
      const loc = raw.trim();
      if (loc === '' || loc.startsWith('#')) continue;
      yield { loc, line };
    }
  } catch (cause) {
    throw inputError(path, cause);
  }
}

/** Which kind of source `source` is, without reading more than its first bytes. */
export async function sourceKind(source: string): Promise<UrlSourceKind> {
  if (source === '-') return 'text';
  if (/^https?:\/\//i.test(source)) return 'xml';
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(source);
  } catch (cause) {
    throw inputError(source, cause);
  }
  if (info.isDirectory() || source.endsWith('.json')) return 'manifest';
  const fh = await open(source, 'r').catch((cause: unknown) => {
    throw inputError(source, cause);
  });
  try {
    const head = new Uint8Array(512);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    if (bytesRead >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'xml';
    const text = new TextDecoder().decode(head.subarray(0, bytesRead)).replace(/^\uFEFF?\s*/, '');
    return text.startsWith('<') ? 'xml' : 'text';
  } finally {
    await fh.close();
  }
}

/**
 * Streams the URLs of a source. Manifests (a folder holding `.sitemapkit-manifest.json`, or the
 * file) give loc, lastmod and hash; text lists give loc and line.
 */
export async function* readSourceUrls(
  source: string,
  options: UrlSourceOptions = {},
): AsyncGenerator<SourceUrl> {
  const kind = await sourceKind(source);
  if (kind === 'text') {
    yield* readUrlList(source, options);
    return;
  }
  if (kind === 'manifest') {
    const header = await readManifestHeader(source).catch((cause: unknown) => {
      throw new SitemapkitError('ERR_INPUT', `cannot read the manifest: ${(cause as Error).message}`, {
        where: source,
        cause,
      });
    });
    if (header === undefined) {
      throw new SitemapkitError('ERR_INPUT', `no ${MANIFEST_NAME} here`, {
        where: source.endsWith('.json') ? source : join(source, MANIFEST_NAME),
        hint: 'give the output folder of `sitemapkit generate`, its manifest, or a text file of URLs',
      });
    }
    for await (const e of readManifestEntries(source)) {
      const u: SourceUrl = { loc: e.loc, hash: e.hash };
      if (e.lastmod !== undefined) u.lastmod = e.lastmod;
      yield u;
    }
    return;
  }
  yield* readXmlSitemapUrls(source, options);
}

/**
 * XML sitemaps, indexes (followed, with the parser's caps), feeds, gzip and live URLs, through the
 * sitemap parser. Bad content is reported to `onDiagnostic`; what can be read is yielded.
 */
async function* readXmlSitemapUrls(source: string, options: UrlSourceOptions): AsyncGenerator<SourceUrl> {
  const parse = parseSitemapTree(source, {
    // Only the locs are wanted, a few at most per second to an API: parse workers would add memory
    // and buy nothing.
    threads: 0,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    ...(options.addressPolicy === undefined ? {} : { addressPolicy: options.addressPolicy }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onDiagnostic === undefined ? {} : { onDiagnostic: options.onDiagnostic }),
  });
  for await (const e of parse) {
    const u: SourceUrl = { loc: e.loc };
    if (e.lastmod !== undefined) u.lastmod = e.lastmod;
    yield u;
  }
}

function inputError(where: string, cause: unknown): unknown {
  return fsError(cause, {
    path: where,
    doing: 'read the URLs',
    ...((cause as { code?: unknown }).code === 'ENOENT'
      ? {
          hint: 'give the output folder of `sitemapkit generate`, its manifest, a sitemap, or a text file of URLs',
        }
      : {}),
  });
}
