/**
 * Entity and character references, and attribute values (decoded the same way): only the five
 * predefined entities and references to valid XML characters are expanded; anything else is kept
 * as written and reported, never looked up.
 */

export type XmlErrorKind = 'not-well-formed' | 'bare-ampersand' | 'entity' | 'truncated' | 'too-deep';

// The longest entity reference worth waiting for: `&#x10FFFF;` and `&quot;` fit easily.
export const MAX_REF = 12;

/**
 * A character reference to CR in element text decodes to this stand-in, which the handler turns
 * back into CR after XML end-of-line handling (§2.11): a literal CR or CRLF reads as LF, but
 * `&#13;` is a real CR. U+FFFE cannot occur in an XML document, so it cannot be confused.
 */
export const CR_REFERENCE = '\uFFFE';

/**
 * Decodes the five predefined entities and character references in `s[start, end)`. `crAs` is
 * what a reference to CR becomes (see {@link CR_REFERENCE}).
 */
export function decodeEntities(
  s: string,
  start: number,
  end: number,
  onError: (kind: XmlErrorKind, message: string, at: number) => void,
  crAs = '\r',
): string {
  let amp = s.indexOf('&', start);
  if (amp === -1 || amp >= end) return s.slice(start, end);
  let out = '';
  let last = start;
  while (amp !== -1 && amp < end) {
    out += s.slice(last, amp);
    let semi = -1;
    const limit = Math.min(end, amp + MAX_REF + 1);
    for (let i = amp + 1; i < limit; i++) {
      const c = s.charCodeAt(i);
      if (c === 59) {
        semi = i;
        break;
      }
      if (c === 38 || c === 60 || c === 32 || c === 10 || c === 13 || c === 9) break;
    }
    const ref = semi === -1 ? '' : s.slice(amp + 1, semi);
    const decoded = semi === -1 ? undefined : decodeReference(ref);
    if (decoded !== undefined) {
      out += decoded === '\r' ? crAs : decoded;
      last = semi + 1;
    } else if (semi !== -1 && /^(?:[A-Za-z_][\w.-]*|#\d+|#x[0-9A-Fa-f]+)$/.test(ref)) {
      const message = ref.startsWith('#')
        ? `&${ref}; is not a valid XML character; kept as text`
        : `&${ref}; is not one of the five predefined entities (&amp; &lt; &gt; &quot; &apos;); kept as text, never expanded`;
      onError('entity', message, amp);
      out += `&${ref};`;
      last = semi + 1;
    } else {
      onError('bare-ampersand', 'a bare & is not allowed in XML; read as a literal &', amp);
      out += '&';
      last = amp + 1;
    }
    amp = s.indexOf('&', last);
  }
  return out + s.slice(last, end);
}

function decodeReference(ref: string): string | undefined {
  switch (ref) {
    case 'amp':
      return '&';
    case 'lt':
      return '<';
    case 'gt':
      return '>';
    case 'quot':
      return '"';
    case 'apos':
      return "'";
  }
  if (ref.charCodeAt(0) !== 35) return undefined;
  const hex = ref.charCodeAt(1) === 120;
  const digits = ref.slice(hex ? 2 : 1);
  if (digits === '' || !(hex ? /^[0-9A-Fa-f]+$/ : /^\d+$/).test(digits) || digits.length > 8)
    return undefined;
  const cp = Number.parseInt(digits, hex ? 16 : 10);
  // XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
  const ok =
    cp === 9 ||
    cp === 10 ||
    cp === 13 ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff);
  return ok ? String.fromCodePoint(cp) : undefined;
}

export interface XmlAttribute {
  name: string;
  value: string;
}

/**
 * Parses raw attribute text (`attrs` of {@link XmlScanHandler.openTag}). Malformed pieces are
 * reported and skipped; values are entity-decoded.
 */
export function parseAttributes(
  raw: string,
  start: number,
  onError: (kind: XmlErrorKind, message: string, at: number) => void,
): XmlAttribute[] {
  const out: XmlAttribute[] = [];
  const re = /([^\s=/"']+)\s*=\s*(?:"([^"]*)"|'([^']*)')|(\S)/gy;
  let i = 0;
  while (i < raw.length) {
    const c = raw.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 47) {
      i++;
      continue;
    }
    re.lastIndex = i;
    const m = re.exec(raw);
    if (m === null) break;
    if (m[4] !== undefined) {
      onError('not-well-formed', `malformed attribute near "${raw.slice(i, i + 20)}"`, start + i);
      const next = raw.slice(i).search(/\s/);
      i = next === -1 ? raw.length : i + next;
      continue;
    }
    const quoted = m[2] ?? m[3] ?? '';
    const valueStart = start + i + m[0].length - quoted.length - 1;
    if (quoted.includes('<'))
      onError('not-well-formed', `"<" inside the value of attribute ${m[1]}`, valueStart);
    out.push({
      name: m[1]!,
      value: decodeEntities(quoted, 0, quoted.length, (k, msg, at) => onError(k, msg, valueStart + at)),
    });
    i += m[0].length;
  }
  return out;
}
