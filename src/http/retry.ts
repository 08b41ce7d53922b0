/**
 * Retries as one pure policy: which outcomes are worth another try, and when. Exponential backoff
 * (`baseMs`, doubled each attempt, capped at `maxMs`, optionally with jitter) unless the server
 * said when with `Retry-After`, which wins; a `Retry-After` longer than `maxRetryAfterMs` is not
 * waited for. The decision says what to do with a `kind`, never with prose to be parsed.
 */

/** HTTP statuses that may succeed on another try. */
export const RETRY_STATUSES: ReadonlySet<number> = new Set([408, 425, 429, 500, 502, 503, 504]);

export interface RetryPolicy {
  /** Further attempts after the first. */
  retries: number;
  /** First backoff, milliseconds. */
  baseMs: number;
  /** Longest backoff, milliseconds. */
  maxMs: number;
  /** Longest `Retry-After` honoured, milliseconds. */
  maxRetryAfterMs: number;
  /** Statuses worth another try. @default RETRY_STATUSES */
  statuses?: (status: number) => boolean;
  /** Statuses whose `Retry-After` is read. @default 429 and 503 */
  retryAfterStatuses?: (status: number) => boolean;
  /** Share of the backoff drawn at random (0: exact, 1: anywhere from 0 to the backoff). @default 0 */
  jitter?: number;
}

/**
 * `retry`: wait `delayMs` and try again. `final`: the outcome is not worth another try.
 * `exhausted`: the attempts are spent. `too-long`: the server asks for a longer wait than allowed.
 */
export type RetryDecision =
  | { kind: 'retry'; delayMs: number; fromHeader: boolean }
  | { kind: 'final' }
  | { kind: 'exhausted'; attempts: number }
  | { kind: 'too-long'; retryAfterMs: number };

/**
 * `Retry-After` (RFC 9110 §10.2.3) as a delay in milliseconds: delta-seconds or an HTTP-date.
 * Undefined when absent or unreadable; a date in the past gives 0.
 */
export function retryAfterMs(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** The backoff before attempt `attempt + 1`, without jitter. */
export function backoffMs(policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>, attempt: number): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
}

/**
 * What to do after attempt number `attempt` (1 for the first) ended with `status` (undefined for
 * a network error or timeout). `retryAfter` is the header's raw value; `now` is ms since the epoch;
 * `random` returns [0, 1) and is used only with jitter.
 */
export function decideRetry(
  policy: RetryPolicy,
  attempt: number,
  status: number | undefined,
  retryAfter: string | null | undefined,
  now: number,
  random: () => number = Math.random,
): RetryDecision {
  const retryable = policy.statuses ?? ((s: number) => RETRY_STATUSES.has(s));
  if (status !== undefined && !retryable(status)) return { kind: 'final' };
  const readsHeader = policy.retryAfterStatuses ?? ((s: number) => s === 429 || s === 503);
  const header = status !== undefined && readsHeader(status) ? retryAfterMs(retryAfter, now) : undefined;
  if (header !== undefined && header > policy.maxRetryAfterMs)
    return { kind: 'too-long', retryAfterMs: header };
  if (attempt > policy.retries) return { kind: 'exhausted', attempts: attempt };
  if (header !== undefined) return { kind: 'retry', delayMs: header, fromHeader: true };
  const full = backoffMs(policy, attempt);
  const jitter = Math.min(1, Math.max(0, policy.jitter ?? 0));
  const delayMs = jitter === 0 ? full : Math.round(full * (1 - jitter) + full * jitter * random());
  return { kind: 'retry', delayMs, fromHeader: false };
}
