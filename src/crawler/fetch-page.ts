/**
 * One page of the crawl through the HTTP layer's client: GET without following redirects (the
 * crawler records them as pages), the client's one timeout over the whole exchange and its size
 * cap (`truncate`: the start of a long page is read), and for HTML a streaming read (charset from
 * the BOM, the Content-Type, or a prescan of the first 1,024 bytes, as browsers do) into the page
 * reader. Anything else is not downloaded. Network failures are results, not exceptions; only an
 * abort of the crawl throws.
 */
import { TextDecoder } from 'node:util';
import type { HttpClient, HttpResponse } from '../http/client.js';
import { HttpError, type HttpFailureReason } from '../http/errors.js';
import type { ResponseHeaders as HttpHeaders } from '../http/types.js';
import { type PageMeta, PageMetaReader } from '../page/page-meta.js';

/** The response headers a page's verdict reads. */
export type ResponseHeaders = Pick<HttpHeaders, 'get' | 'values'>;

export interface PageFetchOptions {
  client: HttpClient;
  /** Request headers of the page (the client adds the User-Agent and the caller's own). */
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Bytes of a page read at most; the rest is not downloaded. */
  maxBytes: number;
  /** The crawl's signal: aborting it throws `ERR_ABORTED`. */
  signal: AbortSignal | undefined;
  /** Which bodies to read: `html` parses the page, `skip` cancels the download. */
  bodyFor: (status: number, contentType: string) => 'html' | 'skip';
}

export type PageResponse =
  | {
      ok: true;
      status: number;
      headers: ResponseHeaders;
      contentType: string;
      /** The page's findings, when its body was read as HTML. */
      meta: PageMeta | undefined;
      /** Body bytes read. */
      bytes: number;
      /** The body was longer than `maxBytes`; only the start was read. */
      truncated: boolean;
      /** The charset used to decode the page. */
      charset: string | undefined;
      /** A charset label the decoder does not know (UTF-8 was used instead). */
      unknownCharset: string | undefined;
    }
  | { ok: false; error: string; reason: HttpFailureReason };

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
 * The body side of an exchange: bytes in, decoded text into the page reader, the charset decided
 * on the first 1,024 bytes, a stop at the size cap.
 */
class BodySink {
  readonly page = new PageMetaReader();
  readonly #contentType: string;
  decoder: TextDecoder | undefined;
  charset: string | undefined;
  unknownCharset: string | undefined;
  #head: Uint8Array[] = [];
  #headBytes = 0;
  bytes = 0;

  constructor(contentType: string) {
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
    this.decoder = decoder;
    return decoder;
  }

  #flushHead(): void {
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
    this.page.write(this.#start(first).decode(first, { stream: true }));
  }

  /** Takes the next chunk (the client applies the size cap). */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    if (this.decoder === undefined) {
      this.#head.push(chunk);
      this.#headBytes += chunk.length;
      if (this.#headBytes >= PRESCAN) this.#flushHead();
    } else {
      this.page.write(this.decoder.decode(chunk, { stream: true }));
    }
  }

  end(): PageMeta {
    if (this.decoder === undefined) this.#flushHead();
    this.page.write(this.decoder!.decode());
    return this.page.end();
  }
}

/** A failure as the crawler records it; the crawl's own abort throws. */
function failed(cause: unknown): PageResponse {
  if (!(cause instanceof HttpError) || cause.reason === 'aborted') throw cause;
  return { ok: false, error: cause.message, reason: cause.reason };
}

/** Fetches `url` once. */
export async function fetchPage(url: string, o: PageFetchOptions): Promise<PageResponse> {
  let res: HttpResponse;
  try {
    res = await o.client.request(url, {
      headers: o.headers,
      timeoutMs: o.timeoutMs,
      maxBytes: o.maxBytes,
      overflow: 'truncate',
      redirect: 'manual',
      signal: o.signal,
    });
  } catch (cause) {
    return failed(cause);
  }
  const contentType = res.headers.get('content-type') ?? '';
  const base = {
    ok: true as const,
    status: res.status,
    headers: res.headers,
    contentType,
    meta: undefined,
    bytes: 0,
    truncated: false,
    charset: undefined,
    unknownCharset: undefined,
  };
  if (o.bodyFor(res.status, contentType) === 'skip') {
    res.cancel();
    return base;
  }
  const sink = new BodySink(contentType);
  try {
    await res.each((chunk) => sink.push(chunk));
  } catch (cause) {
    return failed(cause);
  }
  const meta = sink.end();
  return {
    ...base,
    meta,
    bytes: sink.bytes,
    truncated: res.truncated,
    charset: sink.charset,
    unknownCharset: sink.unknownCharset,
  };
}
