/**
 * Request headers, checked once: names are RFC 9110 tokens and values carry no CR, LF or NUL
 * (a header injection). The caller's headers and credentials are scoped to the origins they were
 * given for; the User-Agent goes everywhere.
 */
import { SitemapkitError } from '../core/errors.js';

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** @default User-Agent of every request. */
export const DEFAULT_USER_AGENT = 'sitemapkit/0.1 (+https://github.com/sitemapkit/sitemapkit)';

/** Whether `name` is a valid header name. */
export function isHeaderName(name: string): boolean {
  return TOKEN.test(name);
}

/** Whether `value` may be sent as a header value (no CR, LF or NUL). */
export function isHeaderValue(value: string): boolean {
  return !/[\r\n\0]/.test(value);
}

/** Lower-cased, checked copy of `headers`; throws `ERR_OPTIONS` naming the first bad header. */
export function checkHeaders(headers: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (typeof v !== 'string' || !isHeaderName(k)) {
      throw new SitemapkitError(
        'ERR_OPTIONS',
        `header "${k}" must be a valid header name with a string value`,
      );
    }
    if (!isHeaderValue(v)) {
      throw new SitemapkitError('ERR_OPTIONS', `header "${k}" has a line break or NUL in its value`, {
        hint: 'a header value is one line',
      });
    }
    out[k.toLowerCase()] = v;
  }
  return out;
}

/** Checks a User-Agent; throws `ERR_OPTIONS` for a line break. */
export function checkUserAgent(userAgent: string | undefined): string {
  if (userAgent === undefined) return DEFAULT_USER_AGENT;
  if (typeof userAgent !== 'string' || !isHeaderValue(userAgent)) {
    throw new SitemapkitError('ERR_OPTIONS', 'userAgent must be one line of text');
  }
  return userAgent;
}
