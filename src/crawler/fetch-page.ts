/**
 * One page of the crawl through the HTTP layer's client: GET without following redirects (the
 * crawler records them as pages), the client's one timeout over the whole exchange and its size
 * cap (`truncate`: the start of a long page is read), and for HTML a streaming read (charset from
 * the BOM, the Content-Type, or a prescan of the first 1,024 bytes, as browsers do) into the page
 * reader. Anything else is not downloaded. Network failures are results, not exceptions; only an
 * abort of the crawl throws.
 */
import type { HttpClient, HttpResponse } from '../http/client.js';
import { HttpError, type HttpFailureReason } from '../http/errors.js';
import type { ResponseHeaders as HttpHeaders } from '../http/types.js';
import { PageDecoder } from '../page/page-decoder.js';
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
  /** Fingerprint the main text of HTML pages (src/page/main-text.ts), for recrawls. */
  fingerprint: boolean;
  /** Keep the decoded HTML (`text`): the renderer loads it as the document. @default false */
  keepText?: boolean;
}

/** What rendering made of a page (crawl `render`); absent when the page was not rendered. */
export type RenderedPage =
  | {
      ok: true;
      /** What the raw HTML said (`meta` is then the rendered DOM's). */
      rawMeta: PageMeta;
      /** The time cap passed before the network was quiet: the DOM was read as it was. */
      capped: boolean;
      /** Milliseconds spent rendering (not part of the response time). */
      ms: number;
    }
  /** Rendering failed twice (a hang, a crash): `meta` is the raw HTML's. */
  | { ok: false; error: string; ms: number };

export type PageResponse =
  | {
      ok: true;
      status: number;
      headers: ResponseHeaders;
      contentType: string;
      /** The page's findings, when its body was read as HTML. */
      meta: PageMeta | undefined;
      /** Its main text's fingerprint, when its body was read as HTML with `fingerprint`. */
      fingerprint?: string | undefined;
      /**
       * Body bytes read; for a body not read (a redirect, an error, a file that is not a page) the
       * size its Content-Length announces, null when it announces none.
       */
      bytes: number | null;
      /** The body was longer than `maxBytes`; only the start was read. */
      truncated: boolean;
      /** The charset used to decode the page. */
      charset: string | undefined;
      /** A charset label the decoder does not know (UTF-8 was used instead). */
      unknownCharset: string | undefined;
      /** The decoded HTML, with `keepText`. */
      text?: string | undefined;
      render?: RenderedPage | undefined;
    }
  | { ok: false; error: string; reason: HttpFailureReason };

// The decoder is the page layer's, shared with `generate --from-dir`; these stay importable here.
export { charsetFromBom, charsetFromContentType, charsetFromPrescan } from '../page/page-decoder.js';

/** The body side of an exchange: bytes in, decoded text into the page reader. */
class BodySink {
  readonly page: PageMetaReader;
  readonly decoder: PageDecoder;
  bytes = 0;
  readonly text: string[] | undefined;

  constructor(contentType: string, fingerprint: boolean, keepText: boolean) {
    this.page = new PageMetaReader({ fingerprint });
    this.decoder = new PageDecoder(contentType);
    this.text = keepText ? [] : undefined;
  }

  /** Takes the next chunk (the client applies the size cap). */
  push(chunk: Uint8Array): void {
    this.bytes += chunk.length;
    const s = this.decoder.push(chunk);
    this.text?.push(s);
    this.page.write(s);
  }

  end(): PageMeta {
    const s = this.decoder.end();
    this.text?.push(s);
    this.page.write(s);
    return this.page.end();
  }
}

/** A failure as the crawler records it; the crawl's own abort throws. */
function failed(cause: unknown): PageResponse {
  if (!(cause instanceof HttpError) || cause.reason === 'aborted') throw cause;
  return { ok: false, error: cause.message, reason: cause.reason };
}

/**
 * Fetches `url` once. `conditional` adds a recrawl's `If-None-Match` / `If-Modified-Since`: a 304
 * then costs no body.
 */
export async function fetchPage(
  url: string,
  o: PageFetchOptions,
  conditional?: Readonly<Record<string, string>>,
): Promise<PageResponse> {
  let res: HttpResponse;
  try {
    res = await o.client.request(url, {
      headers: conditional === undefined ? o.headers : { ...o.headers, ...conditional },
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
    fingerprint: undefined,
    bytes: 0,
    truncated: false,
    charset: undefined,
    unknownCharset: undefined,
  };
  if (o.bodyFor(res.status, contentType) === 'skip') {
    res.cancel();
    // Its size as announced: the report's bytes column, without downloading what is never read.
    const length = res.headers.get('content-length')?.trim() ?? '';
    return { ...base, bytes: /^\d{1,15}$/.test(length) ? Number(length) : null };
  }
  const sink = new BodySink(contentType, o.fingerprint, o.keepText === true);
  try {
    await res.each((chunk) => sink.push(chunk));
  } catch (cause) {
    return failed(cause);
  }
  const meta = sink.end();
  return {
    ...base,
    meta,
    fingerprint: sink.page.fingerprint(),
    bytes: sink.bytes,
    truncated: res.truncated,
    charset: sink.decoder.charset,
    unknownCharset: sink.decoder.unknownCharset,
    ...(sink.text === undefined ? {} : { text: sink.text.join('') }),
  };
}
