import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openSubmissionJournal } from '../../src/submit/journal.js';
import { tempDir } from '../support/tmp.js';

// The journal's promise as a property, in-process: an engine that accepts batches, refuses some
// for good and fails others; runs that stop after any number of batches (every journal step is
// durable before it returns, so abandoning a run there is what a kill between batches leaves);
// after a killed run, the same command again (same source); after a run that ended, a run with
// nothing new (a cron job flushing what was kept). Whatever the schedule, once a run ends with a
// healthy engine, every distinct URL was accepted or refused exactly once: none lost, none twice.

const SITE = 'https://www.example.com/';

interface Schedule {
  urls: string[];
  batch: number;
  /** Per run: how many batches it gets through before it stops (undefined: to the end). */
  stops: Array<number | undefined>;
  /** URLs (by index in the distinct list) whose batch the engine fails in the first run. */
  failing: number;
  /** URLs the engine refuses for good (settled, never accepted). */
  refused: Set<string>;
}

const schedule: fc.Arbitrary<Schedule> = fc
  .record({
    ids: fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 80 }),
    batch: fc.integer({ min: 1, max: 9 }),
    stops: fc.array(fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }), { maxLength: 4 }),
    failing: fc.integer({ min: 0, max: 3 }),
    refusedIds: fc.array(fc.integer({ min: 0, max: 60 }), { maxLength: 5 }),
  })
  .map(({ ids, batch, stops, failing, refusedIds }) => ({
    urls: ids.map((i) => `${SITE}p/${i}`),
    batch,
    stops,
    failing,
    refused: new Set(refusedIds.map((i) => `${SITE}p/${i}`)),
  }));

describe('the submission journal, as a property', () => {
  it('stopped runs and reruns of the same source: each URL is settled exactly once, none lost', async () => {
    await fc.assert(
      fc.asyncProperty(schedule, async (s) => {
        const dir = tempDir('sk-jprop');
        const accepted: string[] = [];
        const refused: string[] = [];
        let failuresLeft = s.failing;
        // Each planned run, then one last run that goes to the end with a healthy engine.
        const runs = [...s.stops, undefined];
        // The first run reads the source; a run after a killed one is the same command again.
        let source = s.urls;
        let killed = true;
        for (let r = 0; r < runs.length; r++) {
          const last = r === runs.length - 1;
          const journal = await openSubmissionJournal({ dir, channel: 'bing-urls', target: SITE });
          if (!killed) source = [];
          const items = await journal.plan(source);
          killed = false;
          let batch: string[] = [];
          let done = 0;
          let stopped = false;
          const send = async (): Promise<void> => {
            const list = batch;
            batch = [];
            if (!last && failuresLeft > 0) {
              failuresLeft--;
              return; // failed after retries: not settled, kept
            }
            for (const u of list) (s.refused.has(u) ? refused : accepted).push(u);
            await journal.settle(list);
            done++;
          };
          for await (const u of items) {
            batch.push(u);
            if (batch.length >= s.batch) {
              await send();
              if (runs[r] !== undefined && done >= runs[r]!) {
                stopped = true;
                break;
              }
            }
          }
          if (stopped) {
            killed = true; // killed between batches: no finish()
            continue;
          }
          if (batch.length > 0) await send();
          await journal.finish();
        }
        const distinct = [...new Set(s.urls)];
        const settled = [...accepted, ...refused];
        expect(new Set(settled).size).toBe(settled.length); // nothing twice
        expect(new Set(settled)).toEqual(new Set(distinct)); // nothing lost
      }),
      { numRuns: 40 },
    );
  });
});
