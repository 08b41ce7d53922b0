/**
 * What the crawler adds to the HTTP layer's retry policy (`http/retry.ts`): the words the report
 * gives for a URL it gave up, read off the decision's `kind`.
 */
import type { RetryDecision as Decision } from '../http/retry.js';

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
