/** The handler's default cache: generated files in memory, the least recently used dropped first. */
import type { HandlerCache } from './types.js';

export class MemoryCache implements HandlerCache {
  readonly #max: number;
  // A Map keeps insertion order: re-inserting on a hit makes its first key the least recently used.
  readonly #items = new Map<string, Uint8Array>();
  #bytes = 0;
  // The key last stored or hit: a hit on it is already where the order wants it.
  #newest: string | undefined;

  constructor(maxBytes: number) {
    this.#max = maxBytes;
  }

  get(key: string): Uint8Array | undefined {
    const v = this.#items.get(key);
    if (v !== undefined && key !== this.#newest) {
      this.#items.delete(key);
      this.#items.set(key, v);
      this.#newest = key;
    }
    return v;
  }

  set(key: string, body: Uint8Array): void {
    // A file larger than a quarter of the cache would push out everything else for one file.
    if (body.byteLength > this.#max / 4) return;
    const old = this.#items.get(key);
    if (old !== undefined) {
      this.#bytes -= old.byteLength;
      this.#items.delete(key);
    }
    this.#items.set(key, body);
    this.#newest = key;
    this.#bytes += body.byteLength;
    for (const [k, v] of this.#items) {
      if (this.#bytes <= this.#max) break;
      this.#items.delete(k);
      this.#bytes -= v.byteLength;
    }
  }

  /** Bytes held (for tests and metrics). */
  get bytes(): number {
    return this.#bytes;
  }
}
