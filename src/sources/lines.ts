import type { Readable } from 'node:stream';
import { decodeText, type TextDecodeOptions } from './text-decode.js';

/**
 * Splits a text stream into batches of lines. Hand-written because readline costs about three
 * times as much per line, which shows at millions of records. One batch a chunk, with the number
 * of its first line,
 * so that readers pay the async-iteration cost once a chunk rather than once a line.
 */
export async function* readLineBatches(
  input: Readable | NodeJS.ReadableStream,
  options: TextDecodeOptions = { where: '<input>' },
): AsyncGenerator<[string[], number]> {
  let carry = '';
  let next = 1;
  let first = true;
  for await (const chunk of decodeText(input as AsyncIterable<string | Uint8Array>, options)) {
    let text = carry + chunk;
    if (first) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    const lines: string[] = [];
    let start = 0;
    let nl = text.indexOf('\n', start);
    while (nl !== -1) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      lines.push(text.slice(start, end));
      start = nl + 1;
      nl = text.indexOf('\n', start);
    }
    carry = text.slice(start);
    if (lines.length > 0) {
      yield [lines, next];
      next += lines.length;
    }
  }
  if (carry !== '') yield [[carry.endsWith('\r') ? carry.slice(0, -1) : carry], next];
}

/**
 * Splits a byte stream into lines with their 1-based numbers (LF or CRLF; a BOM is dropped and
 * chooses the encoding; invalid bytes are an error naming the line).
 */
export async function* readLines(
  input: Readable | NodeJS.ReadableStream,
  options?: TextDecodeOptions,
): AsyncGenerator<[string, number]> {
  for await (const [lines, first] of readLineBatches(input, options)) {
    for (let i = 0; i < lines.length; i++) yield [lines[i]!, first + i];
  }
}
