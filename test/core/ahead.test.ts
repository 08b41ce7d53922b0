import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapAhead } from '../../src/core/ahead.js';

/** Settles each call when the test says so, in any order, and counts the calls in flight. */
function controlled<T>() {
  const pending: { value: T; resolve: (v: string) => void; reject: (e: Error) => void }[] = [];
  let inFlight = 0;
  let most = 0;
  const fn = (value: T): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      inFlight++;
      most = Math.max(most, inFlight);
      pending.push({
        value,
        resolve: (v) => {
          inFlight--;
          resolve(v);
        },
        reject: (e) => {
          inFlight--;
          reject(e);
        },
      });
    });
  return { fn, pending, most: () => most };
}

async function* source(n: number, closed: { value: boolean }): AsyncGenerator<number> {
  try {
    for (let i = 0; i < n; i++) yield i;
  } finally {
    closed.value = true;
  }
}

describe('mapAhead', () => {
  it('yields every result in the input order whatever order the calls settle in, never more than depth in flight', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.array(fc.nat(), { maxLength: 400 }),
        async (n, depth, picks) => {
          const c = controlled<number>();
          const closed = { value: false };
          const out: string[] = [];
          const run = (async () => {
            for await (const r of mapAhead(source(n, closed), c.fn, depth)) out.push(r);
          })();
          let k = 0;
          // Settle a chosen pending call at each step, so that later calls often finish first.
          while (out.length < n) {
            await new Promise((r) => setImmediate(r));
            if (c.pending.length === 0) continue;
            const [p] = c.pending.splice((picks[k++] ?? 0) % c.pending.length, 1);
            p!.resolve(`v${p!.value}`);
          }
          await run;
          expect(out).toEqual(Array.from({ length: n }, (_, i) => `v${i}`));
          expect(c.most()).toBeLessThanOrEqual(depth);
          expect(closed.value).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('throws a failed call at its turn, after the results before it, and closes the source', async () => {
    const closed = { value: false };
    const got: number[] = [];
    const fn = async (i: number): Promise<number> => {
      if (i === 3) throw new Error('page 3 is gone');
      return i;
    };
    await expect(
      (async () => {
        for await (const r of mapAhead(source(10, closed), fn, 4)) got.push(r);
      })(),
    ).rejects.toThrow('page 3 is gone');
    expect(got).toEqual([0, 1, 2]);
    expect(closed.value).toBe(true);
  });

  it('stops early without an unhandled rejection from a call still in flight, and takes sync iterables', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown): void => {
      unhandled.push(e);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const fn = async (i: number): Promise<number> => {
        if (i > 0) throw new Error(`late failure ${i}`);
        return i;
      };
      for await (const r of mapAhead([0, 1, 2, 3], fn, 4)) {
        expect(r).toBe(0);
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
