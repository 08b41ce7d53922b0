/**
 * The syntax of an http(s) URL as written, before any normalisation: RFC 3986 with the http(s)
 * scheme's own rules (RFC 9110 §4.2: an authority with a non-empty host and no user information;
 * host names of RFC 1123 labels, dotted-quad IPv4 or a bracketed IPv6 literal).
 *
 * Why it exists: WHATWG URL, which serialises every URL sitemapkit writes or reads, is lenient by
 * design and repairs what it is given without a word: `http:/host/a`, `http:host/a`,
 * `http:\\host\a` and `https:///host/a` all become `https://host/a`, TABs and line breaks vanish
 * (two URLs on two lines merge into one), `http://1.2.3/` becomes `1.2.0.3`, an empty label or an
 * empty `@` is dropped. A sitemap that needs such a repair is broken and must be told so.
 *
 * What stays accepted on purpose, because WHATWG only *encodes* it (the meaning is kept) and real
 * sitemaps are full of it: raw non-ASCII in the path, query and fragment (IRIs, RFC 3987), raw
 * spaces and the other characters WHATWG percent-encodes (`"<>{}|^` and the backquote), hosts
 * written in Unicode (IDNA turns them into punycode, as the protocol expects), upper-case schemes
 * and hosts, an empty port, dot segments. Those are not in normal form: the validator says so
 * (`url-not-normal`), the parser keeps them.
 */

/** Code points that are never part of a URL as written: C0 controls and DEL. */
function isControl(c: number): boolean {
  return c < 0x20 || c === 0x7f;
}

function isHexDigit(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function isAsciiAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** Full stops that IDNA (UTS #46) maps to `.`: a label ends at them too. */
const IDEOGRAPHIC_DOTS = /[\u3002\uff0e\uff61]/g;

/** Invisible or blank code points IDNA would drop or refuse in a host (ZWJ and ZWNJ belong to some scripts). */
const INVISIBLE = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Z}]/u;

/** A second absolute URL after blanks: two URLs in one value. */
const SECOND_URL = /\s[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const IPV4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/i;
const LDH_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/**
 * Why `text` (trimmed, entities decoded) is not an http(s) URL as RFC 3986 and RFC 9110 write it,
 * in words that finish the sentence `"URL" ...`; undefined when it is, and also when it does not
 * start with `http:` or `https:` (relative URLs and other schemes are judged by the URL rule).
 */
export function httpUriSyntaxProblem(text: string): string | undefined {
  // It runs on every URL the fast path of core/url.ts leaves to WHATWG URL: one pass over the
  // characters, regular expressions only where that pass saw a reason.
  const schemeEnd = httpSchemeEnd(text);
  if (schemeEnd === -1) return undefined;
  const n = text.length;
  let wide = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c >= 0x80) wide = true;
    else if (isControl(c)) {
      const what =
        c === 9 ? 'a TAB' : c === 10 || c === 13 ? 'a line break' : `the control character U+${hex4(c)}`;
      return `holds ${what} at character ${i + 1}: a URL has none (two URLs in one value, or one broken over lines?)`;
    } else if (c === 92) {
      return `holds a backslash at character ${i + 1}: URLs separate their parts with /`;
    } else if (c === 37 && !(isHexDigit(text.charCodeAt(i + 1)) && isHexDigit(text.charCodeAt(i + 2)))) {
      return `holds a % at character ${i + 1} that is not followed by two hex digits: write a literal % as %25`;
    }
  }
  if (wide && SECOND_URL.test(text)) return 'holds two URLs separated by blanks: give one URL per entry';
  let i = schemeEnd + 1;
  if (text.charCodeAt(i) !== 47 || text.charCodeAt(i + 1) !== 47) {
    return `must continue "${text.slice(0, i)}" with // and the host name`;
  }
  i += 2;
  let end = i;
  while (end < n) {
    const c = text.charCodeAt(end);
    if (c === 47 || c === 63 || c === 35) break;
    end++;
  }
  const authority = text.slice(i, end);
  // The URLs of one sitemap nearly all share a host: judge each host once in a row.
  if (authority === lastGoodAuthority) return undefined;
  const problem = hostProblem(authority, wide);
  if (problem === undefined && !wide) lastGoodAuthority = authority;
  return problem;
}

