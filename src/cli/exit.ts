/** Exit codes, the same for every command. */
export const EXIT_OK = 0;
/** Findings or partial failure: errors found, a URL disallowed, records skipped, nothing to write. */
export const EXIT_FINDINGS = 1;
/** Usage error, or the command could not run. */
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

/** Thrown by command actions for a usage problem that commander cannot see (exit 2). */
export class UsageError extends Error {
  override name = 'UsageError';
}
