/**
 * Retries as a pure policy: which outcomes are worth another try, and when. Exponential backoff
 * (`baseMs`, doubled each attempt, capped at `maxMs`) unless the server said when with
 * `Retry-After` on 429/503, which wins; a `Retry-After` longer than `maxRetryAfterMs` is not waited
 * for (the URL is given up and the reason recorded).
 */
import { retryAfterMs } from '../submit/retry-after.js';

export interface RetryPolicy {
  /** Further attempts after the first. */
  retries: number;
  /** First backoff, milliseconds. */
  baseMs: number;
  /** Longest backoff, milliseconds. */
  maxMs: number;
  /** Longest `Retry-After` honoured, milliseconds. */
  maxRetryAfterMs: number;
}

/** HTTP statuses that may succeed on another try. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);

export type RetryDecision =
  | { retry: true; delayMs: number; fromHeader: boolean }
  | { retry: false; reason?: string };

/**
 * What to do after attempt number `attempt` (1 for the first) ended with `status` (undefined for
 * a network error or timeout). `retryAfter` is the header's raw value; `now` is ms since the epoch.
 */
export function decideRetry(
  policy: RetryPolicy,
  attempt: number,
  status: number | undefined,
  retryAfter: string | null | undefined,
  now: number,
): RetryDecision {
  if (status !== undefined && !RETRY_STATUSES.has(status)) return { retry: false };
  if (attempt > policy.retries) return { retry: false, reason: `gave up after ${attempt} attempts` };
  if (status === 429 || status === 503) {
    const ms = retryAfterMs(retryAfter, now);
    if (ms !== undefined) {
      if (ms > policy.maxRetryAfterMs) {
        return {
          retry: false,
          reason: `Retry-After asks for ${Math.ceil(ms / 1000)} s, more than the ${Math.ceil(policy.maxRetryAfterMs / 1000)} s waited at most`,
        };
      }
      return { retry: true, delayMs: ms, fromHeader: true };
    }
  }
  const delay = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  return { retry: true, delayMs: delay, fromHeader: false };
}
