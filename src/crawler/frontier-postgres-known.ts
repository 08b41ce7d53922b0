/**
 * The URLs a worker of a shared crawl remembers (their id, and a depth the database's is no
 * greater than), so that a link to a page found before needs neither the seen-set's lookup nor the
 * lowering. A cache, never the truth: the database's unique index is; a URL forgotten costs its
 * batch the statements that look it up (the INSERT that skips it and the lowering's join).
 *
 * Two generations of at most half the cap each: new entries go into the young one; when it is
 * full the old one is dropped and the young one becomes old; a URL found in the old one is moved
 * back into the young one. So the URLs every page links to (home, the menu, a section's parent)
 * stay remembered however long the crawl, the memory is bounded by the cap, and no lookup pays for
 * an LRU's reordering (a hit in the young generation, the common case, is one Map lookup).
 */

/** What a worker remembers of a URL. */
export interface KnownUrl {
  id: number;
  depth: number;
}

/**
 * Entries remembered at most by default (both generations): about 150 bytes each on the heap, so
 * 6 MB. A site's menu and its sections' parents are a few hundred URLs; the rest of a crawl's links
 * are to pages found by the few hundred pages before (children), which a generation of 16,384
 * covers (bench/crawl-postgres.mjs measures the cost of the misses).
 */
export const KNOWN_CAP = 32_768;

export class KnownUrls {
  readonly #half: number;
  #young = new Map<string, KnownUrl>();
  #old = new Map<string, KnownUrl>();

  /** `cap`: entries at most (at least 2). */
  constructor(cap: number = KNOWN_CAP) {
    this.#half = Math.max(1, Math.floor(cap / 2));
  }

  get size(): number {
    return this.#young.size + this.#old.size;
  }

  get(url: string): KnownUrl | undefined {
    const young = this.#young.get(url);
    if (young !== undefined) return young;
    const old = this.#old.get(url);
    if (old !== undefined) {
      this.#old.delete(url);
      this.#put(url, old);
    }
    return old;
  }

  /** Remembers `url` at `depth` unless it is remembered at a smaller depth (a depth only decreases). */
  learn(url: string, id: number, depth: number): void {
    const k = this.get(url);
    if (k === undefined) this.#put(url, { id, depth });
    else if (depth < k.depth) {
      k.id = id;
      k.depth = depth;
    }
  }

  /** Forgets everything (a worker about to write the output has no more links to record). */
  clear(): void {
    this.#young = new Map();
    this.#old = new Map();
  }

  #put(url: string, k: KnownUrl): void {
    if (this.#young.size >= this.#half) {
      this.#old = this.#young;
      this.#young = new Map();
    }
    this.#young.set(url, k);
  }
}
