/**
 * Bytes of a text input to text, chunk by chunk: a byte order mark chooses the encoding (UTF-8,
 * UTF-16LE/BE), else the caller's (UTF-8 by default). The decoder is fatal: a byte sequence that is
 * not valid in the encoding stops the read with an error naming the line, rather than turning into
 * U+FFFD and from there into `%EF%BF%BD` in a `<loc>`.
 */
import { isAscii } from 'node:buffer';
import { TextDecoder } from 'node:util';
import { SitemapkitError } from '../core/errors.js';

export interface TextDecodeOptions {
  /** A WHATWG encoding label (`utf-8`, `windows-1252`, `latin1`, `utf-16le`, …). A BOM overrides it. @default 'utf-8' */
  encoding?: string | undefined;
  /** The file as messages name it. */
  where: string;
}

/** The canonical name of an encoding label, or an `ERR_OPTIONS` error naming the label. */
export function checkEncoding(label: string): string {
  try {
    return new TextDecoder(label).encoding;
  } catch {
    throw new SitemapkitError('ERR_OPTIONS', `encoding "${label}" is not known`, {
      hint: 'Give a WHATWG encoding label such as utf-8, windows-1252, latin1, utf-16le or utf-16be.',
    });
  }
}

function bomEncoding(b: Uint8Array): string | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'utf-8';
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return undefined;
}

/**
 * Finds where lines end in raw bytes, for locating an invalid sequence. After a line feed the
 * decoder holds no partial character (a pending one would make the line feed itself invalid), so
 * the bytes after it can be checked by a fresh decoder; that is what lets an error be placed on
 * its line without the decoder's hidden state, even when a sequence spans two chunks.
 */
class LineEnds {
  readonly #unit: 1 | 2;
  readonly #lfAt: number;
  /** Bytes seen before the current chunk (for UTF-16 alignment). */
  offset = 0;
  /** The last byte of the previous chunk. */
  last = -1;

  constructor(encoding: string) {
    this.#unit = encoding === 'utf-16le' || encoding === 'utf-16be' ? 2 : 1;
    this.#lfAt = encoding === 'utf-16be' ? 1 : 0;
  }

