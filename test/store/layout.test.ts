import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LayoutWriter, readLayout } from '../../src/store/layout.js';
import { FileWriter } from '../../src/writer/file-writer.js';

// The building blocks of a spliced file (store/splice.ts): the layout blob, and a writer that takes
// copied bytes between serialised strings.
describe('splice building blocks', () => {
  it('a layout reads back as written: ids ascending (up to 2^53), lengths up to a file budget', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), { maxLength: 200 }),
        fc.array(fc.integer({ min: 0, max: 52_428_800 }), { minLength: 200, maxLength: 200 }),
        (raw, lens) => {
          const ids = [...raw].sort((a, b) => a - b);
          const w = new LayoutWriter();
          for (const [i, id] of ids.entries()) w.push(id, lens[i]!);
          const back = readLayout(w.finish(), ids.length);
          expect(back && [[...back.ids], [...back.lens]]).toEqual([ids, lens.slice(0, ids.length)]);
        },
      ),
    );
  });

  it('a layout cut, or of another count than the file it describes, is refused (the file is then written in full)', () => {
    const w = new LayoutWriter();
    w.push(1, 300);
    w.push(1_000_000, 70_000);
    const data = w.finish();
    expect(readLayout(data, 2)).toBeDefined();
    expect(readLayout(data.subarray(0, data.length - 1), 2)).toBeUndefined();
    expect(readLayout(data.subarray(0, 2), 1)).toBeUndefined();
    expect(readLayout(data.subarray(0, 3), 2)).toBeUndefined();
    expect(readLayout(data, 1)).toBeUndefined();
    expect(readLayout(data, 3)).toBeUndefined();
    const one = readLayout(data.subarray(0, 3), 1);
    expect(one && [[...one.ids], [...one.lens]]).toEqual([[1], [300]]);
  });

  it('FileWriter: strings and copied bytes in any order and size give their concatenation, counted and hashed', async () => {
    const piece = fc.oneof(
      fc.record({ s: fc.string({ unit: 'grapheme', maxLength: 300 }) }),
      fc.record({ b: fc.uint8Array({ maxLength: 300_000 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 12 }), async (pieces) => {
        const parts: Uint8Array[] = [];
        const w = new FileWriter({
          write: (chunk) => {
            parts.push(chunk);
            return undefined;
          },
          close: async () => undefined,
          abort: () => undefined,
        });
        const expected: Buffer[] = [];
        for (const p of pieces) {
          if ('s' in p) {
            w.write(p.s, Buffer.byteLength(p.s));
            expected.push(Buffer.from(p.s));
          } else {
            w.writeBytes(Buffer.from(p.b));
            expected.push(Buffer.from(p.b));
          }
        }
        const totals = await w.close();
        const want = Buffer.concat(expected);
        expect(Buffer.concat(parts).equals(want)).toBe(true);
        expect(totals.bytes).toBe(want.length);
        expect(totals.sha256).toBe(createHash('sha256').update(want).digest('hex'));
      }),
      { numRuns: 60 },
    );
  });
});
