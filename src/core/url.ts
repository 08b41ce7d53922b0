import { MAX_LOC_LENGTH, MIN_LOC_LENGTH } from './limits.js';
import { httpUriSyntaxProblem } from './uri-syntax.js';

/**
 * The one URL rule of sitemapkit, shared by the writer, parser, validator and crawler:
 * absolute http(s), turned from an IRI into an RFC 3986 URI (WHATWG serialisation: percent-encoding,
 * punycode hosts), 12 to 2,047 characters once encoded, and inside the location scope.
 */
export type UrlCheck =
  | { ok: true; url: string }
  /** `url` is the offending URL: as serialised when it could be, else as written (trimmed). */
  | { ok: false; code: UrlRuleCode; message: string; url: string };

export type UrlRuleCode =
  | 'url-invalid'
  | 'url-scheme'
  | 'url-too-short'
  | 'url-too-long'
  | 'url-outside-location';

/** Where URLs may live: the location rule of sitemaps.org §"Sitemap file location". */
export interface LocationScope {
  /** `scheme://host[:port]/dir/`: every URL must start with it (see {@link locationPrefix}). */
  prefix: string;
  /** Hosts that cross-submit to this sitemap (their robots.txt names it): any URL on them is fine. */
  allowHosts?: readonly string[];
}

// Strings this scanner accepts serialise to themselves under WHATWG URL, so `new URL()` (about
// 1 µs a call, once the writer's largest cost at a million URLs) can be skipped. It is deliberately
// narrow: lower-case http(s) scheme and host, a host whose last label starts with a letter or a
// dotted-quad IPv4 address (no IPv4 shorthand, no punycode to validate), a non-default port without leading zeros, a path, only
// RFC 3986 characters that WHATWG leaves alone, well-formed %XX, no dot segments (also %2e), no
// fragment, and no `'` in the query (WHATWG encodes it there for special schemes). A character
// scan: the equivalent regex cost three times as much.
const PATH_OK = new Uint8Array(128);
const QUERY_OK = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/")
  PATH_OK[c.charCodeAt(0)] = 1;
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/?')
  QUERY_OK[c.charCodeAt(0)] = 1;

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function isLowerAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/**
 * Whether `raw[start, end)` is an IPv4 address as WHATWG URL writes one: four decimal numbers
 * from 0 to 255 without leading zeros (`127.0.0.1`). Shorthands (`127.1`), octal (`010.0.0.1`)
 * and hex forms are rewritten by WHATWG, so they stay on the slow path. Sites on an IP address
 * (a staging box, a crawl over loopback) would otherwise send every URL through `new URL()`.
 */
function isDottedQuad(raw: string, start: number, end: number): boolean {
  let parts = 0;
  let value = 0;
  let digits = 0;
  for (let i = start; i <= end; i++) {
    const c = i === end ? 46 : raw.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || value > 255) return false;
      parts++;
      value = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits === 1 && value === 0) return false;
      value = value * 10 + (c - 48);
      digits++;
    } else return false;
  }
  return parts === 4;
}

function fastPath(raw: string): string | undefined {
  const n = raw.length;
  // "http://" or "https://", read a character at a time: startsWith twice cost more than the test.
  if (
    n < 8 ||
    raw.charCodeAt(0) !== 104 ||
    raw.charCodeAt(1) !== 116 ||
    raw.charCodeAt(2) !== 116 ||
    raw.charCodeAt(3) !== 112
  )
    return undefined;
  const https = raw.charCodeAt(4) === 115;
  let i = https ? 5 : 4;
  if (raw.charCodeAt(i) !== 58 || raw.charCodeAt(i + 1) !== 47 || raw.charCodeAt(i + 2) !== 47)
    return undefined;
  i += 3;
  // Host: labels of [a-z0-9-], not starting or ending with '-', the last starting with a letter;
  // a label starting "xn--" is punycode, which WHATWG validates: left to the slow path.
  const hostStart = i;
  let labelStart = i;
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (isLowerAlnum(c)) continue;
    if (c === 45) {
      if (i === labelStart) return undefined;
      if (
        i === labelStart + 2 &&
        raw.charCodeAt(labelStart) === 120 &&
        raw.charCodeAt(labelStart + 1) === 110 &&
        raw.charCodeAt(i + 1) === 45
      )
        return undefined;
      continue;
    }
    if (c === 46) {
      if (i === labelStart || raw.charCodeAt(i - 1) === 45) return undefined;
      labelStart = i + 1;
      continue;
    }
    break;
  }
  if (i === labelStart || raw.charCodeAt(i - 1) === 45) return undefined;
  const first = raw.charCodeAt(labelStart);
  if ((first < 97 || first > 122) && !isDottedQuad(raw, hostStart, i)) return undefined;
  if (i < n && raw.charCodeAt(i) === 58) {
    const portStart = ++i;
    while (i < n && raw.charCodeAt(i) >= 48 && raw.charCodeAt(i) <= 57) i++;
    const len = i - portStart;
    if (len === 0 || len > 5 || raw.charCodeAt(portStart) === 48) return undefined;
    const port = Number(raw.slice(portStart, i));
    if (port > 65535 || port === (https ? 443 : 80)) return undefined;
  }
  if (i >= n || raw.charCodeAt(i) !== 47) return undefined;
  // Path: no dot segments ("/." anywhere sends it to the slow path, as does %2e).
  for (; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c === 63) break;
    if (c >= 128 || PATH_OK[c] === 0) {
      if (c !== 37) return undefined;
      const a = raw.charCodeAt(i + 1);
      const b = raw.charCodeAt(i + 2);
      if (!isHex(a) || !isHex(b) || (a === 50 && (b === 101 || b === 69))) return undefined;
      i += 2;
      continue;
    }
    if (c === 46 && raw.charCodeAt(i - 1) === 47) return undefined;
  }
  for (i++; i < n; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 128 || QUERY_OK[c] === 0) {
      if (c !== 37 || !isHex(raw.charCodeAt(i + 1)) || !isHex(raw.charCodeAt(i + 2))) return undefined;
      i += 2;
    }
  }
  return raw;
}

