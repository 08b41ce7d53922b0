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

/** What to do after an attempt, by kind: callers switch on `kind`, never on the wording. */
export type RetryStep =
  /** Try again after `delayMs`; `fromHeader` when the server said when (Retry-After). */
  | { kind: 'retry'; delayMs: number; fromHeader: boolean }
  /** The outcome is final: another try would not change it. */
  | { kind: 'final' }
  /** Retryable, but the retries are used up. */
  | { kind: 'exhausted'; attempts: number }
  /** The server asked for a longer wait (`waitMs`) than the crawl waits at most (`maxMs`). */
  | { kind: 'retry-after-too-long'; waitMs: number; maxMs: number };

/**
 * What to do after attempt number `attempt` (1 for the first) ended with `status` (undefined for
 * a network error or timeout). `retryAfter` is the header's raw value; `now` is ms since the epoch.
 */
export function retryStep(
  policy: RetryPolicy,
  attempt: number,
  status: number | undefined,
  retryAfter: string | null | undefined,
  now: number,
): RetryStep {
  if (status !== undefined && !RETRY_STATUSES.has(status)) return { kind: 'final' };
  if (attempt > policy.retries) return { kind: 'exhausted', attempts: attempt };
  if (status === 429 || status === 503) {
    const ms = retryAfterMs(retryAfter, now);
    if (ms !== undefined) {
      if (ms > policy.maxRetryAfterMs) {
        return { kind: 'retry-after-too-long', waitMs: ms, maxMs: policy.maxRetryAfterMs };
      }
      return { kind: 'retry', delayMs: ms, fromHeader: true };
    }
  }
  const delay = Math.min(policy.maxMs, policy.baseMs * 2 ** (attempt - 1));
  return { kind: 'retry', delayMs: delay, fromHeader: false };
}

/** Why a URL was given up, in words (for the report), or undefined when nothing was given up. */
export function giveUpReason(step: RetryStep): string | undefined {
  switch (step.kind) {
    case 'exhausted':
      return `gave up after ${step.attempts} attempts`;
    case 'retry-after-too-long':
      return `Retry-After asks for ${Math.ceil(step.waitMs / 1000)} s, more than the ${Math.ceil(step.maxMs / 1000)} s waited at most`;
    default:
      return undefined;
  }
}

/** {@link decideRetry}'s answer (the public shape; the crawler uses {@link RetryStep}). */
export type RetryDecision =
  | { retry: true; delayMs: number; fromHeader: boolean }
  | { retry: false; reason?: string };

/** {@link retryStep} in the shape of the public API: `reason` says in words why it gave up. */
export function decideRetry(
  policy: RetryPolicy,
  attempt: number,
  status: number | undefined,
  retryAfter: string | null | undefined,
  now: number,
): RetryDecision {
  const step = retryStep(policy, attempt, status, retryAfter, now);
  if (step.kind === 'retry') return { retry: true, delayMs: step.delayMs, fromHeader: step.fromHeader };
  const reason = giveUpReason(step);
  return reason === undefined ? { retry: false } : { retry: false, reason };
}
