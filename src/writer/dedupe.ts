import { type HashedSetTables, HashedStringSet, hashInto } from '../core/hash.js';
import type { EntryProblem } from '../core/normalize.js';

/** Duplicate locs across a build: a hashed set, about 8 bytes of memory per URL. */
export class Dedupe {
  #seen: HashedStringSet;

  /** `expected`: about how many URLs will come, when known (see {@link HashedStringSet}). */
  constructor(expected = 0) {
    this.#seen = new HashedStringSet(expected);
  }

  /** Takes the set another thread filled (the intake's checked lane; this one is then unused). */
  adopt(seen: HashedStringSet): void {
    this.#seen = seen;
  }

  /** Records `loc`; the problem when it was seen before. */
  add(loc: string): EntryProblem | undefined {
    return this.#seen.add(loc) ? undefined : duplicateOf(loc);
  }

  // The hashes of the batch last prepared, by index.
  #h1 = new Uint32Array(0);
  #h2 = new Uint32Array(0);

  /**
   * Hashes a batch of locs (undefined for a record that has none to record) and fetches their
   * slots of the set together (see {@link HashedStringSet.warm}); {@link addAt} then records
   * them, in order, as {@link add} would. Returns a number only to keep the fetch.
   */
  prepare(locs: ReadonlyArray<string | undefined>, n: number): number {
    if (this.#h1.length < n) {
      this.#h1 = new Uint32Array(n);
      this.#h2 = new Uint32Array(n);
    }
    let m = 0;
    for (let k = 0; k < n; k++) {
      const loc = locs[k];
      if (loc !== undefined) hashInto(loc, this.#h1, this.#h2, m++);
    }
    return this.#seen.warm(this.#h1, this.#h2, m);
  }

  /**
   * {@link add} of the `k`th defined loc of the batch last {@link prepare}d (`k` counts only the
   * defined ones, in order).
   */
  addAt(k: number, loc: string): EntryProblem | undefined {
    return this.#seen.addHashed(this.#h1[k]!, this.#h2[k]!) ? undefined : duplicateOf(loc);
  }

  /** The set's tables, to hand it to another thread (see {@link HashedStringSet.tables}). */
  tables(): HashedSetTables {
    return this.#seen.tables();
  }

  has(loc: string): boolean {
    return this.#seen.has(loc);
  }
}

function duplicateOf(loc: string): EntryProblem {
  return {
    code: 'url-duplicate',
    field: 'loc',
    message: `${loc} is listed more than once; each URL belongs in a sitemap once`,
  };
}