  /** The index just past the first line feed in `chunk` at or after `from`, or -1. */
  next(chunk: Uint8Array, from: number): number {
    if (this.#unit === 1) {
      const i = chunk.indexOf(0x0a, from);
      return i === -1 ? -1 : i + 1;
    }
    // A UTF-16 code unit starts at an even offset of the stream; one may straddle two chunks.
    if (from === 0 && this.offset % 2 === 1 && this.#isLf(this.last, chunk[0])) return 1;
    let i = from + ((this.offset + from) % 2);
    for (; i + 1 < chunk.length; i += 2) if (this.#isLf(chunk[i], chunk[i + 1])) return i + 2;
    return -1;
  }

  #isLf(a: number | undefined, b: number | undefined): boolean {
    return this.#lfAt === 0 ? a === 0x0a && b === 0 : a === 0 && b === 0x0a;
  }

  advance(chunk: Uint8Array): void {
    this.offset += chunk.length;
    if (chunk.length > 0) this.last = chunk[chunk.length - 1]!;
  }
}

function countLines(text: string): number {
  let n = 0;
  let i = text.indexOf('\n');
  while (i !== -1) {
    n++;
    i = text.indexOf('\n', i + 1);
  }
  return n;
}

function invalid(where: string, line: number, encoding: string): SitemapkitError {
  const utf8 = encoding === 'utf-8';
  return new SitemapkitError(
    'ERR_INPUT',
    utf8
      ? 'the text is not valid UTF-8 (a file saved by Excel or another Windows program is often Windows-1252)'
      : `the text is not valid ${encoding}`,
    {
      where: `${where}:${line}`,
      hint: utf8
        ? 'Give its encoding (--encoding windows-1252, or the encoding option of the library), or save the file as UTF-8.'
        : 'Give the encoding the file is written in (--encoding, or the encoding option of the library).',
    },
  );
}

/**
 * Decodes a byte stream to text chunks (strings are passed through). Throws `ERR_INPUT` naming the
 * file and line of the first byte sequence the encoding does not allow.
 */
export async function* decodeText(
  input: AsyncIterable<Uint8Array | string>,
  options: TextDecodeOptions,
): AsyncGenerator<string> {
  const chosen = checkEncoding(options.encoding ?? 'utf-8');
  let decoder: TextDecoder | undefined;
  let encoding = chosen;
  let ends: LineEnds | undefined;
  let head: Uint8Array | undefined;
  /** Line feeds in the text decoded so far. */
  let lines = 0;
  /** Whether the decoder holds no part of a character (see decode). */
  let clean = false;
  const where = options.where;

  /** The line of the first invalid sequence in `bytes`, which start after a line feed at line `at`. */
  const locate = (bytes: Uint8Array, at: number): number => {
    let start = 0;
    let line = at;
    while (start < bytes.length) {
      const end = ends!.next(bytes, start);
      const fresh = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
      try {
        fresh.decode(bytes.subarray(start, end === -1 ? bytes.length : end), { stream: end === -1 });
      } catch {
        return line;
      }
      if (end === -1) break;
      start = end;
      line++;
    }
    return line;
  };

  const decode = (chunk: Uint8Array): string => {
    // An ASCII chunk is its own UTF-8 text, valid whatever follows: read as Latin-1 (a copy) rather
    // than decoded, when the decoder holds no part of a character (the last chunk it decoded ended
    // on an ASCII byte: a partial character before it would have been an error). The JSONL
    // reader's worker reads a million URLs' 115 MB this way, a tenth of its reading time.
    if (clean && encoding === 'utf-8' && isAscii(chunk)) {
      const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length).toString('latin1');
      ends!.advance(chunk);
      lines += countLines(text);
      return text;
    }
    clean = chunk.length === 0 ? clean : chunk[chunk.length - 1]! < 0x80;
    const d = decoder!;
    // The first line's bytes continue the decoder's pending state; the rest start on a new line.
    const split = ends!.next(chunk, 0);
    const first = split === -1 ? chunk : chunk.subarray(0, split);
    let text: string;
    try {
      text = d.decode(first, { stream: true });
    } catch {
      throw invalid(where, lines + 1, encoding);
    }
    if (split !== -1 && split < chunk.length) {
      const rest = chunk.subarray(split);
      try {
        text += d.decode(rest, { stream: true });
      } catch {
        const at = lines + countLines(text) + 1;
        ends!.offset += split;
        throw invalid(where, locate(rest, at), encoding);
      }
    }
    ends!.advance(chunk);
    lines += countLines(text);
    return text;
  };

  const start = (bytes: Uint8Array): string => {
    encoding = bomEncoding(bytes) ?? chosen;
    decoder = new TextDecoder(encoding, { fatal: true });
    ends = new LineEnds(encoding);
    return decode(bytes);
  };

  for await (const chunk of input) {
    if (typeof chunk === 'string') {
      // A stream already decoded by its owner (setEncoding): nothing left to check.
      yield chunk;
      continue;
    }
    if (decoder === undefined) {
      // A BOM is up to three bytes; a stream may hand them over one at a time.
      head = head === undefined ? chunk : Buffer.concat([head, chunk]);
      if (head.length < 3) continue;
      const text = start(head);
      head = undefined;
      if (text !== '') yield text;
      continue;
    }
    const text = decode(chunk);
    if (text !== '') yield text;
  }
  if (decoder === undefined) {
    if (head === undefined) return;
    const text = start(head);
    if (text !== '') yield text;
  }
  let tail: string;
  try {
    tail = decoder!.decode();
  } catch {
    throw invalid(where, lines + 1, encoding);
  }
  if (tail !== '') yield tail;
}
