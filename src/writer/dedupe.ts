import { type HashedSetTables, HashedStringSet } from '../core/hash.js';
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
    if (this.#seen.add(loc)) return undefined;
    return {
      code: 'url-duplicate',
      field: 'loc',
      message: `${loc} is listed more than once; each URL belongs in a sitemap once`,
    };
  }

  /** The set's tables, to hand it to another thread (see {@link HashedStringSet.tables}). */
  tables(): HashedSetTables {
    return this.#seen.tables();
  }

  has(loc: string): boolean {
    return this.#seen.has(loc);
  }
}
