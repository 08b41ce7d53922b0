/**
 * Request headers, checked once: names are RFC 9110 tokens and values carry no CR, LF or NUL
 * (a header injection). The caller's headers and credentials are scoped to the origins they were
 * given for; the User-Agent goes everywhere.
 */
import { headerRecord } from '../core/checks.js';
import { SitemapkitError } from '../core/errors.js';

/** @default User-Agent of every request. */
export const DEFAULT_USER_AGENT = 'sitemapkit/0.1 (+https://github.com/sitemapkit/sitemapkit)';

export { isHeaderName } from '../core/checks.js';

/** Whether `value` may be sent as a header value (no CR, LF or NUL). */
export function isHeaderValue(value: string): boolean {
  return !/[\r\n\0]/.test(value);
}

/** Lower-cased, checked copy of `headers` (the one rule of `core/checks.ts`); throws `ERR_OPTIONS`. */
export function checkHeaders(headers: Readonly<Record<string, unknown>> | undefined): Record<string, string> {
  return headerRecord('headers', headers);
}

/** Checks a User-Agent; throws `ERR_OPTIONS` for a line break. */
export function checkUserAgent(userAgent: string | undefined): string {
  if (userAgent === undefined) return DEFAULT_USER_AGENT;
  if (typeof userAgent !== 'string' || !isHeaderValue(userAgent)) {
    throw new SitemapkitError('ERR_OPTIONS', 'userAgent must be one line of text');
  }
  return userAgent;
}
