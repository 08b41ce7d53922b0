import { createHash, type Hash } from 'node:crypto';
import type { SinkFile } from './sink.js';

/** What a closed file held: uncompressed bytes and their SHA-256 (the manifest's change detector). */
export interface FileTotals {
  bytes: number;
  sha256: string;
}

const CHUNK = 256 * 1024;
/**
 * Joined text encoded into the chunk once it reaches this many bytes: encoding flattens the joined
 * strings into one string first, and one of 256 KiB is a large object (fresh pages from the
 * kernel, then garbage), where one of 32 KiB is a young one; a million URLs' XML and manifest
 * encoded in 32 KiB pieces took about half the time (0.25 -> 0.12 ms a chunk).
 */
const JOIN = 32 * 1024;

/**
 * Chunks a sink has released (written out), shared by every writer of the process, a few at most.
 * A fresh chunk per 256 KiB costs more than the allocation: the garbage collector frees a chunk's
 * memory only when it collects the chunk's object, which often lives long enough (the disk is slow)
 * to reach the old generation, collected rarely; until then every dead chunk counts in the RSS (at
 * 1,000,000 URLs, tens of megabytes of them). A released chunk is filled again instead.
 */
const free: Buffer[] = [];

function miscounted(said: number, was: number): Error {
  return new Error(`internal error: a string counted as ${said} UTF-8 bytes encoded to ${was}`);
}
const FREE_MAX = 8;

// Room past the chunk's CHUNK bytes for one more character of up to 4 bytes: a string whose length
// was counted short then encodes to more bytes than counted, which #encode sees, rather than being
// cut at the chunk's end to exactly the count.
const SLACK = 4;

function takeChunk(): Buffer {
  return free.pop() ?? Buffer.allocUnsafe(CHUNK + SLACK);
}

/**
 * Strings in, bytes out to a sink file. Strings are joined until they make 32 KiB or the next one
 * would not fit in a 256 KiB chunk, then UTF-8-encoded into it in one call (an encode per entry
 * cost twice as much as the joining: the call and the flattening of each small string) and handed
 * on a chunk at a time; the chunks fall exactly where they fell when each string was encoded on
 * its own. `write` returns a promise only when the sink asks to wait, so the hot path stays
 * synchronous and backpressure is still honoured.
 */
export class FileWriter {
  readonly #target: SinkFile;
  readonly #hash: Hash | undefined;
  #chunk: Buffer = takeChunk();
  /** Bytes encoded into the chunk. */
  #used = 0;
  /** Strings joined but not yet encoded, and their UTF-8 length. */
  #text = '';
  #textBytes = 0;
  #bytes = 0;

  constructor(target: SinkFile, options: { hash?: boolean } = {}) {
    this.#target = target;
    this.#hash = options.hash === false ? undefined : createHash('sha256');
  }

  /** Uncompressed bytes written so far (including what is still buffered). */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Queues `s`, whose UTF-8 length the caller gives (it knows it for the byte budgets: for ASCII,
   * the string's length); resolves when the caller may go on. A wrong length is an error, never a
   * cut or misplaced byte.
   */
  write(s: string, byteLength: number): Promise<void> | undefined {
    this.#bytes += byteLength;
    if (byteLength <= CHUNK - this.#used - this.#textBytes) {
      this.#text += s;
      this.#textBytes += byteLength;
      if (this.#textBytes >= JOIN) this.#encode();
      return undefined;
    }
    this.#encode();
    const wait = this.#flush();
    if (byteLength > CHUNK) {
      // Larger than a chunk (a huge entry or a whole index): it goes out on its own.
      const big = Buffer.from(s, 'utf8');
      if (big.length !== byteLength) throw miscounted(byteLength, big.length);
      this.#hash?.update(big);
      const next = this.#target.write(big);
      if (wait === undefined) return next;
      return next === undefined ? wait : Promise.all([wait, next]).then(() => undefined);
    }
    this.#text = s;
    this.#textBytes = byteLength;
    return wait;
  }

  /** Encodes the joined strings into the chunk (they fit: `write` counted them in). */
  #encode(): void {
    if (this.#textBytes === 0) return;
    const n = this.#chunk.write(this.#text, this.#used);
    if (n !== this.#textBytes) throw miscounted(this.#textBytes, n);
    this.#used += n;
    this.#text = '';
    this.#textBytes = 0;
  }

  /**
   * Queues bytes as they are (the unchanged entries a store build copies from the previous file);
   * `b` is the sink's to keep once passed on.
   */
  writeBytes(b: Buffer): Promise<void> | undefined {
    this.#bytes += b.length;
    this.#encode();
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
    const chunk = this.#chunk;
    const buf = chunk.subarray(0, this.#used);
    // The sink keeps `buf` until it releases it, so the next strings go into another chunk.
    this.#chunk = takeChunk();
    this.#used = 0;
    this.#hash?.update(buf);
    return this.#target.write(buf, () => {
      if (free.length < FREE_MAX && !free.includes(chunk)) free.push(chunk);
    });
  }

  /** Writes what is left and waits until the sink has the whole file. */
  async close(): Promise<FileTotals> {
    this.#encode();
    await this.#flush();
    // The chunk the flush took is unused: back to the others, for the next file.
    if (this.#used === 0 && free.length < FREE_MAX && !free.includes(this.#chunk)) free.push(this.#chunk);
    this.#chunk = Buffer.alloc(0);
    await this.#target.close();
    return { bytes: this.#bytes, sha256: this.#hash?.digest('hex') ?? '' };
  }

  abort(reason: unknown): void {
    this.#target.abort(reason);
  }
}
