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

/** The two lanes of {@link hash64}, written at index `k` of `h1` and `h2` (a batch's hashes, for {@link HashedStringSet.warm}). */
export function hashInto(s: string, h1: Uint32Array, h2: Uint32Array, k: number): void {
  hashLanes(s);
  h1[k] = lane1;
  h2[k] = lane2;
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
  /** Per partition, three 16-bit words a slot (see {@link HashedStringSet}). */
  t: Uint16Array[];
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
 *
 * A slot is three 16-bit words side by side in one array per partition (the key's low and high
 * halves, then the 16 more bits): a probe into a set of megabytes is a cache miss, and a slot in
 * one place is one miss (and one typed array to find) where a table for each part was two.
 */
export class HashedStringSet {
  readonly #t: Uint16Array[] = [];
  readonly #count = new Uint32Array(PARTITIONS);
  #size = 0;

  /**
   * `expected`: about how many strings will be added, when the caller can tell (at most
   * {@link MAX_EXPECTED} are made room for up front). Growing a partition allocates its table
   * again and copies it, a fifth of the set's time at a million URLs.
   */
  constructor(expected = 0) {
    const cap =
      Math.max(INITIAL_CAPACITY, Math.ceil(Math.min(expected, MAX_EXPECTED) / PARTITIONS / MAX_LOAD)) | 1;
    // One buffer for every partition's first table, each a view of its part: 4,096 typed arrays
    // with buffers of their own took about 5 ms of CPU, which every validate and generate paid,
    // a one-URL run included (start-up, issue 16). A partition that grows gets a table of its own.
    const buffer = new ArrayBuffer(PARTITIONS * 3 * cap * 2);
    for (let p = 0; p < PARTITIONS; p++) this.#t.push(new Uint16Array(buffer, p * 3 * cap * 2, 3 * cap));
  }

  get size(): number {
    return this.#size;
  }

  /**
   * The set's tables, to hand it to another thread (their buffers can be transferred, each once:
   * tables that have not grown share one; this set must not be used afterwards).
   */
  tables(): HashedSetTables {
    return { t: [...this.#t], count: this.#count, size: this.#size };
  }

  /** A set made of another's {@link tables}. */
  static fromTables(tables: HashedSetTables): HashedStringSet {
    const set = new HashedStringSet();
    set.#t.splice(0, PARTITIONS, ...tables.t);
    set.#count.set(tables.count);
    set.#size = tables.size;
    return set;
  }

  /** Whether the string (or, very rarely, a 60-bit collision) is in the set. */
  has(s: string): boolean {
    hashLanes(s);
    const t = this.#t[lane1 >>> (32 - PARTITION_BITS)]!;
    const lo = lane2 & 0xffff;
    const hi = lane2 >>> 16;
    let keyB = lane1 & 0xffff;
    if (lane2 === 0 && keyB === 0) keyB = 1;
    const cap = t.length / 3;
    for (let i = slot(lane2, cap); ; i = i + 1 === cap ? 0 : i + 1) {
      const j = 3 * i;
      const a = t[j]!;
      const b = t[j + 1]!;
      const c = t[j + 2]!;
      if (a === lo && b === hi && c === keyB) return true;
      if (a === 0 && b === 0 && c === 0) return false;
    }
  }

  /** Adds the string; returns false when it (or, very rarely, a 60-bit collision) was there already. */
  add(s: string): boolean {
    hashLanes(s);
    return this.addHashed(lane1, lane2);
  }

  /**
   * Reads the first slot of each of `n` strings hashed by {@link hashInto}, all at once, so that
   * the {@link addHashed} calls that follow find their slots in the cache. In a set of megabytes
   * every probe is a cache miss; loads that do not depend on each other are waited for together
   * (a third less time for the set in the JSONL reader's worker, a batch of lines at a time).
   * Returns a number only so that the loads are not optimised away.
   */
  warm(h1: Uint32Array, h2: Uint32Array, n: number): number {
    const tables = this.#t;
    let x = 0;
    for (let k = 0; k < n; k++) {
      const t = tables[h1[k]! >>> (32 - PARTITION_BITS)]!;
      x += t[3 * slot(h2[k]!, t.length / 3)]!;
    }
    return x;
  }

  /** {@link add} of a string whose two lanes ({@link hashInto}) are given. */
  addHashed(h1: number, h2: number): boolean {
    const p = h1 >>> (32 - PARTITION_BITS);
    const keyA = h2;
    const lo = keyA & 0xffff;
    const hi = keyA >>> 16;
    let keyB = h1 & 0xffff;
    if (keyA === 0 && keyB === 0) keyB = 1; // an all-zero slot is empty
    let t = this.#t[p]!;
    let cap = t.length / 3;
    let i = slot(keyA, cap);
    for (;;) {
      const j = 3 * i;
      const a = t[j]!;
      const b = t[j + 1]!;
      const c = t[j + 2]!;
      if (a === lo && b === hi && c === keyB) return false;
      if (a === 0 && b === 0 && c === 0) break;
      i = i + 1 === cap ? 0 : i + 1;
    }
    const n = this.#count[p]! + 1;
    if (n > cap * MAX_LOAD) {
      t = this.#grow(p);
      cap = t.length / 3;
      i = slot(keyA, cap);
      while (t[3 * i] !== 0 || t[3 * i + 1] !== 0 || t[3 * i + 2] !== 0) i = i + 1 === cap ? 0 : i + 1;
    }
    const j = 3 * i;
    t[j] = lo;
    t[j + 1] = hi;
    t[j + 2] = keyB;
    this.#count[p] = n;
    this.#size++;
    return true;
  }

  #grow(p: number): Uint16Array {
    const old = this.#t[p]!;
    const cap = Math.ceil((old.length / 3) * 1.3) | 1;
    const t = new Uint16Array(3 * cap);
    for (let j = 0; j < old.length; j += 3) {
      const a = old[j]!;
      const b = old[j + 1]!;
      const c = old[j + 2]!;
      if (a === 0 && b === 0 && c === 0) continue;
      let i = slot(b * 65536 + a, cap);
      while (t[3 * i] !== 0 || t[3 * i + 1] !== 0 || t[3 * i + 2] !== 0) i = i + 1 === cap ? 0 : i + 1;
      t[3 * i] = a;
      t[3 * i + 1] = b;
      t[3 * i + 2] = c;
    }
    this.#t[p] = t;
    return t;
  }
}
