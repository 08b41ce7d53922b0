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

/**
 * Whether `path` matches `pattern`: anchored at the start, `*` matches any run of octets, `$`
 * anchors the end only as the pattern's last octet. Worst case O(path × pattern), never
 * exponential: both sides come from strangers, so no backtracking regex.
 */
export function matchesPattern(path: string, pattern: string): boolean {
  if (!pattern.includes('*')) {
    if (pattern.endsWith('$')) return path === pattern.slice(0, -1);
    return path.startsWith(pattern);
  }
  const n = path.length;
  // pos[0..count) is the sorted set of path offsets the pattern prefix read so far can end at.
  const pos = new Int32Array(n + 1);
  let count = 1;
  for (let p = 0; p < pattern.length; p++) {
    const c = pattern[p]!;
    if (c === '$' && p === pattern.length - 1) return pos[count - 1] === n;
    if (c === '*') {
      const first = pos[0]!;
      count = n - first + 1;
      for (let i = 1; i < count; i++) pos[i] = first + i;
    } else {
      let next = 0;
      for (let i = 0; i < count; i++) {
        const at = pos[i]!;
        if (at < n && path[at] === c) pos[next++] = at + 1;
      }
      count = next;
      if (count === 0) return false;
    }
  }
  return true;
}

/**
 * Whether a user agent is a product token robots.txt groups can name (`[a-zA-Z_-]+`, Google's
 * `IsValidUserAgentToObey`). Pass such a token to `isAllowed`, not a full User-Agent header.
 */
export function isProductToken(userAgent: string): boolean {
  return /^[a-zA-Z_-]+$/.test(userAgent);
}
