/**
 * One IndexNow exchange: the key file check, and one batch POST retried by the HTTP layer's retry
 * policy (429 and 5xx, network failures; `Retry-After` honoured up to a limit).
 */
import { SitemapkitError } from '../core/errors.js';
import type { HttpResponse } from '../http/client.js';
import { HttpError } from '../http/errors.js';
import { decideRetry } from '../http/retry.js';
import type { ApiHttp } from './api-http.js';
import type { IndexNowBatchResult } from './indexnow-result.js';

export interface PostContext extends ApiHttp {
  endpoint: string;
}

const MESSAGES: Record<number, { text: string; hint: string }> = {
  400: {
    text: 'Bad request: the engine could not read the submission',
    hint: 'report this as a sitemapkit bug, with the endpoint',
  },
  403: {
    text: 'Forbidden: the key is not valid (key file not found, or it does not hold the key)',
    hint: 'serve KEY.txt holding exactly the key at the host root (`sitemapkit submit key --out DIR`), or pass --key-location',
  },
  422: {
    text: "Unprocessable: URLs don't belong to the host, or the key does not match the protocol",
    hint: 'submit only URLs of the host the key file is on; with a keyLocation, only URLs in its folder',
  },
  429: {
    text: 'Too many requests: the engine suspects spam',
    hint: 'submit less often: only URLs that changed, not the same URL several times a day',
  },
};

// A function, not an inline test: TypeScript would keep a narrowing of `aborted` across awaits.
function isAborted(ctx: PostContext): boolean {
  return ctx.signal?.aborted === true;
}

function aborted(ctx: PostContext, cause?: unknown): SitemapkitError {
  return new SitemapkitError('ERR_ABORTED', 'IndexNow submission aborted', { where: ctx.endpoint, cause });
}

async function bodySnippet(response: HttpResponse): Promise<string> {
  try {
    const t = (await response.text()).trim().replace(/\s+/g, ' ');
    return t === '' ? '' : ` (${t.length > 200 ? `${t.slice(0, 197)}...` : t})`;
  } catch {
    return '';
  }
}

/** Whether the key file holds the key: undefined when it does, else what is wrong. */
export async function verifyKeyFile(
  ctx: PostContext,
  keyFile: string,
  key: string,
): Promise<string | undefined> {
  try {
    const r = await ctx.client.request(keyFile, {
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
      maxBytes: 65_536,
    });
    if (r.status >= 200 && r.status < 300) {
      const body = (await r.text()).replace(/^\uFEFF/, '').trim();
      return body === key ? undefined : `it does not hold the key (it starts "${body.slice(0, 40)}")`;
    }
    r.cancel();
    return `it answered HTTP ${r.status}`;
  } catch (cause) {
    if (isAborted(ctx)) throw aborted(ctx, cause);
    return `it could not be fetched (${(cause as Error).message})`;
  }
}

/** Posts one batch (host, key, keyLocation, urlList), retrying as the policy says. */
export async function postBatch(
  ctx: PostContext,
  h: { host: string; key: string; keyLocation: string | undefined },
  urlList: string[],
): Promise<IndexNowBatchResult> {
  const base = { host: h.host, urls: urlList.length };
  // Field order as in the protocol's example: host, key, keyLocation, urlList.
  const payload: { host: string; key: string; keyLocation?: string; urlList?: string[] } = {
    host: h.host,
    key: h.key,
  };
  if (h.keyLocation !== undefined) payload.keyLocation = h.keyLocation;
  payload.urlList = urlList;
  const body = JSON.stringify(payload);
  const where = `${ctx.endpoint} (${h.host}, ${urlList.length} URLs from ${urlList[0]})`;
  let attempts = 0;
  for (;;) {
    if (isAborted(ctx)) throw aborted(ctx);
    attempts++;
    let status: number | undefined;
    let message: string;
    let retryAfter: string | null = null;
    try {
      const r = await ctx.client.request(ctx.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body,
        timeoutMs: ctx.timeoutMs,
        maxBytes: 65_536,
        overflow: 'truncate',
        signal: ctx.signal,
      });
      status = r.status;
      if (status === 200 || status === 202) {
        r.cancel();
        const message =
          status === 200
            ? `HTTP 200: ${urlList.length} URL(s) submitted for ${h.host}`
            : `HTTP 202: ${urlList.length} URL(s) received for ${h.host}; the engine is still validating the key`;
        return {
          ...base,
          status: status === 200 ? 'submitted' : 'accepted',
          httpStatus: status,
          attempts,
          message,
        };
      }
      const known = MESSAGES[status];
      message = `HTTP ${status}: ${known?.text ?? (status >= 500 ? 'server error' : 'unexpected answer')}${await bodySnippet(r)}`;
      retryAfter = r.headers.get('retry-after');
    } catch (cause) {
      if (isAborted(ctx) || (cause instanceof HttpError && cause.reason === 'aborted'))
        throw aborted(ctx, cause);
      message = cause instanceof HttpError ? cause.message : `network error: ${String(cause)}`;
    }
    const decision = decideRetry(ctx.policy, attempts, status, retryAfter, ctx.now());
    const fail = (why?: string): IndexNowBatchResult => {
      const error = new SitemapkitError('ERR_INDEXNOW', why === undefined ? message : `${message}; ${why}`, {
        where,
        hint:
          (status === undefined ? undefined : MESSAGES[status]?.hint) ??
          (decision.kind === 'final' ? 'check the endpoint URL' : 'try again later'),
      });
      const r: IndexNowBatchResult = { ...base, status: 'failed', attempts, message: error.message, error };
      if (status !== undefined) r.httpStatus = status;
      return r;
    };
    switch (decision.kind) {
      case 'final':
        return fail();
      case 'too-long':
        return fail(
          `the engine asks to wait ${Math.ceil(decision.retryAfterMs / 1000)} s (Retry-After), longer than allowed`,
        );
      case 'exhausted':
        return fail(`gave up after ${attempts} attempt(s)`);
      case 'retry':
        try {
          await ctx.sleep(decision.delayMs, ctx.signal);
        } catch (cause) {
          throw aborted(ctx, cause);
        }
    }
  }
}
