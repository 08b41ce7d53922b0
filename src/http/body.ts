/**
 * Reading a body: the Content-Encoding decoders, and a push-style read of a Node stream for the
 * callers that handle every chunk synchronously (the crawler's page reader): data events straight
 * to the callback, without the promise per chunk of an async iterator, which shows at hundreds of
 * pages a second.
 */
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** The decoder of a Content-Encoding, or undefined for identity (and unknown codings). */
export function decoderFor(encoding: string | null): Transform | undefined {
  const e = (encoding ?? '').trim().toLowerCase();
  if (e === 'gzip' || e === 'x-gzip') return createGunzip();
  if (e === 'deflate') return createInflate();
  if (e === 'br') return createBrotliDecompress();
  return undefined;
}

/** A body that went past the cap with `overflow: 'error'`. */
export const TOO_LARGE: unique symbol = Symbol('too-large');

/**
 * Hands each chunk of `raw` (through `decoder` when given) to `onChunk`, at most `max` bytes:
 * past them it stops, cutting the last chunk (`truncate`, then `onTruncate`) or rejecting with
 * {@link TOO_LARGE}. Rejects with the stream's error, or what `onChunk` throws. Settles once.
 */
export function pushChunks(
  raw: Readable,
  decoder: Transform | undefined,
  max: number,
  truncate: boolean,
  onChunk: (chunk: Uint8Array) => void,
  onTruncate: () => void,
): Promise<void> {
  const source: Readable = decoder === undefined ? raw : raw.pipe(decoder);
  if (decoder !== undefined) raw.on('error', (e) => decoder.destroy(e));
  return new Promise<void>((resolve, reject) => {
    let total = 0;
    let settled = false;
    const settle = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      source.removeAllListeners('data');
      if (error === undefined) resolve();
      else reject(error);
    };
    source.on('data', (chunk: Uint8Array) => {
      if (settled) return;
      let c = chunk;
      let last = false;
      if (total + c.length > max) {
        if (!truncate) return settle(TOO_LARGE);
        c = c.subarray(0, max - total);
        last = true;
      }
      total += c.length;
      try {
        if (c.length > 0) onChunk(c);
      } catch (error) {
        return settle(error);
      }
      if (last) {
        onTruncate();
        settle();
      }
    });
    source.once('end', () => settle());
    source.once('error', (error) => settle(error));
  });
}
