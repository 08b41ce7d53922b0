/**
 * The parser's side of the HTTP layer: one GET of a sitemap through the run's {@link HttpClient},
 * its failures turned into {@link FetchFailure}s whose `kind` maps to the diagnostic codes
 * `fetch-status`, `fetch-failed` and `fetch-redirect`.
 */
import { SitemapkitError } from '../core/errors.js';
import type { HttpClient } from '../http/client.js';
import { HttpError, type HttpFailureReason } from '../http/errors.js';

export { DEFAULT_USER_AGENT } from '../http/headers.js';

/** HTTP options, resolved once per entry point. */
export interface HttpOptions {
  client: HttpClient;
  /** Whether the entry point made the client (and closes it when done). */
  ownsClient: boolean;
  userAgent: string;
  timeoutMs: number;
  maxRedirects: number;
  signal: AbortSignal | undefined;
}

/** Why a fetch failed: maps to the diagnostic codes `fetch-status`, `fetch-failed`, `fetch-redirect`. */
export type FetchFailureKind = 'status' | 'network' | 'timeout' | 'redirect';

/** A failed fetch: a `SitemapkitError` (`ERR_HTTP`) that also says what kind of failure it was. */
export class FetchFailure extends SitemapkitError {
  readonly kind: FetchFailureKind;
  readonly status: number | undefined;
  /** The HTTP layer's reason, for every kind but `status`. */
  readonly reason: HttpFailureReason | undefined;

  constructor(
    kind: FetchFailureKind,
    message: string,
    where: string,
    status?: number,
    cause?: unknown,
    reason?: HttpFailureReason,
  ) {
    super('ERR_HTTP', message, {
      where,
      cause,
      hint:
        kind === 'status'
          ? 'check the URL; a sitemap must answer 200'
          : kind === 'redirect'
            ? 'link to the final URL of the sitemap'
            : reason === 'address-refused'
              ? 'a public sitemap led to a private address; pass addressPolicy "off" (CLI: --allow-private-addresses) if that is intended'
              : 'check that the host is reachable from here, or raise the timeout',
    });
    this.kind = kind;
    this.status = status;
    this.reason = reason;
  }
}

/** The diagnostic code of a source that could not be opened (a file that cannot be read counts as `fetch-failed`). */
export function fetchFailureCode(error: unknown): 'fetch-status' | 'fetch-redirect' | 'fetch-failed' {
  if (!(error instanceof FetchFailure)) return 'fetch-failed';
  return error.kind === 'status'
    ? 'fetch-status'
    : error.kind === 'redirect'
      ? 'fetch-redirect'
      : 'fetch-failed';
}

/** A response whose headers arrived; read `body` once, or `cancel()` it. */
export interface FetchedBody {
  /** The URL the body comes from, after redirects. */
  url: string;
  /** The redirect targets followed, in order. */
  redirects: string[];
  status: number;
  body: AsyncIterable<Uint8Array>;
  cancel(): void;
}

const ACCEPT =
  'application/xml, text/xml;q=0.9, application/rss+xml;q=0.9, application/atom+xml;q=0.9, text/plain;q=0.8, */*;q=0.5';

const REDIRECT_REASONS: ReadonlySet<HttpFailureReason> = new Set([
  'too-many-redirects',
  'redirect-loop',
  'bad-redirect',
]);

/** The parser's form of an HTTP layer failure; an abort stays `ERR_ABORTED`. */
function asFailure(error: unknown): unknown {
  if (!(error instanceof HttpError) || error.reason === 'aborted') return error;
  const where = error.where ?? '';
  const kind: FetchFailureKind =
    error.reason === 'timeout'
      ? 'timeout'
      : REDIRECT_REASONS.has(error.reason) || (error.reason === 'bad-scheme' && error.status !== undefined)
        ? 'redirect'
        : 'network';
  return new FetchFailure(kind, error.message, where, error.status, error, error.reason);
}

/**
 * Fetches `url`; resolves once a 2xx response's headers arrive. Throws {@link FetchFailure} for
 * any other outcome, and `ERR_ABORTED` when the caller's signal aborts.
 */
export async function fetchBody(url: string, options: HttpOptions): Promise<FetchedBody> {
  let r: Awaited<ReturnType<HttpClient['request']>>;
  try {
    r = await options.client.request(url, {
      headers: { accept: ACCEPT },
      timeoutMs: options.timeoutMs,
      maxRedirects: options.maxRedirects,
      signal: options.signal,
    });
  } catch (error) {
    throw asFailure(error);
  }
  if (r.status < 200 || r.status > 299) {
    r.cancel();
    throw new FetchFailure(
      'status',
      `HTTP ${r.status}${r.statusText ? ` ${r.statusText}` : ''}`,
      r.url,
      r.status,
    );
  }
  return { url: r.url, redirects: r.redirects, status: r.status, body: guarded(r.body()), cancel: r.cancel };
}

/** The body's chunks; a failure mid-body is reported like a failed request (timeout, network). */
async function* guarded(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } catch (error) {
    throw asFailure(error);
  }
}
