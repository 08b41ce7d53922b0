import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffMs, decideRetry, type RetryPolicy, retryAfterMs } from '../../src/http/retry.js';

const policy: RetryPolicy = { retries: 3, baseMs: 100, maxMs: 1000, maxRetryAfterMs: 60_000 };

describe('Retry-After', () => {
  it('delta-seconds: n seconds, whatever the clock', () => {
    fc.assert(
      fc.property(fc.nat(10_000_000), fc.nat(), (n, now) => {
        expect(retryAfterMs(String(n), now)).toBe(n * 1000);
        expect(retryAfterMs(` ${n} `, now)).toBe(n * 1000);
      }),
    );
  });

  it('an HTTP-date: the time until then, never negative', () => {
    const base = Date.UTC(2026, 0, 1);
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: 0, max: 999 }), (seconds, ms) => {
        const at = base + seconds * 1000;
        const header = new Date(at).toUTCString();
        expect(retryAfterMs(header, base + ms)).toBe(Math.max(0, at - (base + ms)));
      }),
    );
  });

  it('anything else is unreadable', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !/^\s*\d+\s*$/.test(s) && Number.isNaN(Date.parse(s))),
        (s) => {
          expect(retryAfterMs(s, 0)).toBeUndefined();
        },
      ),
    );
    expect(retryAfterMs(null, 0)).toBeUndefined();
  });
});

describe('decideRetry', () => {
  it('backoff stays within [backoff × (1 − jitter), backoff] and never above the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 0.999_999, noNaN: true }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (attempt, jitter, random, baseMs, maxMs) => {
          const p: RetryPolicy = { retries: 100, baseMs, maxMs, maxRetryAfterMs: 0, jitter };
          const d = decideRetry(p, attempt, 503, undefined, 0, () => random);
          expect(d.kind).toBe('retry');
          if (d.kind !== 'retry') return;
          const full = backoffMs(p, attempt);
          expect(full).toBeLessThanOrEqual(maxMs);
          expect(d.delayMs).toBeLessThanOrEqual(Math.ceil(full));
          expect(d.delayMs).toBeGreaterThanOrEqual(Math.floor(full * (1 - jitter)));
        },
      ),
    );
  });

  it('says what to do with a kind', () => {
    expect(decideRetry(policy, 1, 404, null, 0)).toEqual({ kind: 'final' });
    expect(decideRetry(policy, 1, 200, null, 0)).toEqual({ kind: 'final' });
    expect(decideRetry(policy, 1, 503, null, 0)).toEqual({ kind: 'retry', delayMs: 100, fromHeader: false });
    expect(decideRetry(policy, 3, undefined, null, 0)).toEqual({
      kind: 'retry',
      delayMs: 400,
      fromHeader: false,
    });
    expect(decideRetry(policy, 4, 500, null, 0)).toEqual({ kind: 'exhausted', attempts: 4 });
    expect(decideRetry(policy, 1, 429, '7', 0)).toEqual({ kind: 'retry', delayMs: 7000, fromHeader: true });
    expect(decideRetry(policy, 1, 429, '3600', 0)).toEqual({ kind: 'too-long', retryAfterMs: 3_600_000 });
    // Retry-After is read only where the policy says (429/503 by default).
    expect(decideRetry(policy, 1, 500, '7', 0)).toEqual({ kind: 'retry', delayMs: 100, fromHeader: false });
  });
});
