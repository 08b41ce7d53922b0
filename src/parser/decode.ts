/**
 * The decode layer: counts and caps the downloaded bytes, sniffs gzip by its magic bytes (never by
 * name or Content-Type) and inflates it once, as a stream. The consumer stops pulling when the
 * parser has had enough (its byte cap), so inflation stops there too: at most one chunk
 * ({@link INFLATE_CHUNK}) is inflated beyond what the parser accepted.
 */
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
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
  maxDownloadBytes: number,
  stats: DecodeStats,
  onFail: (code: ParserRuleCode, message: string) => void,
): AsyncGenerator<Uint8Array> {
  let overCap = false;
  const counted = (async function* (): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      stats.downloadedBytes += chunk.length;
      if (stats.downloadedBytes > maxDownloadBytes) {
        overCap = true;
        const keep = chunk.length - (stats.downloadedBytes - maxDownloadBytes);
        stats.downloadedBytes = maxDownloadBytes;
        if (keep > 0) yield chunk.subarray(0, keep);
        return;
      }
      yield chunk;
    }
  })();
  const overCapMessage = (): string =>
    `the download is larger than ${maxDownloadBytes.toLocaleString('en-US')} bytes; reading stopped there`;

  // Two bytes decide: gzip starts with 1f 8b.
  const head: Uint8Array[] = [];
  let headLength = 0;
  while (headLength < 2) {
    const r = await counted.next();
    if (r.done) break;
    head.push(r.value);
    headLength += r.value.length;
  }
  const first = head[0];
  const second = first !== undefined && first.length > 1 ? first[1] : head[1]?.[0];
  if (first?.[0] !== 0x1f || second !== 0x8b) {
    for (const h of head) yield h;
    yield* counted;
    if (overCap) onFail('download-too-large', overCapMessage());
    return;
  }

  stats.gzip = true;
  const input = Readable.from(
    (async function* (): AsyncGenerator<Uint8Array> {
      for (const h of head) yield h;
      yield* counted;
    })(),
    { objectMode: false },
  );
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
