/**
 * What the crawler adds to the HTTP layer's retry policy (`http/retry.ts`): the words the report
 * gives for a URL it gave up, and the older public shape of a decision (`{ retry, reason }`),
 * both read off the decision's `kind`.
 */
import { type RetryDecision as Decision, decideRetry as decide } from '../http/retry.js';

export { RETRY_STATUSES, type RetryPolicy } from '../http/retry.js';

/** Why a URL was given up, in words (for the report), or undefined when nothing was given up. */
export function giveUpReason(decision: Decision, maxRetryAfterMs: number): string | undefined {
  switch (decision.kind) {
    case 'exhausted':
      return `gave up after ${decision.attempts} attempts`;
    case 'too-long':
      return `Retry-After asks for ${Math.ceil(decision.retryAfterMs / 1000)} s, more than the ${Math.ceil(maxRetryAfterMs / 1000)} s waited at most`;
    default:
      return undefined;
  }
}

/** {@link decideRetry}'s answer: `reason` says in words why it gave up. */
export type RetryDecision =
  | { retry: true; delayMs: number; fromHeader: boolean }
  | { retry: false; reason?: string };

/** The HTTP layer's retry decision in the shape of the crawler's public API. */
export function decideRetry(...args: Parameters<typeof decide>): RetryDecision {
  const d = decide(...args);
  if (d.kind === 'retry') return { retry: true, delayMs: d.delayMs, fromHeader: d.fromHeader };
  const reason = giveUpReason(d, args[0].maxRetryAfterMs);
  return reason === undefined ? { retry: false } : { retry: false, reason };
}
