/**
 * The decode layer: counts and caps the downloaded bytes, sniffs gzip by its magic bytes (never by
 * name or Content-Type) and inflates it once, as a stream. The consumer stops pulling when the
 * parser has had enough (its byte cap), so inflation stops there too: at most one chunk
 * ({@link INFLATE_CHUNK}) is inflated beyond what the parser accepted.
 */
import { isSitemapkitError } from '../core/errors.js';
import type { ParserRuleCode } from './rules.js';

/** Bytes gunzip hands over at a time. */
export const INFLATE_CHUNK: number = 64 * 1024;

export interface DecodeStats {
  gzip: boolean;
  downloadedBytes: number;
  inflatedBytes: number;
}

/**
 * The decoded bytes of `source`. Corrupt gzip and the download cap end the stream early after
 * `onFail` is told; network failures in the middle of the body are thrown (as the fetch layer
 * raised them).
 */
export async function* decodeBody(
  source: AsyncIterable<Uint8Array>,
  limits: { maxBytes: number; maxDownloadBytes: number },
  stats: DecodeStats,
  onFail: (code: ParserRuleCode, message: string) => void,
): AsyncGenerator<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  // Two bytes decide: gzip starts with 1f 8b.
  const head: Uint8Array[] = [];
  let headLength = 0;
  while (headLength < 2) {
    const r = await iterator.next();
    if (r.done) break;
    head.push(r.value);
    headLength += r.value.length;
  }
  const first = head[0];
  const second = first !== undefined && first.length > 1 ? first[1] : head[1]?.[0];
  const gzip = first?.[0] === 0x1f && second === 0x8b;
  // Uncompressed, the downloaded bytes are the parsed bytes: the parser's own cap (and its
  // sitemap-too-large) applies unless the download cap is the lower one.
  const cap =
    gzip || limits.maxDownloadBytes < limits.maxBytes ? limits.maxDownloadBytes : Number.POSITIVE_INFINITY;
  let overCap = false;
  const all = async function* (): AsyncGenerator<Uint8Array> {
    yield* head;
    for (;;) {
      const r = await iterator.next();
      if (r.done) return;
      yield r.value;
    }
  };
  const counted = (async function* (): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of all()) {
        stats.downloadedBytes += chunk.length;
        if (stats.downloadedBytes > cap) {
          overCap = true;
          const keep = chunk.length - (stats.downloadedBytes - cap);
          stats.downloadedBytes = cap;
          if (keep > 0) yield chunk.subarray(0, keep);
          return;
        }
        yield chunk;
      }
    } finally {
      await iterator.return?.();
    }
  })();
  const overCapMessage = (): string =>
    `the download is larger than ${limits.maxDownloadBytes.toLocaleString('en-US')} bytes; reading stopped there`;

  if (!gzip) {
    yield* counted;
    if (overCap) onFail('download-too-large', overCapMessage());
    return;
  }

  stats.gzip = true;
  // zlib is loaded for gzip only (start-up: most local files are plain).
  const [{ Readable }, { createGunzip }] = await Promise.all([import('node:stream'), import('node:zlib')]);
  const input = Readable.from(counted, { objectMode: false });
  const gunzip = createGunzip({ chunkSize: INFLATE_CHUNK });
  input.on('error', (e) => gunzip.destroy(e));
  input.pipe(gunzip);
  try {
    for await (const out of gunzip as AsyncIterable<Uint8Array>) {
      stats.inflatedBytes += out.length;
      yield out;
    }
  } catch (error) {
    if (isSitemapkitError(error)) throw error;
    if (overCap) onFail('download-too-large', overCapMessage());
    else {
      const message = (error as Error).message ?? String(error);
      onFail('gzip-invalid', `gzip stream: ${message}; entries read before the break are kept`);
    }
    return;
  } finally {
    input.destroy();
    gunzip.destroy();
  }
  if (overCap) onFail('download-too-large', overCapMessage());
}
