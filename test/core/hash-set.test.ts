import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashedStringSet, hashHex, hashInto } from '../../src/core/hash.js';
import { Dedupe } from '../../src/writer/dedupe.js';

describe('HashedStringSet', () => {
  it('answers exactly like a Set for any sequence of strings (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 12 }), { maxLength: 400 }),
        fc.constantFrom(0, 10, 5000, 1e12),
        (items, expected) => {
          const ours = new HashedStringSet(expected);
          const ref = new Set<string>();
          for (const s of items) {
            expect(ours.has(s)).toBe(ref.has(s));
            expect(ours.add(s)).toBe(!ref.has(s));
            ref.add(s);
            expect(ours.has(s)).toBe(true);
          }
          expect(ours.size).toBe(ref.size);
          // Handed to another thread and back (the JSONL reader's worker), its buffers transferred
          // each once as the worker does (tables not grown share one): the same members.
          const tables = ours.tables();
          const moved = HashedStringSet.fromTables(
            structuredClone(tables, { transfer: [...new Set(tables.t.map((t) => t.buffer as ArrayBuffer))] }),
          );
          expect(moved.size).toBe(ref.size);
          for (const s of items) expect(moved.has(s)).toBe(true);
          expect(moved.add('\u0000not-in-the-items')).toBe(!ref.has('\u0000not-in-the-items'));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('answers the same when a batch is hashed and warmed first (property)', () => {
    // The JSONL reader's worker hashes a group of URLs, fetches their slots together (warm), then
    // adds them in order by their hashes: the answers must be add()'s, duplicates within a group too.
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.string({ maxLength: 8 }), { maxLength: 40 }), { maxLength: 30 }),
        fc.constantFrom(0, 100, 1e12),
        (groups, expected) => {
          const one = new HashedStringSet(expected);
          const batched = new HashedStringSet(expected);
          for (const group of groups) {
            const h1 = new Uint32Array(group.length);
            const h2 = new Uint32Array(group.length);
            group.forEach((s, k) => {
              hashInto(s, h1, h2, k);
            });
            batched.warm(h1, h2, group.length);
            group.forEach((s, k) => {
              expect(batched.addHashed(h1[k]!, h2[k]!)).toBe(one.add(s));
            });
          }
          expect(batched.size).toBe(one.size);
          for (const s of groups.flat()) expect(batched.has(s)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('Dedupe.prepare and addAt find the duplicates add finds, first wins (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.array(fc.option(fc.constantFrom('a', 'b', 'c', 'https://e.com/x', ''), { nil: undefined }), {
            maxLength: 20,
          }),
          { maxLength: 20 },
        ),
        (groups) => {
          const one = new Dedupe();
          const batched = new Dedupe(1000);
          for (const group of groups) {
            batched.prepare(group, group.length);
            let k = 0;
            for (const loc of group) {
              if (loc === undefined) continue;
              expect(batched.addAt(k++, loc)).toStrictEqual(one.add(loc));
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps every member through many partition growths', () => {
    const set = new HashedStringSet();
    const n = 300_000;
    for (let i = 0; i < n; i++) expect(set.add(`https://example.com/page/${i}`)).toBe(true);
    for (let i = 0; i < n; i += 997) expect(set.add(`https://example.com/page/${i}`)).toBe(false);
    expect(set.size).toBe(n);
  });

  it('hashHex is 16 hex digits and tells near strings apart', () => {
    expect(hashHex('a')).toMatch(/^[0-9a-f]{16}$/);
    expect(hashHex('https://example.com/a')).not.toBe(hashHex('https://example.com/b'));
  });
});
