/**
 * A fast non-cryptographic 64-bit string hash (two 32-bit lanes, cyrb53's mixing), for duplicate
 * detection and the manifest's change hashes. Not for anything an attacker controls the outcome of.
 */
// The two lanes of the last hash, kept in module scope so that the hot paths (a hash or two per
// URL at millions of URLs) allocate no array per call.
let lane1 = 0;
let lane2 = 0;

function hashLanes(s: string): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  const n = s.length;
  let i = 0;
  // Two UTF-16 units a step: half the multiplications of cyrb53's one-unit loop, same mixing.
  for (; i + 1 < n; i += 2) {
    const ch = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  if (i < n) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  lane1 = h1 >>> 0;
  lane2 = h2 >>> 0;
}

/**
 * A fast non-cryptographic 64-bit string hash (two 32-bit lanes, cyrb53's mixing), for duplicate
 * detection and the manifest's change hashes. Not for anything an attacker controls the outcome of.
 */
export function hash64(s: string): [number, number] {
  hashLanes(s);
  return [lane1, lane2];
}

const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex32(n: number): string {
  return HEX[n >>> 24]! + HEX[(n >>> 16) & 255]! + HEX[(n >>> 8) & 255]! + HEX[n & 255]!;
}

/** A 53-bit number key for a string (for Map keys: far smaller than the string itself). */
export function hashKey(s: string): number {
  hashLanes(s);
  return (lane1 & 0x1fffff) * 0x100000000 + lane2;
}

/** {@link hash64} as 16 hex digits. */
export function hashHex(s: string): string {
  hashLanes(s);
  return hex32(lane1) + hex32(lane2);
}

/** Maps a 32-bit key onto 0..cap-1 by multiply-shift: a float multiply, where `%` is a division. */
function slot(key: number, cap: number): number {
  return Math.floor((key * cap) / 4294967296);
}

const PARTITION_BITS = 12;
const PARTITIONS = 1 << PARTITION_BITS;
// Linear probing: at 90% an absent key costs about 50 probes, at 80% about 13.
const MAX_LOAD = 0.8;
// 4,096 × 61 slots × 6 bytes = 1.5 MB up front, which spares the first million URLs most regrowth.
const INITIAL_CAPACITY = 61;
/** Members made room for up front at most (18 MB of tables). */
const MAX_EXPECTED = 2_500_000;

/** What a {@link HashedStringSet} is made of: plain data a thread can send. */
export interface HashedSetTables {
  a: Uint32Array[];
  b: Uint16Array[];
  count: Uint32Array;
  size: number;
}

/**
 * A set of strings that stores 6 bytes per member instead of the strings: 4,096 partitions chosen
 * by 12 bits of a 64-bit hash, each an open-addressing table holding 48 more bits (60 bits of
 * identity, so a false "duplicate" among 10 million URLs has odds of about 1 in 25,000).
 * Partitions grow one at a time by 30%, so there is no doubling spike and the load stays 62–80%:
 * about 8.5 bytes per URL live (85 MB at 10 million URLs), where a `Set<string>` of URLs costs
 * over 100. Memory is still linear in the URL count: `dedupe: false` turns the set off.
 */
export class HashedStringSet {
  readonly #a: Uint32Array[] = [];
  readonly #b: Uint16Array[] = [];
  readonly #count = new Uint32Array(PARTITIONS);
  #size = 0;

  /**
   * `expected`: about how many strings will be added, when the caller can tell (at most
   * {@link MAX_EXPECTED} are made room for up front). Growing a partition allocates its tables
   * again and copies them, a fifth of the set's time at a million URLs.
   */
  constructor(expected = 0) {
    const cap =
      Math.max(INITIAL_CAPACITY, Math.ceil(Math.min(expected, MAX_EXPECTED) / PARTITIONS / MAX_LOAD)) | 1;
    for (let p = 0; p < PARTITIONS; p++) {
      this.#a.push(new Uint32Array(cap));
      this.#b.push(new Uint16Array(cap));
    }
  }

  get size(): number {
    return this.#size;
  }

  /**
   * The set's tables, to hand it to another thread (their buffers can be transferred; this set
   * must not be used afterwards).
   */
  tables(): HashedSetTables {
    return { a: [...this.#a], b: [...this.#b], count: this.#count, size: this.#size };
  }

  /** A set made of another's {@link tables}. */
  static fromTables(t: HashedSetTables): HashedStringSet {
    const set = new HashedStringSet();
    set.#a.splice(0, PARTITIONS, ...t.a);
    set.#b.splice(0, PARTITIONS, ...t.b);
    set.#count.set(t.count);
    set.#size = t.size;
    return set;
  }

  /** Whether the string (or, very rarely, a 60-bit collision) is in the set. */
  has(s: string): boolean {
    hashLanes(s);
    const p = lane1 >>> (32 - PARTITION_BITS);
    const keyA = lane2;
    let keyB = lane1 & 0xffff;
    if (keyA === 0 && keyB === 0) keyB = 1;
    const a = this.#a[p]!;
    const b = this.#b[p]!;
    const cap = a.length;
    for (let i = slot(keyA, cap); ; i = i + 1 === cap ? 0 : i + 1) {
      const sa = a[i]!;
      const sb = b[i]!;
      if (sa === 0 && sb === 0) return false;
      if (sa === keyA && sb === keyB) return true;
    }
  }

  /** Adds the string; returns false when it (or, very rarely, a 60-bit collision) was there already. */
  add(s: string): boolean {
    hashLanes(s);
    const h1 = lane1;
    const h2 = lane2;
    const p = h1 >>> (32 - PARTITION_BITS);
    const keyA = h2;
    let keyB = h1 & 0xffff;
    if (keyA === 0 && keyB === 0) keyB = 1; // 0/0 marks an empty slot
    let a = this.#a[p]!;
    let b = this.#b[p]!;
    let cap = a.length;
    let i = slot(keyA, cap);
    for (;;) {
      const sa = a[i]!;
      const sb = b[i]!;
      if (sa === 0 && sb === 0) break;
      if (sa === keyA && sb === keyB) return false;
      i = i + 1 === cap ? 0 : i + 1;
    }
    const n = this.#count[p]! + 1;
    if (n > cap * MAX_LOAD) {
      this.#grow(p);
      a = this.#a[p]!;
      b = this.#b[p]!;
      cap = a.length;
      i = slot(keyA, cap);
      while (a[i] !== 0 || b[i] !== 0) i = i + 1 === cap ? 0 : i + 1;
    }
    a[i] = keyA;
    b[i] = keyB;
    this.#count[p] = n;
    this.#size++;
    return true;
  }

  #grow(p: number): void {
    const oldA = this.#a[p]!;
    const oldB = this.#b[p]!;
    const cap = Math.ceil(oldA.length * 1.3) | 1;
    const a = new Uint32Array(cap);
    const b = new Uint16Array(cap);
    for (let j = 0; j < oldA.length; j++) {
      const ka = oldA[j]!;
      const kb = oldB[j]!;
      if (ka === 0 && kb === 0) continue;
      let i = slot(ka, cap);
      while (a[i] !== 0 || b[i] !== 0) i = i + 1 === cap ? 0 : i + 1;
      a[i] = ka;
      b[i] = kb;
    }
    this.#a[p] = a;
    this.#b[p] = b;
  }
}