/**
 * Turns a user-given IRI or URI into the URI that goes into a sitemap, or says why it cannot.
 * Surrounding whitespace is removed; nothing else is changed beyond WHATWG serialisation.
 */
export function toUri(raw: string): UrlCheck {
  const input = raw.trim();
  const fast = fastPath(input);
  return fast === undefined ? slowPath(input) : lengthRule(fast);
}

/**
 * {@link toUri} for URLs read from a document: the text as written must first be an http(s) URL
 * by RFC 3986 and RFC 9110 (see `uri-syntax.ts`), so that WHATWG URL never repairs it silently
 * (`http:/host`, a TAB in the host, an empty label). Strings the fast path accepts pass that
 * check by construction, so the common case costs nothing more.
 */
export function toStrictUri(raw: string): UrlCheck {
  const input = raw.trim();
  const fast = fastPath(input);
  if (fast !== undefined) return lengthRule(fast);
  const problem = httpUriSyntaxProblem(input);
  if (problem !== undefined) {
    return { ok: false, code: 'url-invalid', message: `"${clip(visible(input))}" ${problem}`, url: input };
  }
  return slowPath(input);
}

/**
 * {@link toUri} and {@link toStrictUri} without the fast path: the WHATWG parse for every URL.
 * For the tests that prove the fast path gives the same result on any input (issue 16).
 */
export function slowUri(raw: string, strict: boolean): UrlCheck {
  const input = raw.trim();
  if (strict) {
    const problem = httpUriSyntaxProblem(input);
    if (problem !== undefined) {
      return { ok: false, code: 'url-invalid', message: `"${clip(visible(input))}" ${problem}`, url: input };
    }
  }
  return slowPath(input);
}

function slowPath(input: string): UrlCheck {
  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    const hint = /^[a-z][a-z0-9+.-]*:/i.test(input)
      ? 'it cannot be parsed as a URL'
      : 'it is not an absolute URL: give the full address with http:// or https://';
    return { ok: false, code: 'url-invalid', message: `"${clip(input)}": ${hint}`, url: input };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      ok: false,
      code: 'url-scheme',
      message: `"${clip(input)}" uses ${parsed.protocol.slice(0, -1)}: only http and https URLs belong in a sitemap`,
      url: input,
    };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return {
      ok: false,
      code: 'url-invalid',
      message: `"${clip(input)}" carries credentials: remove user:password@`,
      url: input,
    };
  }
  return lengthRule(parsed.href);
}

/** 12 to 2,047 characters once serialised. */
function lengthRule(url: string): UrlCheck {
  if (url.length < MIN_LOC_LENGTH) {
    return {
      ok: false,
      code: 'url-too-short',
      message: `"${url}" has ${url.length} characters; the minimum is ${MIN_LOC_LENGTH}`,
      url,
    };
  }
  if (url.length > MAX_LOC_LENGTH) {
    return {
      ok: false,
      code: 'url-too-long',
      message: `"${clip(url)}" has ${url.length} characters once encoded; the maximum is ${MAX_LOC_LENGTH}`,
      url,
    };
  }
  return { ok: true, url };
}

/**
 * The prefix every URL of a sitemap must start with. `kind: 'file'` takes a sitemap's own URL and
 * keeps its directory (crawler-commons' `SiteMap.setBaseUrl`); `kind: 'dir'` takes the public URL
 * of an output folder (a missing trailing slash is added). The query is ignored.
 */
export function locationPrefix(url: string, kind: 'file' | 'dir'): string {
  const u = new URL(url);
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new TypeError(`"${url}" is not an http(s) URL`);
  }
  let path = u.pathname;
  if (kind === 'file') path = path.slice(0, path.lastIndexOf('/') + 1);
  else if (!path.endsWith('/')) path += '/';
  return `${u.protocol}//${u.host}${path}`;
}

/** Whether an already serialised URL lies inside the scope (the location rule, with cross-submits). */
export function inScope(url: string, scope: LocationScope): boolean {
  if (url.startsWith(scope.prefix)) return true;
  if (scope.allowHosts === undefined || scope.allowHosts.length === 0) return false;
  const u = new URL(url);
  return scope.allowHosts.some((h) => {
    const host = h.toLowerCase();
    return host.includes(':') ? host === u.host : host === u.hostname;
  });
}

/** {@link toUri} followed by the location rule when a scope is given. */
export function checkUrl(raw: string, scope?: LocationScope): UrlCheck {
  const r = toUri(raw);
  if (!r.ok || scope === undefined || inScope(r.url, scope)) return r;
  return {
    ok: false,
    code: 'url-outside-location',
    message: `"${clip(r.url)}" is outside ${scope.prefix}: a sitemap may only list URLs under its own folder on its own scheme, host and port`,
    url: r.url,
  };
}

/** Control characters as escapes, so that a message stays on one line. */
function visible(s: string): string {
  return s.replace(/[\x00-\x1f\x7f]/g, (c) =>
    c === '\t'
      ? '\\t'
      : c === '\n'
        ? '\\n'
        : c === '\r'
          ? '\\r'
          : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function clip(s: string): string {
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
