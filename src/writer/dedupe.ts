import { HashedStringSet } from '../core/hash.js';
import type { EntryProblem } from '../core/normalize.js';

/** Duplicate locs across a build: a hashed set, about 8 bytes of memory per URL. */
export class Dedupe {
  readonly #seen = new HashedStringSet();

  /** Records `loc`; the problem when it was seen before. */
  add(loc: string): EntryProblem | undefined {
    if (this.#seen.add(loc)) return undefined;
    return {
      code: 'url-duplicate',
      field: 'loc',
      message: `${loc} is listed more than once; each URL belongs in a sitemap once`,
    };
  }

  has(loc: string): boolean {
    return this.#seen.has(loc);
  }
}
