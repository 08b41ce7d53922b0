/**
 * Two hooks on the run's HTTP client, for the sitemaps the parser reads:
 * - a local mirror: before a deploy, the children of a local index (URLs under the index's folder
 *   URL) are read from the files beside it, never from the network;
 * - a recorder of Last-Modified and Date, the candidate generation times of each sitemap.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { ClientHooks } from '../http/client.js';
import type { ResponseHeaders } from '../http/types.js';

const TYPES: Readonly<Record<string, string>> = {
  xml: 'application/xml',
  gz: 'application/gzip',
  txt: 'text/plain; charset=utf-8',
};

/**
 * An intercept that answers URLs starting with `prefix` from files under `dir` (404 when missing
 * or outside `dir`), and lets every other URL go to the network.
 */
export function localMirror(dir: string, prefix: string): NonNullable<ClientHooks['intercept']> {
  const root = resolve(dir);
  return async (input, method) => {
    if (!input.startsWith(prefix)) return undefined;
    let rel: string;
    try {
      rel = decodeURIComponent(input.slice(prefix.length).replace(/[?#].*$/s, ''));
    } catch {
      return new Response(null, { status: 404 });
    }
    const path = resolve(root, rel);
    if (!path.startsWith(root + sep)) return new Response(null, { status: 404 });
    let size: number;
    let mtime: Date;
    try {
      const s = await stat(path);
      if (!s.isFile()) return new Response(null, { status: 404 });
      size = s.size;
      mtime = s.mtime;
    } catch {
      return new Response(null, { status: 404, statusText: `no file ${path}` });
    }
    const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
    const headers = {
      'content-type': TYPES[ext] ?? 'application/octet-stream',
      'content-length': String(size),
      'last-modified': mtime.toUTCString(),
    };
    if (method === 'HEAD') return new Response(null, { status: 200, headers });
    const body = Readable.toWeb(createReadStream(path)) as ReadableStream<Uint8Array>;
    return new Response(body, { status: 200, headers });
  };
}

/** Generation-time candidates of a fetched sitemap, by the URL that answered. */
export interface ResponseTimes {
  lastModified?: number;
  date?: number;
}

/** A response hook that records the Last-Modified and Date of every 2xx answer into `into`. */
export function recordTimes(
  into: Map<string, ResponseTimes>,
  max = 10_000,
): (url: string, status: number, headers: ResponseHeaders) => void {
  return (url, status, headers) => {
    if (status >= 200 && status < 300 && into.size < max) {
      const t: ResponseTimes = {};
      const lm = Date.parse(headers.get('last-modified') ?? '');
      const d = Date.parse(headers.get('date') ?? '');
      if (!Number.isNaN(lm)) t.lastModified = lm;
      if (!Number.isNaN(d)) t.date = d;
      into.set(url, t);
    }
  };
}
