import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { minuteQuotaDelay } from '../../src/cli/commands/status-google.js';

describe('the URL Inspection minute quota', () => {
  it('waiting as minuteQuotaDelay says, no minute ever holds more requests than allowed (a property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.integer({ min: 0, max: 20_000 }), { minLength: 1, maxLength: 80 }),
        (perMinute, durations) => {
          const sent: number[] = [];
          let now = 1_000_000;
          for (const d of durations) {
            now += minuteQuotaDelay(sent, now, perMinute);
            sent.push(now);
            now += d; // the request itself
          }
          for (let i = perMinute; i < sent.length; i++)
            expect(sent[i]! - sent[i - perMinute]!).toBeGreaterThanOrEqual(60_000);
        },
      ),
    );
  });

  it('does not wait below the quota, nor once the oldest request of the window is a minute old', () => {
    expect(minuteQuotaDelay([0, 1, 2], 3, 4)).toBe(0);
    expect(minuteQuotaDelay([0, 1, 2, 3], 10, 4)).toBe(59_990);
    expect(minuteQuotaDelay([0, 1, 2, 3], 70_000, 4)).toBe(0);
  });
});
