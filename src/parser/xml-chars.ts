/** Character classes and tag-end searches of the XML scanner (xml-scanner.ts). */

export function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 58 || c >= 128;
}

export function isNameChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 58) ||
    c === 95 ||
    c === 45 ||
    c === 46 ||
    c >= 128
  );
}

export function firstQuote(s: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c === 34 || c === 39) return i;
  }
  return -1;
}

/** The `>` that ends a tag whose attributes start at `from`, skipping quoted values; -1 if not yet in `s`. */
export function tagEnd(s: string, from: number, len: number): number {
  let quote = 0;
  for (let i = from; i < len; i++) {
    const c = s.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 34 || c === 39) quote = c;
    else if (c === 62) return i;
  }
  return -1;
}
