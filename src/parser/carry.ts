/**
 * The bytes after a chunk's last `</url>`, held back to go in front of the next chunk (issue 16).
 * So a `<url>` that a read cuts in two reaches the scanner whole, and is read in one call
 * (xml-simple-url.ts) rather than tag by tag while the engine is still cold; and the scanner's
 * buffer starts afresh with each chunk instead of the chunk being copied onto what was left.
 *
 * The scanner gives the same events however its text is cut, so this changes nothing but the
 * cost, provided the core scans what is held back before it reports anything itself or ends
 * (core.ts), and only ASCII is held back: no finding of the decoder moves with it.
 */

/** Most bytes held back. */
const MAX_HELD = 4096;

/** One document's held-back bytes (UTF-8 input only: the core decides). */
export class UrlCarry {
  #held: Uint8Array | undefined;
  /** Where the bytes held and the next chunk are put together, reused. */
  #joined = new Uint8Array(0);

  /** How many bytes are held back. */
  get held(): number {
    return this.#held === undefined ? 0 : this.#held.length;
  }

  /**
   * The bytes to scan now: the ones held back, then `bytes` up to the end of their last
   * `</url>`; the rest is held back. Valid until the next call.
   */
  cut(bytes: Uint8Array): Uint8Array {
    let all = bytes;
    const held = this.#held;
    if (held !== undefined) {
      this.#held = undefined;
      const n = held.length + bytes.length;
      if (this.#joined.length < n) this.#joined = new Uint8Array(Math.max(n, 2 * this.#joined.length));
      this.#joined.set(held, 0);
      this.#joined.set(bytes, held.length);
      all = this.#joined.subarray(0, n);
    }
    const end = urlEnd(all);
    if (end === all.length) return all;
    this.#held = all.slice(end);
    return all.subarray(0, end);
  }

  /** The bytes held back, no longer held; undefined when there are none. */
  take(): Uint8Array | undefined {
    const held = this.#held;
    this.#held = undefined;
    return held;
  }
}

/**
 * The index just after the last `</url>` of `b` when only ASCII follows it, at most
 * {@link MAX_HELD} bytes; otherwise `b.length` (nothing held back).
 */
function urlEnd(b: Uint8Array): number {
  const stop = Math.max(5, b.length - MAX_HELD);
  for (let i = b.length - 1; i >= stop; i--) {
    const c = b[i]!;
    if (c >= 0x80) break;
    // `</url>`, read backwards from its `>`.
    if (
      c === 0x3e &&
      b[i - 1] === 0x6c &&
      b[i - 2] === 0x72 &&
      b[i - 3] === 0x75 &&
      b[i - 4] === 0x2f &&
      b[i - 5] === 0x3c
    )
      return i + 1;
  }
  return b.length;
}