/** The last authority (host and port) found good; one without blanks or non-ASCII characters. */
let lastGoodAuthority = '\0';

/** The index of the `:` ending an `http` or `https` scheme (any letter case), or -1. */
function httpSchemeEnd(text: string): number {
  if (text.length < 5 || (text.charCodeAt(0) | 32) !== 104 || (text.charCodeAt(1) | 32) !== 116) return -1;
  if ((text.charCodeAt(2) | 32) !== 116 || (text.charCodeAt(3) | 32) !== 112) return -1;
  const c = text.charCodeAt(4);
  if (c === 58) return 4;
  return (c | 32) === 115 && text.charCodeAt(5) === 58 ? 5 : -1;
}

/** Problems of `authority` (between `//` and the path). */
function hostProblem(authority: string, wide: boolean): string | undefined {
  if (authority.includes('@')) {
    return 'carries user information before @: remove user:password@ (and a stray @)';
  }
  let host: string;
  let port: string;
  if (authority.startsWith('[')) {
    const close = authority.indexOf(']');
    if (close === -1) return 'opens an IPv6 address with [ but never closes it';
    host = authority.slice(1, close);
    const rest = authority.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return `has "${rest}" after the IPv6 address`;
    port = rest.slice(1);
    if (!/^[0-9A-Fa-f:.]+$/.test(host) || !host.includes(':')) {
      return `has "[${host}]", which is not an IPv6 address`;
    }
  } else {
    const colon = authority.indexOf(':');
    host = colon === -1 ? authority : authority.slice(0, colon);
    port = colon === -1 ? '' : authority.slice(colon + 1);
    const problem = hostNameProblem(host, wide);
    if (problem !== undefined) return problem;
  }
  if (!/^\d*$/.test(port)) return `has the port "${port}", which is not a number`;
  return undefined;
}

/** A host name: RFC 1123 labels (or Unicode labels for IDNA), or a dotted-quad IPv4 address. */
function hostNameProblem(host: string, wide: boolean): string | undefined {
  if (host === '') return 'has no host name (http and https URLs need one: RFC 9110 §4.2)';
  const dotted = wide ? host.replace(IDEOGRAPHIC_DOTS, '.') : host;
  const labels = dotted.split('.');
  // One trailing dot is the absolute form of a DNS name; the last label decides IPv4 before it.
  const absolute = labels.length > 1 && labels[labels.length - 1] === '';
  if (absolute) labels.pop();
  if (NUMERIC_LABEL.test(labels[labels.length - 1]!)) {
    if (absolute || !IPV4.test(dotted)) {
      return `has the host "${host}", which is neither a name nor an IPv4 address of four numbers from 0 to 255`;
    }
    return undefined;
  }
  if (host.length > 253) return `has a host name of ${host.length} characters; DNS allows 253`;
  for (const label of labels) {
    if (label === '') return `has an empty label in the host "${host}" (two dots, or a leading dot)`;
    if (LDH_LABEL.test(label)) {
      if (label.length > 63)
        return `has the host label "${label.slice(0, 20)}…" of ${label.length} characters; DNS allows 63`;
      continue;
    }
    let unicode = false;
    for (let k = 0; k < label.length; k++) {
      const c = label.charCodeAt(k);
      if (c >= 0x80) {
        unicode = true;
        continue;
      }
      if (!isAsciiAlnum(c) && c !== 45) {
        return `has "${label[k]}" in the host "${host}": host names hold letters, digits and hyphens (RFC 1123)`;
      }
    }
    if (!unicode) return `has the host label "${label}", which starts or ends with a hyphen`;
    if (INVISIBLE.test(label)) return `has an invisible or blank character in the host "${host}"`;
  }
  return undefined;
}

function hex4(c: number): string {
  return c.toString(16).toUpperCase().padStart(4, '0');
}
