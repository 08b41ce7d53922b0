/**
 * gzip as a layer between the writer and any sink: node:zlib where it exists (loaded only when a
 * set is gzipped, and its level honoured), else the web platform's `CompressionStream` (zlib's
 * default level). Both produce the same bytes at the default level, so every sink gets the same
 * file for the same input.
 */
import type { TransformOptions } from 'node:stream';
import type { ZlibOptions } from 'node:zlib';
import type { SinkFile } from './sink.js';

/** Wraps a sink file so that what is written to it arrives compressed. */
export type Gzipper = (target: SinkFile) => SinkFile;

type Zlib = typeof import('node:zlib');

const COMPRESS_AHEAD = 1 << 20;
const OUT_CHUNK = 64 * 1024;

/** The gzip layer for `level` (0–9). `zlib: false` forces `CompressionStream` (for tests). */
export async function loadGzip(level: number, options: { zlib?: boolean } = {}): Promise<Gzipper> {
  if (options.zlib !== false) {
    let zlib: Zlib | undefined;
    try {
      zlib = await import('node:zlib');
    } catch {
      zlib = undefined;
    }
    if (zlib !== undefined) {
      const z = zlib;
      return (target) => zlibFile(z, target, level);
    }
  }
  return (target) => webFile(target);
}

function zlibFile(zlib: Zlib, target: SinkFile, level: number): SinkFile {
  // The compressor runs on libuv's thread pool (zlib's asynchronous API): with COMPRESS_AHEAD bytes
  // queued it compresses while the main thread serialises the next entries, where the default
  // 16 KiB made every 256 KiB chunk wait for its compression. Larger output chunks mean fewer
  // writes to the sink. Neither changes the compressed bytes (deflate's output does not depend on
  // how its input and output are cut).
  const options: ZlibOptions & TransformOptions = {
    level,
    chunkSize: OUT_CHUNK,
    writableHighWaterMark: COMPRESS_AHEAD,
  };
  const gz = zlib.createGzip(options);
  let error: unknown;
  let pending: Promise<void> | undefined;
  const fail = (e: unknown): void => {
    error ??= e;
  };
  gz.on('error', fail);
  gz.on('data', (chunk: Buffer) => {
    let wait: Promise<void> | undefined;
    try {
      wait = target.write(chunk);
    } catch (e) {
      // Thrown inside zlib's event: kept, and raised by the next write or the close.
      fail(e);
      gz.destroy(e as Error);
      return;
    }
    if (wait === undefined) return;
    // The sink asks to wait: stop reading the compressor until it may go on, and its buffer
    // filling up makes our own writes wait in turn.
    gz.pause();
    pending = wait.then(
      () => {
        pending = undefined;
        gz.resume();
      },
      (e: unknown) => {
        fail(e);
        gz.destroy(e as Error);
      },
    );
  });
  return {
    write(chunk) {
      if (error !== undefined) throw error;
      if (gz.write(chunk)) return undefined;
      return new Promise<void>((resolve, reject) => {
        const done = (): void => {
          gz.off('drain', done);
          gz.off('close', done);
          if (error !== undefined) reject(error);
          else resolve();
        };
        gz.on('drain', done);
        gz.on('close', done);
      });
    },
    async close() {
      await new Promise<void>((resolve) => {
        gz.on('end', resolve);
        gz.on('close', resolve);
        gz.end();
      });
      while (pending !== undefined) await pending;
      if (error !== undefined) throw error;
      await target.close();
    },
    abort(reason) {
      gz.destroy();
      target.abort(reason);
    },
  };
}

function webFile(target: SinkFile): SinkFile {
  const cs = new CompressionStream('gzip');
  const writer = cs.writable.getWriter();
  const reader = cs.readable.getReader();
  let error: unknown;
  const pump = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      const wait = target.write(value);
      if (wait !== undefined) await wait;
    }
  })().catch((e: unknown) => {
    error ??= e;
  });
  return {
    write(chunk) {
      if (error !== undefined) throw error;
      const written = writer.write(chunk).catch((e: unknown) => {
        error ??= e;
      });
      return (writer.desiredSize ?? 1) > 0 ? undefined : written;
    },
    async close() {
      await writer.close().catch((e: unknown) => {
        error ??= e;
      });
      await pump;
      if (error !== undefined) throw error;
      await target.close();
    },
    abort(reason) {
      writer.abort(reason).catch(() => undefined);
      target.abort(reason);
    },
  };
}
