import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HashedStringSet, hashHex } from '../../src/core/hash.js';

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
          // Handed to another thread and back (the JSONL reader's worker): the same members.
          const moved = HashedStringSet.fromTables(structuredClone(ours.tables()));
          expect(moved.size).toBe(ref.size);
          for (const s of items) expect(moved.has(s)).toBe(true);
          expect(moved.add('\u0000not-in-the-items')).toBe(!ref.has('\u0000not-in-the-items'));
        },
      ),
      { numRuns: 300 },
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
