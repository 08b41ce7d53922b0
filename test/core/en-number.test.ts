import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { enNumber } from '../../src/core/en-number.js';

/** enNumber is toLocaleString('en-US') without ICU (start-up, issue 16): the same text for every number. */
describe('enNumber', () => {
  it('groups whole numbers as toLocaleString("en-US") does', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -999_999, max: 999_999 })),
        (n) => {
          expect(enNumber(n)).toBe(n.toLocaleString('en-US'));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('gives any other number as toLocaleString("en-US") does', () => {
    fc.assert(
      fc.property(fc.double(), (n) => {
        expect(enNumber(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 2000 },
    );
    for (const n of [
      0,
      -0,
      1,
      -1,
      999,
      1000,
      -1000,
      1e21,
      2 ** 53,
      -(2 ** 53),
      Number.NaN,
      Infinity,
      0.5,
      1234.5678,
    ])
      expect(enNumber(n)).toBe(n.toLocaleString('en-US'));
  });
});
