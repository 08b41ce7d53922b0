/**
 * One request to Google through the shared HTTP client, retried by the shared retry policy (429
 * and 5xx, network failures; `Retry-After` honoured up to a limit). The last answer is returned
 * whatever its status, with a note on why retrying stopped; the caller words the refusal.
 */
import { SitemapkitError } from '../../core/errors.js';
import type { HttpMethod } from '../../http/client.js';
import { HttpError } from '../../http/errors.js';
import { decideRetry } from '../../http/retry.js';
import type { ApiHttp } from '../api-http.js';
import { GoogleApiError } from './errors.js';

/** A request as sent (and as a dry run prints it, secrets redacted). */
export interface GoogleRequest {
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The client, retries and clock of every exchange. */
export type ExchangeContext = ApiHttp;

/** The final answer: its status and body, the attempts made, and why retrying stopped (or ''). */
export interface Answer {
  status: number;
  body: string;
  attempts: number;
  note: string;
}

/** Failures another try a few seconds later would meet again: an unknown host, a refused address. */
const LASTING: ReadonlySet<string> = new Set(['dns', 'tls', 'bad-scheme', 'address-refused', 'too-large']);

/** Google's JSON bodies are small; a megabyte is far past any of them. */
const MAX_BODY = 1 << 20;

// A function, not an inline test: TypeScript would keep a narrowing of `aborted` across awaits.
function isAborted(ctx: ExchangeContext): boolean {
  return ctx.signal?.aborted === true;
}

function aborted(where: string, cause?: unknown): SitemapkitError {
  return new SitemapkitError('ERR_ABORTED', 'the request to Google was aborted', { where, cause });
}

/** Sends `req`, retrying as the policy says. Throws `GoogleApiError` (`network`) or `ERR_ABORTED`. */
export async function exchange(ctx: ExchangeContext, req: GoogleRequest, doing: string): Promise<Answer> {
  let attempts = 0;
  for (;;) {
    if (isAborted(ctx)) throw aborted(req.url);
    attempts++;
    let status: number | undefined;
    let body = '';
    let retryAfter: string | null = null;
    let failure: string | undefined;
    let lasting = false;
    try {
      const r = await ctx.client.request(req.url, {
        method: req.method,
        headers: req.headers,
        ...(req.body === undefined ? {} : { body: req.body }),
        timeoutMs: ctx.timeoutMs,
        maxBytes: MAX_BODY,
        signal: ctx.signal,
        // Google never redirects its APIs; a redirect would be a proxy's login page.
        redirect: 'manual',
      });
      status = r.status;
      body = await r.text();
      retryAfter = r.headers.get('retry-after');
      if (status >= 200 && status < 300) return { status, body, attempts, note: '' };
    } catch (cause) {
      if (isAborted(ctx) || (cause instanceof HttpError && cause.reason === 'aborted'))
        throw aborted(req.url, cause);
      failure = cause instanceof HttpError ? cause.message : String(cause);
      lasting = cause instanceof HttpError && LASTING.has(cause.reason);
    }
    const decision = lasting
      ? ({ kind: 'final' } as const)
      : decideRetry(ctx.policy, attempts, status, retryAfter, ctx.now());
    if (decision.kind === 'retry') {
      try {
        await ctx.sleep(decision.delayMs, ctx.signal);
      } catch (cause) {
        throw aborted(req.url, cause);
      }
      continue;
    }
    const note =
      decision.kind === 'exhausted'
        ? `; gave up after ${attempts} attempts`
        : decision.kind === 'too-long'
          ? `; Google asks to wait ${Math.ceil(decision.retryAfterMs / 1000)} s (Retry-After), longer than allowed`
          : '';
    if (status === undefined) {
      throw new GoogleApiError('network', `no answer from Google while ${doing} (${failure}${note})`, {
        where: req.url,
        hint: 'check the network, or the API root (--google-api-root)',
      });
    }
    return { status, body, attempts, note };
  }
}

/** `{"a":1}` → the object; anything else → a `GoogleApiError` (`unexpected`) naming the URL. */
export function jsonOf(body: string, where: string, doing: string): Record<string, unknown> {
  if (body.trim() === '') return {};
  try {
    const v: unknown = JSON.parse(body);
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // Worded below.
  }
  throw new GoogleApiError('unexpected', `Google's answer to ${doing} is not the documented JSON`, {
    where,
    hint: 'check the API root (--google-api-root): a proxy may have answered',
  });
}
