// The crawl's totals after its last page come from one scan of every URL (`CrawlState.tallies`,
// TALLY_SQL added up by talliesOf) instead of three (`counts`, `verdictCounts`, `statusCounts`):
// whatever the URLs' states, verdicts, statuses and attempts, the one scan gives the same figures
// as the three queries, the verdicts in the same order (the crawl's `--json` stats print them so).
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/crawler/records.js';
import { CrawlState } from '../../src/crawler/state.js';

const open: CrawlState[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const VERDICTS: readonly Verdict[] = [
  'listed',
  'noindex',
  'canonicalised',
  'redirect',
  'broken',
  'error',
  'not-ok',
  'non-html',
  'robots',
  'excluded',
  'trap',
  'too-deep',
];

/** A URL: queued, leased (in flight) or finished with a verdict, a status or none, some attempts. */
const url = fc.oneof(
  fc.constant({ kind: 'queued' as const }),
  fc.constant({ kind: 'leased' as const }),
  fc.record({
    kind: fc.constant('finished' as const),
    verdict: fc.constantFrom(...VERDICTS),
    status: fc.option(fc.constantFrom(200, 301, 304, 404, 500, 503), { nil: null }),
    attempts: fc.nat(3),
  }),
);

describe('the totals after the last page', () => {
  it('one scan gives what the three queries gave, in their order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(url, { maxLength: 40 }), async (urls) => {
        const state = await CrawlState.open(':memory:', 'new');
        open.push(state);
        let leases = 0;
        state.transaction(() => {
          urls.forEach((u, i) => {
            const outcome =
              u.kind === 'finished'
                ? { verdict: u.verdict, status: u.status, attempts: u.attempts }
                : undefined;
            state.insert(`https://example.com/p${i}`, 1, 'link', null, outcome);
            if (u.kind === 'leased') leases++;
          });
        });
        // Leased URLs are taken from the queue's head: which ones does not matter to the totals.
        if (leases > 0) state.lease(leases);
        const t = state.tallies();
        expect(t.counts).toEqual(state.counts());
        expect([...t.verdicts]).toEqual([...state.verdictCounts()]);
        expect([...t.statuses]).toEqual([...state.statusCounts()]);
        expect(t.counts.total).toBe(urls.length);
      }),
      { numRuns: 200 },
    );
  });
});
