/**
 * The crawler's URL identity (RFC 3986 §6.2.2–6.2.3 on top of WHATWG parsing): lower-case scheme
 * and host, no default port, dot segments removed, `%xx` in upper case and unreserved characters
 * decoded, no fragment, no credentials, no empty `?`; then the parameter policy: session-ID and
 * tracking parameters stripped (the shared list in core/url-params.ts), and a keep-list or a
 * drop-list for the others. Two links that name the same resource become the same string, so the
 * seen-set and the sitemap hold it once.
 */
import { stripSessionAndTrackingParams } from '../core/url-params.js';

/** What the normaliser does with query parameters. */
export interface ParamPolicy {
  /** Strip session-ID and tracking parameters (`utm_*`, `gclid`, `PHPSESSID`, …). @default true */
  stripTracking: boolean;
  /** When set, only these parameters are kept (names compared case-insensitively). */
  keep: ReadonlySet<string> | undefined;
  /** These parameters are removed (names compared case-insensitively). */
  drop: ReadonlySet<string>;
}

export const DEFAULT_PARAM_POLICY: ParamPolicy = { stripTracking: true, keep: undefined, drop: new Set() };

const UNRESERVED = /[A-Za-z0-9\-._~]/;

// %xx → upper-case hex, or the character itself when it is unreserved (RFC 3986 §6.2.2.1–2).
// A decoded hex digit right after a bare `%` or `%x` would make a new escape (`%0%61` → `%0a`,
// which the next pass reads as one byte), so that one stays encoded: normalising twice must
// give what normalising once gave.
const HEX = /^[0-9a-fA-F]$/;

function normalizeEscapes(part: string): string {
  if (!part.includes('%')) return part;
  let out = '';
  let last = 0;
  for (const m of part.matchAll(/%([0-9a-fA-F]{2})/g)) {
    out += part.slice(last, m.index);
    last = m.index + 3;
    const ch = String.fromCharCode(Number.parseInt(m[1]!, 16));
    const joins = HEX.test(ch) && (out.endsWith('%') || (out.at(-2) === '%' && HEX.test(out.at(-1)!)));
    out += UNRESERVED.test(ch) && !joins ? ch : m[0].toUpperCase();
  }
  return out + part.slice(last);
}

function paramName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = eq === -1 ? pair : pair.slice(0, eq);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * The normalised form of an absolute http(s) URL, or undefined when it is not one (mailto:,
 * javascript:, unparseable). `base` resolves relative references.
 */
export function normalizeCrawlUrl(
  raw: string,
  base?: string,
  policy: ParamPolicy = DEFAULT_PARAM_POLICY,
): string | undefined {
  let u: URL;
  try {
    u = base === undefined ? new URL(raw.trim()) : new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  u.hash = '';
  u.username = '';
  u.password = '';
  let href = u.href;
  if (policy.stripTracking && (u.search !== '' || href.includes(';'))) {
    href = stripSessionAndTrackingParams(href);
    u = new URL(href);
  }
  let search = u.search;
  if (search !== '' && (policy.keep !== undefined || policy.drop.size > 0)) {
    const kept = search
      .slice(1)
      .split('&')
      .filter((pair) => {
        if (pair === '') return false;
        const name = paramName(pair);
        if (policy.keep !== undefined) return policy.keep.has(name);
        return !policy.drop.has(name);
      });
    search = kept.length === 0 ? '' : `?${kept.join('&')}`;
  } else if (search !== '') {
    // Empty pairs (`a=1&&b=2`, a trailing `&`) carry nothing.
    const pairs = search.slice(1).split('&');
    if (pairs.includes('')) {
      const kept = pairs.filter((p) => p !== '');
      search = kept.length === 0 ? '' : `?${kept.join('&')}`;
    }
  }
  const path = normalizeEscapes(u.pathname);
  const query = normalizeEscapes(search);
  // u.host is already lower case, without a default port, punycoded (WHATWG).
  return `${u.protocol}//${u.host}${path}${query}`;
}

/** `scheme://host[:port]` of a normalised URL. */
export function originOf(url: string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}`;
}
