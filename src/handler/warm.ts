/**
 * The warm path: what a cached file costs per request, kept to a lookup. The headers of a cached
 * answer are built once per cached body (not per request), `Accept-Encoding` values are parsed
 * once each, and a gzip body that is asked for again is compressed once more at the best level
 * (the same decompressed bytes, fewer to send on every later request).
 */
import { chooseEncoding, type Encoding } from './http.js';
import type { Compressor, HandlerCache } from './types.js';

/**
 * A request path the URL parser gives back as it is (segments of these characters, none starting
 * with a dot): the Node adapter takes such a path without parsing it.
 */
export const PLAIN_PATH: RegExp = /^(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*\/?$/;

/**
 * `chooseEncoding` remembered per header value: clients send a handful of distinct values, and a
 * request costs a map lookup instead of a parse. Bounded, so odd headers cannot grow it.
 */
export function encodingChooser(brotli: boolean): (header: string | null) => Encoding | null {
  const seen = new Map<string, Encoding | null>();
  return (header) => {
    if (header === null) return 'identity';
    let e = seen.get(header);
    if (e === undefined) {
      e = chooseEncoding(header, brotli);
      if (seen.size >= 64) seen.clear();
      seen.set(header, e);
    }
    return e;
  };
}

// The headers of a 200 with a cached body, per body: the cache hands back the same bytes object
// while it keeps a file, so its headers (validators, types, Content-Length) are made once. They
// are remade when the same bytes come back for another key or time (a cache that shares equal
// bytes between versions).
const prepared = new WeakMap<
  Uint8Array,
  { key: string; time: number; headers: Readonly<Record<string, string>> }
>();

/**
 * The headers of a 200 carrying the cached `bytes` of cache key `key` (its validators'
 * Last-Modified `time`): `make()` the first time, the same object after.
 */
export function cachedHeaders(
  bytes: Uint8Array,
  key: string,
  time: number,
  make: () => Record<string, string>,
): Readonly<Record<string, string>> {
  const p = prepared.get(bytes);
  if (p !== undefined && p.key === key && p.time === time) return p.headers;
  const made = make();
  made['content-length'] = String(bytes.byteLength);
  const headers = Object.freeze(made);
  prepared.set(bytes, { key, time, headers });
  return headers;
}

// A compressor's variant at its best (slowest) level, for bytes compressed once and sent many
// times. Registered by the Node adapter for its gzip; web runtimes' CompressionStream has no level.
const best = new WeakMap<Compressor, Compressor>();

/** Registers `smallest` as the best-level variant of `compressor` (the same format). */
export function setBestCompressor(compressor: Compressor, smallest: Compressor): void {
  best.set(compressor, smallest);
}

/**
 * Recompresses cached gzip bodies at the best level, once each: when a cached body is asked for
 * again (so a file generated per request, never asked twice, costs nothing more), its bytes are
 * decompressed and compressed again in the background, and the smaller bytes replace them in the
 * cache under the same key. Same decompressed bytes, same ETag.
 */
export function gzipRecompressor(
  gzip: Compressor,
  cache: HandlerCache,
): ((key: string, bytes: Uint8Array, stillWanted: () => boolean) => void) | undefined {
  const smallest = best.get(gzip);
  if (smallest === undefined) return undefined;
  // Bodies already at their best (or being made so): asked for again, they cost nothing more.
  const done = new WeakSet<Uint8Array>();
  return (key, bytes, stillWanted) => {
    if (done.has(bytes)) return;
    done.add(bytes);
    void (async () => {
      const text = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
      const out = new Uint8Array(await new Response(text.pipeThrough(smallest())).arrayBuffer());
      if (out.byteLength >= bytes.byteLength || !stillWanted()) return;
      done.add(out);
      await cache.set(key, out);
    })().catch(() => undefined);
  };
}
