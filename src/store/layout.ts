/**
 * The layout of a published child: for each entry in file order, its row id and the byte length
 * it took in the file, as varints (the id as the gap from the one before: ids ascend in a file).
 * One blob a file, recorded by the build that wrote the file (a row per file, never per URL: the
 * first build pays no write per URL for it), so that a later build can copy the bytes of the
 * entries that did not change from the previous file and serialise only the others (splice.ts).
 * About three bytes an entry.
 */

/** Builds a layout entry by entry, in file order. */
export class LayoutWriter {
  #buf: Buffer = Buffer.allocUnsafe(4096);
  #used = 0;
  #last = 0;

  push(id: number, len: number): void {
    if (this.#buf.length - this.#used < 20) {
      const next = Buffer.allocUnsafe(this.#buf.length * 2);
      this.#buf.copy(next, 0, 0, this.#used);
      this.#buf = next;
    }
    this.#varint(id - this.#last);
    this.#varint(len);
    this.#last = id;
  }

  // Numbers up to 2^53 (ids), so division rather than 32-bit shifts.
  #varint(n: number): void {
    let v = n;
    while (v >= 0x80) {
      this.#buf[this.#used++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.#buf[this.#used++] = v;
  }

  finish(): Uint8Array {
    return Uint8Array.prototype.slice.call(this.#buf, 0, this.#used);
  }
}

/** A decoded layout: ids ascending, and each entry's byte length. */
export interface Layout {
  ids: Float64Array;
  lens: Float64Array;
}

/**
 * Decodes a layout of `count` entries; undefined when the blob is not a whole layout of that many
 * (then the file is written in full).
 */
export function readLayout(data: Uint8Array, count: number): Layout | undefined {
  const ids = new Float64Array(count);
  const lens = new Float64Array(count);
  let i = 0;
  let id = 0;
  const next = (): number => {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = data[i++];
      if (b === undefined) return -1;
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  };
  for (let n = 0; n < count; n++) {
    const gap = next();
    const len = next();
    if (gap <= 0 || len < 0) return undefined;
    id += gap;
    ids[n] = id;
    lens[n] = len;
  }
  return i === data.length ? { ids, lens } : undefined;
}
