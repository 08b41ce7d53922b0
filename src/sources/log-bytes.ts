/**
 * The bytes of a log, gzip or not: the first two bytes decide (`1f 8b`), never the file name, so
 * that a rotated `access.log.2.gz`, a `.gz` that logrotate left uncompressed, and gzip on standard
 * input all read. Several gzip members one after the other (logrotate's `delaycompress` plus
 * `cat`) read as one stream.
 */
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { SitemapkitError } from '../core/errors.js';
import { fsError } from '../core/fs-errors.js';

/** A log's bytes, and whether a gzip layer was removed. */
export interface LogBytes {
  gzip: boolean;
  bytes: AsyncIterable<Uint8Array>;
}

/** Opens `source` and sniffs its first bytes; read errors and broken gzip name `where`. */
export async function logBytes(source: AsyncIterable<Uint8Array>, where: string): Promise<LogBytes> {
  const it = source[Symbol.asyncIterator]();
  const failed = (error: unknown): never => {
    throw fsError(error, { path: where, doing: 'read the log' });
  };
  let head: Uint8Array = new Uint8Array(0);
  // A gzip header may arrive split (standard input a byte at a time): wait for two bytes.
  const pending: Uint8Array[] = [];
  let ended = false;
  while (head.length < 2) {
    const next = await it.next().catch(failed);
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = typeof next.value === 'string' ? Buffer.from(next.value) : next.value;
    pending.push(chunk);
    head = Buffer.concat(pending);
  }
  const rest = async function* (): AsyncGenerator<Uint8Array> {
    try {
      for (const c of pending) yield c;
      if (ended) return;
      for (;;) {
        const next = await it.next().catch(failed);
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // A reader that stops early (an interrupt, a failed run) closes the file now, not at exit.
      if (!ended) await it.return?.();
    }
  };
  const gzip = head[0] === 0x1f && head[1] === 0x8b;
  if (!gzip) return { gzip, bytes: rest() };
  const gunzip = createGunzip({ chunkSize: 1 << 16 });
  // pipeline destroys the gunzip stream with the source's error, so the reader sees it.
  pipeline(Readable.from(rest()), gunzip, () => {});
  return {
    gzip,
    bytes: (async function* () {
      try {
        yield* gunzip;
      } catch (error) {
        if (error instanceof SitemapkitError) throw error;
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'string' && code.startsWith('Z_'))
          throw new SitemapkitError('ERR_INPUT', `the gzip data is broken (${(error as Error).message})`, {
            where,
            hint: 'A log being compressed right now is cut short: read it once logrotate has finished, or give the plain log.',
          });
        throw fsError(error, { path: where, doing: 'read the log' });
      }
    })(),
  };
}
