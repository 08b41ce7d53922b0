import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createGzip, type Gzip } from 'node:zlib';

/** What a closed sink wrote: uncompressed bytes and their SHA-256 (the change detector). */
export interface SinkResult {
  bytes: number;
  sha256: string;
}

const CHUNK = 256 * 1024;

/**
 * One output file. Strings are UTF-8-encoded straight into a 256 KiB chunk (one copy, where
 * joining strings and then encoding them costs two) and handed to the stream a chunk at a time;
 * `write` returns a promise only when the stream asks us to wait, so the hot path stays
 * synchronous and backpressure is still honoured.
 */
export class FileSink {
  readonly path: string;
  readonly #file: WriteStream;
  readonly #gzip: Gzip | undefined;
  readonly #hash: Hash | undefined;
  #chunk: Buffer = Buffer.allocUnsafe(CHUNK);
  #used = 0;
  #bytes = 0;
  #error: Error | undefined;

  constructor(path: string, gzip: false | { level: number }, options: { hash?: boolean } = {}) {
    this.path = path;
    this.#hash = options.hash === false ? undefined : createHash('sha256');
    this.#file = createWriteStream(path, { flags: 'wx', flush: true });
    this.#file.on('error', (e) => {
      this.#error ??= e;
    });
    if (gzip !== false) {
      this.#gzip = createGzip({ level: gzip.level });
      this.#gzip.on('error', (e) => {
        this.#error ??= e;
      });
      this.#gzip.pipe(this.#file);
    }
  }

  /** Uncompressed bytes written so far (including what is still buffered). */
  get bytes(): number {
    return this.#bytes;
  }

  /** Queues `s` (whose UTF-8 length is `byteLength`); resolves when the caller may go on. */
  write(s: string, byteLength: number): Promise<void> | undefined {
    this.#bytes += byteLength;
    if (byteLength > CHUNK - this.#used) {
      const wait = this.#flush();
      if (byteLength > CHUNK) {
        // Larger than a chunk (a huge entry): it goes out on its own.
        const big = Buffer.from(s, 'utf8');
        this.#hash?.update(big);
        const target = this.#gzip ?? this.#file;
        const ok = target.write(big);
        if (wait !== undefined) return wait.then(() => (ok ? undefined : this.#drain(target)));
        return ok ? undefined : this.#drain(target);
      }
      this.#used = this.#chunk.write(s, 0);
      return wait;
    }
    this.#used += this.#chunk.write(s, this.#used);
    return undefined;
  }

  #flush(): Promise<void> | undefined {
    if (this.#error !== undefined) throw this.#error;
    if (this.#used === 0) return undefined;
    const buf = this.#chunk.subarray(0, this.#used);
    // The stream keeps `buf` until it is written, so the next strings go into a fresh chunk.
    this.#chunk = Buffer.allocUnsafe(CHUNK);
    this.#used = 0;
    this.#hash?.update(buf);
    const target = this.#gzip ?? this.#file;
    if (target.write(buf)) return undefined;
    return this.#drain(target);
  }

  async #drain(target: Gzip | WriteStream): Promise<void> {
    await once(target, 'drain');
    if (this.#error !== undefined) throw this.#error;
  }

  /** Writes what is left, waits until the file is on disk (fsync'ed by `flush: true`) and closed. */
  async close(): Promise<SinkResult> {
    await this.#flush();
    const closed = once(this.#file, 'close');
    if (this.#gzip !== undefined) this.#gzip.end();
    else this.#file.end();
    await closed;
    if (this.#error !== undefined) throw this.#error;
    return { bytes: this.#bytes, sha256: this.#hash?.digest('hex') ?? '' };
  }

  /** Stops writing and closes the file without waiting for it to be complete (abort path). */
  destroy(): void {
    this.#gzip?.destroy();
    this.#file.destroy();
  }
}
