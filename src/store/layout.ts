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
  ids: number[];
  lens: number[];
}

/** Decodes a layout; undefined when the blob is not a whole one (then the file is written in full). */
export function readLayout(data: Uint8Array): Layout | undefined {
  const ids: number[] = [];
  const lens: number[] = [];
  let i = 0;
  let id = 0;
  const next = (): number | undefined => {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = data[i++];
      if (b === undefined) return undefined;
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  };
  while (i < data.length) {
    const gap = next();
    const len = next();
    if (gap === undefined || len === undefined || gap === 0) return undefined;
    id += gap;
    ids.push(id);
    lens.push(len);
  }
  return { ids, lens };
}
