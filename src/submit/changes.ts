/**
 * What changed between two builds: added, changed (by the manifest's content hash, or lastmod where
 * there is no hash) and removed URLs. IndexNow wants all three (removed ones so engines see the
 * 404/410). Both sides are streamed; the previous side is read twice (once into a table, once to
 * name the removed URLs) so that memory holds no URL strings, only 64-bit hashes.
 */
import { hash64 } from '../core/hash.js';
import type { SourceUrl } from './url-source.js';

/** How a URL differs from the previous build. */
export type ChangeKind = 'added' | 'changed' | 'removed';

export interface UrlChange {
  loc: string;
  change: ChangeKind;
}

/** Counts, filled in while {@link diffUrls} runs. */
export interface ChangeCounts {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  /** URLs of the previous build. */
  previous: number;
}

const EMPTY = 0;
const HASH = 1;
const LASTMOD = 2;
const NONE = 3;
const SEEN = 4;

function fingerprint(u: SourceUrl): [kind: number, fp: number] {
  if (u.hash !== undefined) {
    // Fold every digit in: a hash that differs only in its low half must still count as changed.
    const hi = Number.parseInt(u.hash.slice(0, 8), 16);
    const lo = Number.parseInt(u.hash.slice(8, 16), 16);
    if (Number.isFinite(hi)) return [HASH, (hi ^ Math.imul(Number.isFinite(lo) ? lo : 0, 0x9e3779b1)) >>> 0];
  }
  if (u.lastmod !== undefined) return [LASTMOD, hash64(u.lastmod)[0]];
  return [NONE, 0];
}

/**
 * An open-addressing table from a URL's 64-bit hash to a 32-bit fingerprint of its content:
 * 13 bytes a slot (about 19 bytes a URL at the load kept here) where a `Map<string, …>` of URLs
 * costs well over 100. Two different URLs with one 64-bit hash are taken for one (odds about
 * 1 in 3 × 10⁶ at 10 million URLs); the cost is one URL wrongly seen as unchanged or added.
 */
class FingerprintTable {
  #h1 = new Uint32Array(1024);
  #h2 = new Uint32Array(1024);
  #fp = new Uint32Array(1024);
  #flags = new Uint8Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The slot of the key, or the empty slot where it would go (-1 - slot). */
  #find(h1: number, h2: number): number {
    const mask = this.#h1.length - 1;
    let i = (h1 ^ Math.imul(h2, 0x9e3779b1)) & mask;
    for (;;) {
      const f = this.#flags[i]!;
      if (f === EMPTY) return -1 - i;
      if (this.#h1[i] === h1 && this.#h2[i] === h2) return i;
      i = (i + 1) & mask;
    }
  }

  /** Inserts unless present; returns the slot. */
  set(loc: string, kind: number, fp: number): number {
    const [h1, h2] = hash64(loc);
    let at = this.#find(h1, h2);
    if (at >= 0) return at;
    if ((this.#size + 1) * 10 > this.#h1.length * 7) {
      this.#grow();
      at = this.#find(h1, h2);
    }
    const i = -1 - at;
    this.#h1[i] = h1;
    this.#h2[i] = h2;
    this.#fp[i] = fp;
    this.#flags[i] = kind;
    this.#size++;
    return i;
  }

  lookup(loc: string): number {
    const [h1, h2] = hash64(loc);
    return this.#find(h1, h2);
  }

  kind(slot: number): number {
    return this.#flags[slot]! & 3;
  }

  fp(slot: number): number {
    return this.#fp[slot]!;
  }

  seen(slot: number): boolean {
    return (this.#flags[slot]! & SEEN) !== 0;
  }

  markSeen(slot: number): void {
    this.#flags[slot]! |= SEEN;
  }

  #grow(): void {
    const h1 = this.#h1;
    const h2 = this.#h2;
    const fp = this.#fp;
    const flags = this.#flags;
    const cap = h1.length * 2;
    this.#h1 = new Uint32Array(cap);
    this.#h2 = new Uint32Array(cap);
    this.#fp = new Uint32Array(cap);
    this.#flags = new Uint8Array(cap);
    for (let j = 0; j < h1.length; j++) {
      if (flags[j] === EMPTY) continue;
      const i = -1 - this.#find(h1[j]!, h2[j]!);
      this.#h1[i] = h1[j]!;
      this.#h2[i] = h2[j]!;
      this.#fp[i] = fp[j]!;
      this.#flags[i] = flags[j]!;
    }
  }
}

/**
 * Streams the URLs that differ between `previous` and `current` builds: first the added and
 * changed ones in the order of `current`, then the removed ones in the order of `previous`.
 * Each URL comes at most once. `previous` is a function because it is read twice.
 * An entry counts as changed when both sides have a hash and the hashes differ, or else when
 * the previous side has a lastmod and the current lastmod differs from it.
 */
export async function* diffUrls(
  previous: () => AsyncIterable<SourceUrl>,
  current: AsyncIterable<SourceUrl> | Iterable<SourceUrl>,
  counts: ChangeCounts = { added: 0, changed: 0, removed: 0, unchanged: 0, previous: 0 },
): AsyncGenerator<UrlChange> {
  const table = new FingerprintTable();
  for await (const u of previous()) {
    const [kind, fp] = fingerprint(u);
    table.set(u.loc, kind, fp);
  }
  counts.previous = table.size;
  for await (const u of current) {
    const slot = table.lookup(u.loc);
    if (slot < 0) {
      // Remember it as seen so that a repeated URL is reported once.
      table.markSeen(table.set(u.loc, NONE, 0));
      counts.added++;
      yield { loc: u.loc, change: 'added' };
      continue;
    }
    if (table.seen(slot)) continue;
    table.markSeen(slot);
    const kind = table.kind(slot);
    let changed = false;
    if (kind === HASH && u.hash !== undefined) {
      const [k, fp] = fingerprint(u);
      changed = k !== HASH || fp !== table.fp(slot);
    } else if (kind === LASTMOD) {
      changed = u.lastmod === undefined || hash64(u.lastmod)[0] !== table.fp(slot);
    }
    // Otherwise the two sides share no basis for comparison (e.g. a text list): unchanged.
    if (changed) {
      counts.changed++;
      yield { loc: u.loc, change: 'changed' };
    } else {
      counts.unchanged++;
    }
  }
  for await (const u of previous()) {
    const slot = table.lookup(u.loc);
    if (slot < 0 || table.seen(slot)) continue;
    table.markSeen(slot);
    counts.removed++;
    yield { loc: u.loc, change: 'removed' };
  }
}
