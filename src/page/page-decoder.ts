/**
 * The one way an HTML page's bytes become text, for the crawler and `generate --from-dir` alike:
 * the charset from the BOM, else the Content-Type (when there is one), else a prescan of the first
 * 1,024 bytes for `<meta charset>`, else UTF-8 — as browsers do (HTML §13.2.3).
 */
import { TextDecoder } from 'node:util';

const PRESCAN = 1024;

/** The charset a Content-Type names, lower-cased. */
export function charsetFromContentType(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType);
  return m === null ? undefined : m[1]!.toLowerCase();
}

/** The charset of a byte order mark at the start of `bytes`. */
export function charsetFromBom(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** The charset a `<meta>` in the first bytes declares (the HTML prescan, simplified). */
export function charsetFromPrescan(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN)).toString(
    'latin1',
  );
  const m =
    /<meta\s[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)/i.exec(head) ??
    /<meta\s[^>]*?content\s*=\s*["'][^"']*charset=([A-Za-z0-9_.:-]+)/i.exec(head);
  if (m === null) return undefined;
  const label = m[1]!.toLowerCase();
  // A meta tag read as ASCII cannot be declaring UTF-16 truthfully (HTML §13.2.3.2).
  return label.startsWith('utf-16') ? 'utf-8' : label;
}

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label);
  } catch {
    return undefined;
  }
}

/**
 * Bytes of one page in, text out, chunk by chunk: the charset is decided on the first 1,024 bytes
 * (held back until then), so a `<meta charset>` is honoured even when the page arrives in pieces.
 */
export class PageDecoder {
  readonly #contentType: string;
  #decoder: TextDecoder | undefined;
  /** The charset used to decode the page (known once 1,024 bytes or the end arrived). */
  charset: string | undefined;
  /** A charset label the decoder does not know (UTF-8 was used instead). */
  unknownCharset: string | undefined;
  #head: Uint8Array[] = [];
  #headBytes = 0;

  /** `contentType`: the response's Content-Type, or '' for a file. */
  constructor(contentType = '') {
    this.#contentType = contentType;
  }

  #start(first: Uint8Array): TextDecoder {
    const label =
      charsetFromBom(first) ??
      charsetFromContentType(this.#contentType) ??
      charsetFromPrescan(first) ??
      'utf-8';
    let decoder = decoderFor(label);
    if (decoder === undefined) {
      this.unknownCharset = label;
      decoder = new TextDecoder('utf-8');
    }
    this.charset = decoder.encoding;
    this.#decoder = decoder;
    return decoder;
  }

  #flushHead(): string {
    const parts = this.#head;
    let first: Uint8Array;
    if (parts.length === 1) first = parts[0]!;
    else {
      first = new Uint8Array(this.#headBytes);
      let at = 0;
      for (const p of parts) {
        first.set(p, at);
        at += p.length;
      }
    }
    this.#head = [];
    return this.#start(first).decode(first, { stream: true });
  }

  /** The text of the next chunk ('' while the first 1,024 bytes are held back). */
  push(chunk: Uint8Array): string {
    if (this.#decoder !== undefined) return this.#decoder.decode(chunk, { stream: true });
    this.#head.push(chunk);
    this.#headBytes += chunk.length;
    return this.#headBytes >= PRESCAN ? this.#flushHead() : '';
  }

  /** The rest of the text. */
  end(): string {
    const held = this.#decoder === undefined ? this.#flushHead() : '';
    return held + this.#decoder!.decode();
  }
}

/** A whole page's text (a file of a static site folder), decoded as {@link PageDecoder} does. */
export function decodePage(
  bytes: Uint8Array,
  contentType = '',
): { text: string; charset: string; unknownCharset: string | undefined } {
  const d = new PageDecoder(contentType);
  const text = d.push(bytes) + d.end();
  return { text, charset: d.charset!, unknownCharset: d.unknownCharset };
}
