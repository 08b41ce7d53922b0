import type { Readable } from 'node:stream';

/**
 * Splits a text stream into lines with their 1-based numbers. Hand-written because readline costs
 * about three times as much per line, which shows at millions of records. Accepts LF and CRLF and
 * strips a UTF-8 BOM.
 */
export async function* readLines(input: Readable | NodeJS.ReadableStream): AsyncGenerator<[string, number]> {
  let carry = '';
  let lineNo = 0;
  let first = true;
  (input as Readable).setEncoding?.('utf8');
  for await (const chunk of input as AsyncIterable<string | Buffer>) {
    let text = carry + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    if (first) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    let start = 0;
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      yield [text.slice(start, end), ++lineNo];
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    carry = text.slice(start);
  }
  if (carry !== '') yield [carry.endsWith('\r') ? carry.slice(0, -1) : carry, ++lineNo];
}
