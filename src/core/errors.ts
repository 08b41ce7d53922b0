/**
 * Stable error codes. They are public API: scripts match on them, so a code is never renamed or
 * reused. Failures (misuse, I/O, limits) throw a {@link SitemapkitError}; findings about content
 * are {@link Diagnostic}s instead (see `diagnostics.ts`).
 */
export type ErrorCode =
  /** An option has a wrong type or value, or two options contradict each other. */
  | 'ERR_OPTIONS'
  /** An input record cannot be written (bad URL, date, priority, …) under `onInvalid: 'fail'`. */
  | 'ERR_INVALID_ENTRY'
  /** An input file could not be read or decoded (names the file and line). */
  | 'ERR_INPUT'
  /** The source yielded no entries: nothing was written, the previous set is kept. */
  | 'ERR_NO_URLS'
  /** Writing output failed (disk full, permissions); the previous set is kept. */
  | 'ERR_OUTPUT'
  /**
   * The output was published, but a later step failed (robots.txt, removing old files): the
   * message says what was and was not written.
   */
  | 'ERR_PARTIAL'
  /** A hard limit (size, count, depth) was exceeded. */
  | 'ERR_LIMIT'
  /** A network request failed or returned an unusable status. */
  | 'ERR_HTTP'
  /** A robots.txt rule forbids the operation. */
  | 'ERR_ROBOTS'
  /** An IndexNow endpoint rejected a submission. */
  | 'ERR_INDEXNOW'
  /** Google (its token endpoint, Search Console or the URL Inspection API) refused a request. */
  | 'ERR_GOOGLE'
  /** Bing Webmaster Tools refused a call (its `reason`: invalid key, site not verified, quota, …). */
  | 'ERR_BING'
  /** The operation was aborted through an AbortSignal or an interrupt. */
  | 'ERR_ABORTED'
  /** Crawl state or a site store is missing, locked or incompatible. */
  | 'ERR_STATE'
  /**
   * A site store opened read-only is being written by another process right now: nothing is
   * wrong, try again shortly (the sitemap handler serves its cached copy, or a 503 with Retry-After).
   */
  | 'ERR_BUSY'
  /**
   * A store build would remove more of the published URLs than the publish gate allows: nothing
   * was published and the store is as it was.
   */
  | 'ERR_GATE';

export interface SitemapkitErrorOptions {
  cause?: unknown;
  /** File, URL or record the error is about. */
  where?: string;
  /** What the user can do about it. */
  hint?: string;
}

/** The one error class of sitemapkit. Match on `code`, never on `message`. */
export class SitemapkitError extends Error {
  override name = 'SitemapkitError';
  readonly code: ErrorCode;
  readonly where: string | undefined;
  readonly hint: string | undefined;

  constructor(code: ErrorCode, message: string, options: SitemapkitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.where = options.where;
    this.hint = options.hint;
  }
}

/** Cross-realm safe guard: checks the name and code rather than `instanceof`. */
export function isSitemapkitError(error: unknown, code?: ErrorCode): error is SitemapkitError {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { name?: unknown; code?: unknown };
  return (
    e.name === 'SitemapkitError' && typeof e.code === 'string' && (code === undefined || e.code === code)
  );
}
