/**
 * The matching primitives of RFC 9309 §2.2.2–2.2.3 as google/robotstxt implements them (robots.cc,
 * `GetPathParamsQuery`, `MaybeEscapePattern`, `RobotsMatchStrategy::Matches`). All inputs and
 * outputs are byte strings (see bytes.ts).
 */

/**
 * The path, params and query of a URL, exactly as given (no decoding, no normalisation), without
 * scheme, authority and fragment; always starts with `/`. An empty or path-less URL gives `/`.
 */
export function robotsPath(url: string): string {
  const searchStart = url.startsWith('//') ? 2 : 0;
  const earlyPath = firstOf(url, '/?;', searchStart);
  let protocolEnd = url.indexOf('://', searchStart);
  // A path, params or query that starts before "://" means "://" is not a scheme separator.
  if (earlyPath !== -1 && (protocolEnd === -1 || earlyPath < protocolEnd)) protocolEnd = -1;
  protocolEnd = protocolEnd === -1 ? searchStart : protocolEnd + 3;
  const pathStart = firstOf(url, '/?;', protocolEnd);
  if (pathStart === -1) return '/';
  const hash = url.indexOf('#', searchStart);
  if (hash !== -1 && hash < pathStart) return '/';
  const path = url.slice(pathStart, hash === -1 ? url.length : hash);
  return path.startsWith('/') ? path : `/${path}`;
}

function firstOf(s: string, chars: string, from: number): number {
  for (let i = from; i < s.length; i++) if (chars.includes(s[i]!)) return i;
  return -1;
}

const HEX = '0123456789ABCDEF';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

/**
 * Canonicalises an Allow/Disallow value: octets ≥ 0x80 are percent-encoded and existing `%xx`
 * escapes are upper-cased (RFC 9309 §2.2.2: non-ASCII octets are compared percent-encoded).
 */
export function escapePattern(value: string): string {
  // Most patterns need nothing: skip the rebuild.
  if (!/[\x80-\xff]|%[0-9A-Fa-f]?[a-f]/.test(value)) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    const code = c.charCodeAt(0);
    if (c === '%' && isHex(value[i + 1]) && isHex(value[i + 2])) {
      out += `%${value[i + 1]!.toUpperCase()}${value[i + 2]!.toUpperCase()}`;
      i += 2;
    } else if (code >= 0x80) {
      out += `%${HEX[code >> 4]}${HEX[code & 0xf]}`;
    } else {
      out += c;
    }
  }
  return out;
}

/** A compiled pattern: tells whether a byte-string path matches. */
export type PathMatcher = (path: string) => boolean;

/**
 * Compiles a pattern: anchored at the start, `*` matches any run of octets, `$` anchors the end
 * only as the pattern's last octet (elsewhere it is literal). A glob whose only wildcard is `*`
 * matches greedily, segment by segment, leftmost first: no backtracking, so a hostile pattern
 * costs at most one scan of the path per segment.
 */
export function compilePattern(pattern: string): PathMatcher {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  if (!body.includes('*')) return anchored ? (path) => path === body : (path) => path.startsWith(body);
  const segs = body.split('*');
  const first = segs[0]!;
  const last = segs[segs.length - 1]!;
  const middle = segs.slice(1, -1).filter((x) => x !== '');
  return (path) => {
    if (!path.startsWith(first)) return false;
    let at = first.length;
    for (const seg of middle) {
      const i = path.indexOf(seg, at);
      if (i === -1) return false;
      at = i + seg.length;
    }
    // The last segment may sit anywhere after `at`; anchored, it must end the path.
    if (anchored) return path.length - last.length >= at && path.endsWith(last);
    return last === '' || path.includes(last, at);
  };
}

/** Whether `path` matches `pattern` (see {@link compilePattern}). */
export function matchesPattern(path: string, pattern: string): boolean {
  return compilePattern(pattern)(path);
}

/**
 * Whether a user agent is a product token robots.txt groups can name (`[a-zA-Z_-]+`, Google's
 * `IsValidUserAgentToObey`). Pass such a token to `isAllowed`, not a full User-Agent header.
 */
export function isProductToken(userAgent: string): boolean {
  return /^[a-zA-Z_-]+$/.test(userAgent);
}
