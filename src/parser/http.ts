/**
 * The fetch layer: one GET of a sitemap with manual redirects (at most `maxRedirects`, http(s)
 * only, loops refused), one timeout for the whole exchange (body included), and the same headers
 * and User-Agent on every request. The network is a {@link Transport} (node:http by default, or
 * the injected `fetch`).
 */
import { SitemapkitError } from '../core/errors.js';
import type { FetchLike } from '../robots/fetch.js';
import type { Transport } from './transport.js';

/** @default User-Agent of every request. */
export const DEFAULT_USER_AGENT = 'sitemapkit/0.1 (+https://github.com/sitemapkit/sitemapkit)';

/** HTTP options, resolved once per entry point. */
export interface HttpOptions {
  /** For the robots module (robots.txt of cross-submitting hosts, discovery). */
  fetch: FetchLike;
  /** For sitemaps. */
  transport: Transport;
  headers: Readonly<Record<string, string>>;
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

  constructor(kind: FetchFailureKind, message: string, where: string, status?: number, cause?: unknown) {
    super('ERR_HTTP', message, {
      where,
      cause,
      hint:
        kind === 'status'
          ? 'check the URL; a sitemap must answer 200'
          : kind === 'redirect'
            ? 'link to the final URL of the sitemap'
            : 'check that the host is reachable from here, or raise the timeout',
    });
    this.kind = kind;
    this.status = status;
  }
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

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const ACCEPT =
  'application/xml, text/xml;q=0.9, application/rss+xml;q=0.9, application/atom+xml;q=0.9, text/plain;q=0.8, */*;q=0.5';

/** The request headers: ours first, the caller's over them, the User-Agent last. */
export function requestHeaders(options: Pick<HttpOptions, 'headers' | 'userAgent'>): Record<string, string> {
  const out: Record<string, string> = { accept: ACCEPT };
  for (const [k, v] of Object.entries(options.headers)) out[k.toLowerCase()] = v;
  out['user-agent'] = options.userAgent;
  return out;
}

/** `fetch` with the caller's headers and User-Agent added to every request (for the robots module). */
export function withHeaders(options: HttpOptions): FetchLike {
  // The robots module sends its own Accept; the rest applies to every request.
  const { accept: _accept, ...extra } = requestHeaders(options);
  return (input, init) => {
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    return options.fetch(input, { ...init, headers });
  };
}

/**
 * Fetches `url`; resolves once a 2xx response's headers arrive. Throws {@link FetchFailure} for
 * any other outcome, and `ERR_ABORTED` when the caller's signal aborts.
 */
export async function fetchBody(url: string, options: HttpOptions): Promise<FetchedBody> {
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  const headers = requestHeaders(options);
  const redirects: string[] = [];
  const seen = new Set([url]);
  let current = url;
  const fail = (cause: unknown): never => {
    if (options.signal?.aborted === true) {
      throw new SitemapkitError('ERR_ABORTED', `fetching ${current} was aborted`, { where: current, cause });
    }
    if (timeout.aborted) {
      throw new FetchFailure(
        'timeout',
        `no complete answer within ${options.timeoutMs} ms`,
        current,
        undefined,
        cause,
      );
    }
    const e = cause as { message?: string; cause?: { code?: string; message?: string } };
    const detail = e.cause?.code ?? e.cause?.message ?? e.message ?? String(cause);
    throw new FetchFailure('network', `network error: ${detail}`, current, undefined, cause);
  };
  for (;;) {
    let response: Awaited<ReturnType<Transport>>;
    try {
      response = await options.transport(current, headers, signal);
    } catch (cause) {
      return fail(cause);
    }
    const status = response.status;
    if (REDIRECTS.has(status)) {
      response.cancel();
      const location = response.location;
      if (location === null)
        throw new FetchFailure('redirect', `HTTP ${status} without a Location header`, current, status);
      let next: URL;
      try {
        next = new URL(location, current);
      } catch {
        throw new FetchFailure(
          'redirect',
          `HTTP ${status} to an invalid Location "${location}"`,
          current,
          status,
        );
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') {
        throw new FetchFailure(
          'redirect',
          `HTTP ${status} to "${next.href}": only http(s) is followed`,
          current,
          status,
        );
      }
      next.hash = '';
      if (seen.has(next.href))
        throw new FetchFailure('redirect', `redirect loop back to ${next.href}`, current, status);
      if (redirects.length >= options.maxRedirects) {
        throw new FetchFailure('redirect', `more than ${options.maxRedirects} redirects`, current, status);
      }
      current = next.href;
      seen.add(current);
      redirects.push(current);
      continue;
    }
    if (status < 200 || status > 299) {
      response.cancel();
      throw new FetchFailure(
        'status',
        `HTTP ${status}${response.statusText ? ` ${response.statusText}` : ''}`,
        current,
        status,
      );
    }
    return {
      url: current,
      redirects,
      status,
      body: guarded(response.body, fail),
      cancel: response.cancel,
    };
  }
}

/** The body's chunks; a failure mid-body is reported like a failed request (timeout, network). */
async function* guarded(
  body: AsyncIterable<Uint8Array>,
  fail: (cause: unknown) => never,
): AsyncGenerator<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      let r: IteratorResult<Uint8Array>;
      try {
        r = await iterator.next();
      } catch (cause) {
        return fail(cause);
      }
      if (r.done === true) return;
      yield r.value;
    }
  } finally {
    await iterator.return?.();
  }
}
