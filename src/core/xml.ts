// CR is escaped too: a parser turns a raw CR into LF, so only `&#13;` carries it through.
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};
const NEEDS_ESCAPE = /[&<>"'\r]/;
const ESCAPE_ALL = /[&<>"'\r]/g;
// In attribute values a parser also turns tab and LF into spaces.
const ATTR_NEEDS_ESCAPE = /[&<>"'\r\n\t]/;
const ATTR_ESCAPE_ALL = /[&<>"'\r\n\t]/g;
// Characters XML 1.0 forbids outright (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF).
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Escapes the five characters the protocol lists (`& ' " < >`) and CR, for element text. The test
 * first keeps the common case free.
 */
export function escapeXml(s: string): string {
  return NEEDS_ESCAPE.test(s) ? s.replace(ESCAPE_ALL, (c) => ESCAPES[c]!) : s;
}

/** {@link escapeXml} for attribute values: tab and LF as well, which attribute normalisation would turn into spaces. */
export function escapeAttr(s: string): string {
  return ATTR_NEEDS_ESCAPE.test(s) ? s.replace(ATTR_ESCAPE_ALL, (c) => ESCAPES[c]!) : s;
}

/**
 * Escapes a URI made by `toUri`: after WHATWG serialisation only `&` and `'` of the five can
 * remain (`<`, `>` and `"` are percent-encoded), and plain replaceAll beats a callback regex on
 * the hot path.
 */
export function escapeUri(s: string): string {
  if (s.includes('&')) s = s.replaceAll('&', '&amp;');
  if (s.includes("'")) s = s.replaceAll("'", '&apos;');
  if (s.includes('<') || s.includes('>') || s.includes('"'))
    s = escapeXml(s.replaceAll('&amp;', '&').replaceAll('&apos;', "'"));
  return s;
}

/** Whether a string holds a character that cannot appear in an XML 1.0 document at all. */
export function hasInvalidXmlChar(s: string): boolean {
  return INVALID_XML_CHARS.test(s);
}
