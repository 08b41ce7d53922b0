import { createHash, type Hash } from 'node:crypto';
import type { SinkFile } from './sink.js';

/** What a closed file held: uncompressed bytes and their SHA-256 (the manifest's change detector). */
export interface FileTotals {
  bytes: number;
  sha256: string;
}

const CHUNK = 256 * 1024;

/**
 * Strings in, bytes out to a sink file. Strings are UTF-8-encoded straight into a 256 KiB chunk
 * (one copy, where joining strings and then encoding them costs two) and handed on a chunk at a
 * time; `write` returns a promise only when the sink asks to wait, so the hot path stays
 * synchronous and backpressure is still honoured.
 */
export class FileWriter {
  readonly #target: SinkFile;
  readonly #hash: Hash | undefined;
  #chunk: Buffer = Buffer.allocUnsafe(CHUNK);
  #used = 0;
  #bytes = 0;

  constructor(target: SinkFile, options: { hash?: boolean } = {}) {
    this.#target = target;
    this.#hash = options.hash === false ? undefined : createHash('sha256');
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
        // Larger than a chunk (a huge entry or a whole index): it goes out on its own.
        const big = Buffer.from(s, 'utf8');
        this.#hash?.update(big);
        const next = this.#target.write(big);
        if (wait === undefined) return next;
        return next === undefined ? wait : Promise.all([wait, next]).then(() => undefined);
      }
      this.#used = this.#chunk.write(s, 0);
      return wait;
    }
    this.#used += this.#chunk.write(s, this.#used);
    return undefined;
  }

  /**
   * Queues bytes as they are (the unchanged entries a store build copies from the previous file);
   * `b` is the sink's to keep once passed on.
   */
  writeBytes(b: Buffer): Promise<void> | undefined {
    this.#bytes += b.length;
    if (b.length <= CHUNK - this.#used) {
      this.#used += b.copy(this.#chunk, this.#used);
      return undefined;
    }
    const wait = this.#flush();
    this.#hash?.update(b);
    const next = this.#target.write(b);
    if (wait === undefined) return next;
    return next === undefined ? wait : Promise.all([wait, next]).then(() => undefined);
  }

  #flush(): Promise<void> | undefined {
    if (this.#used === 0) return undefined;
    const buf = this.#chunk.subarray(0, this.#used);
    // The sink keeps `buf`, so the next strings go into a fresh chunk.
    this.#chunk = Buffer.allocUnsafe(CHUNK);
    this.#used = 0;
    this.#hash?.update(buf);
    return this.#target.write(buf);
  }

  /** Writes what is left and waits until the sink has the whole file. */
  async close(): Promise<FileTotals> {
    await this.#flush();
    await this.#target.close();
    return { bytes: this.#bytes, sha256: this.#hash?.digest('hex') ?? '' };
  }

  abort(reason: unknown): void {
    this.#target.abort(reason);
  }
}
