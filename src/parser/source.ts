/**
 * Sources → raw byte chunks: a path (read in 64 KiB chunks), an http(s) URL (the fetch layer),
 * bytes, `{ text }`, a Node readable, a web ReadableStream or any async iterable of bytes.
 */
import { open } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SitemapkitError } from '../core/errors.js';
import { webChunks } from '../http/transport.js';
import { fetchBody, type HttpOptions } from './http.js';
import type { SitemapSource } from './types.js';

export interface OpenedSource {
  /** The name used in diagnostics: the URL asked for, or the path. */
  name: string;
  /** For fetched sources: the URL asked for and the URL the body came from. */
  requested?: string;
  url?: string;
  redirects: string[];
  fetched: boolean;
  body: AsyncIterable<Uint8Array>;
  /** Releases the source when it is not read to the end. */
  cancel(): void;
}

const READ_CHUNK = 64 * 1024;

/** Whether a string names an http(s) URL (and not a path). */
export function isHttpUrl(s: string): boolean {
  return /^https?:\/\//i.test(s);
}

/**
 * Opens a source. Throws `ERR_INPUT` for a missing or unreadable file, `ERR_OPTIONS` for another
 * URL scheme, and the fetch layer's errors for a URL.
 */
export async function openSource(source: SitemapSource, http: HttpOptions): Promise<OpenedSource> {
  if (source instanceof URL) return openSource(source.href, http);
  if (typeof source === 'string') {
    if (isHttpUrl(source)) {
      const r = await fetchBody(source, http);
      return {
        name: source,
        requested: source,
        url: r.url,
        redirects: r.redirects,
        fetched: true,
        body: r.body,
        cancel: r.cancel,
      };
    }
    if (/^file:/i.test(source)) return openFile(fileURLToPath(source), source);
    if (/^[a-z][a-z0-9+.-]+:\/\//i.test(source)) {
      throw new SitemapkitError('ERR_OPTIONS', `"${source}" is neither a file nor an http(s) URL`, {
        where: source,
        hint: 'sitemapkit reads files and fetches http and https URLs only',
      });
    }
    return openFile(source, source);
  }
  if (source instanceof Uint8Array) return fromChunks('<bytes>', one(source));
  if (typeof source === 'object' && source !== null && 'text' in source && typeof source.text === 'string') {
    return fromChunks('<text>', one(new TextEncoder().encode(source.text)));
  }
  if (isWebStream(source)) return fromChunks('<stream>', webChunks(source));
  if (typeof source === 'object' && source !== null && Symbol.asyncIterator in source) {
    return fromChunks('<stream>', bytesOf(source as AsyncIterable<Uint8Array | string>));
  }
  throw new SitemapkitError(
    'ERR_OPTIONS',
    'the source must be a path, an http(s) URL, bytes, { text }, or a readable stream',
  );
}

async function openFile(path: string, name: string): Promise<OpenedSource> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    const code = (cause as { code?: string }).code;
    throw new SitemapkitError(
      'ERR_INPUT',
      code === 'ENOENT' ? 'no such file' : `cannot open the file (${code ?? cause})`,
      {
        where: name,
        cause,
        hint: 'give the path of a sitemap file, or an http(s) URL',
      },
    );
  }
  const stream = handle.createReadStream({ highWaterMark: READ_CHUNK });
  return {
    name,
    redirects: [],
    fetched: false,
    body: bytesOf(stream),
    cancel: () => {
      stream.destroy();
    },
  };
}

function fromChunks(name: string, body: AsyncIterable<Uint8Array>): OpenedSource {
  return { name, redirects: [], fetched: false, body, cancel: () => undefined };
}

async function* one(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function isWebStream(s: unknown): s is ReadableStream<Uint8Array> {
  return (
    typeof s === 'object' && s !== null && typeof (s as { getReader?: unknown }).getReader === 'function'
  );
}

async function* bytesOf(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  for await (const c of chunks) yield typeof c === 'string' ? encoder.encode(c) : c;
}
