/**
 * One HTTP exchange of the crawler: GET without following redirects, a time limit on the whole
 * exchange, and for HTML a streaming read (charset from the BOM, the Content-Type, or a prescan of
 * the first 1,024 bytes, as browsers do) into the page reader, stopped at a size cap. Anything
 * else is not downloaded. Network failures are results, not exceptions; only an abort of the
 * crawl throws.
 */
import { TextDecoder } from 'node:util';
import type { Dispatcher, request as undiciRequestType } from 'undici';
import { SitemapkitError } from '../core/errors.js';
import { type PageMeta, PageMetaReader } from '../page/page-meta.js';
import type { FetchLike } from '../robots/fetch.js';

/**
 * How pages are requested: an injected `fetch`, or (the default) undici's `request` over a
 * keep-alive pool. The pool skips the WHATWG Request/Response/stream layers, which cost about a
 * third of the crawler's CPU at hundreds of pages a second, and it keeps repeated headers apart
 * (several `X-Robots-Tag` lines stay several values; `fetch` joins them with ", ").
 */
/**
 * How pages are fetched: an injected `fetch`, or undici's pool. undici's `request` travels with the
 * pool because undici is imported only when a crawl starts (it costs ~70 ms and ~20 MB to load,
 * which everyone importing the package root would otherwise pay).
 */
export type PageTransport =
  | { kind: 'fetch'; fetch: FetchLike }
  | { kind: 'pool'; dispatcher: Dispatcher; request: typeof undiciRequestType };

export interface PageFetchOptions {
  transport: PageTransport;
  /** Request headers, names in lower case. */
  headers: Readonly<Record<string, string>>;
  timeoutMs: number;
  /** Bytes of a page read at most; the rest is not downloaded. */
  maxBytes: number;
  /** The crawl's signal: aborting it throws `ERR_ABORTED`. */
  signal: AbortSignal | undefined;
  /** Which bodies to read: `html` parses the page, `skip` cancels the download. */
  bodyFor: (status: number, contentType: string) => 'html' | 'skip';
}

/** Response headers as the crawler reads them. */
export interface ResponseHeaders {
  /** The field's value (repeated fields joined with ", "), or null. */
  get(name: string): string | null;
  /** Each line of a field as sent (through `fetch`: one joined value). */
  values(name: string): string[];
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
  | { ok: false; error: string; timeout: boolean };

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

function describe(cause: unknown): string {
  const e = cause as { message?: string; cause?: { code?: string; message?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(cause);
}

/** Fetches `url` once. */
export async function fetchPage(url: string, o: PageFetchOptions): Promise<PageResponse> {
  // One controller and one timer per request: AbortSignal.timeout/any cost several times more,
  // which shows at hundreds of pages a second.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, o.timeoutMs);
  const onAbort = (): void => controller.abort(o.signal?.reason);
  o.signal?.addEventListener('abort', onAbort, { once: true });
  const cleanup = (): void => {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', onAbort);
  };
  try {
    return await exchange(url, o, controller.signal, () => timedOut);
  } finally {
    cleanup();
  }
}

class FetchHeaders implements ResponseHeaders {
  readonly #h: Headers;
  constructor(h: Headers) {
    this.#h = h;
  }
  get(name: string): string | null {
    return this.#h.get(name);
  }
  values(name: string): string[] {
    const v = this.#h.get(name);
    return v === null ? [] : [v];
  }
}

type RawHeaders = Record<string, string | string[] | undefined>;

class PoolHeaders implements ResponseHeaders {
  readonly #h: RawHeaders;
  constructor(h: RawHeaders) {
    this.#h = h;
  }
  get(name: string): string | null {
    const v = this.#h[name];
    if (v === undefined) return null;
    return typeof v === 'string' ? v : v.join(', ');
  }
  values(name: string): string[] {
    const v = this.#h[name];
    if (v === undefined) return [];
    return typeof v === 'string' ? [v] : v;
  }
}

/**
 * The body side of an exchange: bytes in, decoded text into the page reader, the charset decided
 * on the first 1,024 bytes, a stop at the size cap.
 */
class BodySink {
  readonly page = new PageMetaReader();
  readonly #contentType: string;
  readonly #maxBytes: number;
  decoder: TextDecoder | undefined;
  charset: string | undefined;
  unknownCharset: string | undefined;
  #head: Uint8Array[] = [];
  #headBytes = 0;
  bytes = 0;
  truncated = false;

  constructor(contentType: string, maxBytes: number) {
    this.#contentType = contentType;
    this.#maxBytes = maxBytes;
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

  /** Takes the next chunk; true when the cap is reached (stop reading). */
  push(value: Uint8Array): boolean {
    let chunk = value;
    if (this.bytes + chunk.length > this.#maxBytes) {
      chunk = chunk.subarray(0, this.#maxBytes - this.bytes);
      this.truncated = true;
    }
    this.bytes += chunk.length;
    if (this.decoder === undefined) {
      this.#head.push(chunk);
      this.#headBytes += chunk.length;
      if (this.#headBytes >= PRESCAN || this.truncated) this.#flushHead();
    } else {
      this.page.write(this.decoder.decode(chunk, { stream: true }));
    }
    return this.truncated;
  }

  end(): PageMeta {
    if (this.decoder === undefined) this.#flushHead();
    this.page.write(this.decoder!.decode());
    return this.page.end();
  }
}

interface Head {
  status: number;
  headers: ResponseHeaders;
  contentType: string;
}

/** Reads a response's body into `sink` until its end or the cap; rejects when the stream fails. */
type BodyPump = (sink: BodySink) => Promise<void>;
type Opened = { head: Head; pump: BodyPump; skip: () => Promise<void> };

async function openFetch(
  url: string,
  o: PageFetchOptions,
  fetch: FetchLike,
  signal: AbortSignal,
): Promise<Opened> {
  const response = await fetch(url, { redirect: 'manual', headers: { ...o.headers }, signal });
  const head: Head = {
    status: response.status,
    headers: new FetchHeaders(response.headers),
    contentType: response.headers.get('content-type') ?? '',
  };
  const body = response.body;
  return {
    head,
    skip: async () => {
      await body?.cancel().catch(() => undefined);
    },
    pump: async (sink) => {
      if (body === null) return;
      const reader = body.getReader();
      let stopped = false;
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (sink.push(value)) {
            stopped = true;
            break;
          }
        }
      } finally {
        if (stopped) await reader.cancel().catch(() => undefined);
      }
    },
  };
}

async function openPool(
  url: string,
  o: PageFetchOptions,
  pool: { dispatcher: Dispatcher; request: typeof undiciRequestType },
  signal: AbortSignal,
): Promise<Opened> {
  const r = await pool.request(url, {
    dispatcher: pool.dispatcher,
    method: 'GET',
    headers: o.headers,
    signal,
  });
  const headers = new PoolHeaders(r.headers);
  const head: Head = { status: r.statusCode, headers, contentType: headers.get('content-type') ?? '' };
  const body = r.body;
  return {
    head,
    // dump() reads a small rest to keep the connection; a large one closes it.
    skip: () => body.dump({ limit: 65_536 }).catch(() => undefined),
    pump: (sink) =>
      new Promise<void>((resolve, reject) => {
        // Data events feed the synchronous page reader directly: no async iterator per chunk.
        body.on('data', (chunk: Buffer) => {
          if (sink.push(chunk)) {
            body.destroy();
            resolve();
          }
        });
        body.once('end', () => resolve());
        body.once('error', reject);
      }),
  };
}

async function exchange(
  url: string,
  o: PageFetchOptions,
  signal: AbortSignal,
  timedOut: () => boolean,
): Promise<PageResponse> {
  const aborted = (cause: unknown): SitemapkitError =>
    new SitemapkitError('ERR_ABORTED', `fetching ${url} was aborted`, { cause, where: url });
  let opened: Opened;
  try {
    opened =
      o.transport.kind === 'fetch'
        ? await openFetch(url, o, o.transport.fetch, signal)
        : await openPool(url, o, o.transport, signal);
  } catch (cause) {
    if (o.signal?.aborted === true) throw aborted(cause);
    if (timedOut()) return { ok: false, error: `no answer within ${o.timeoutMs} ms`, timeout: true };
    return { ok: false, error: `network error: ${describe(cause)}`, timeout: false };
  }
  const { head } = opened;
  const base = {
    ok: true as const,
    status: head.status,
    headers: head.headers,
    contentType: head.contentType,
    meta: undefined,
    bytes: 0,
    truncated: false,
    charset: undefined,
    unknownCharset: undefined,
  };
  if (o.bodyFor(head.status, head.contentType) === 'skip') {
    await opened.skip();
    return base;
  }
  const sink = new BodySink(head.contentType, o.maxBytes);
  try {
    await opened.pump(sink);
  } catch (cause) {
    if (o.signal?.aborted === true) throw aborted(cause);
    if (timedOut()) return { ok: false, error: `no complete answer within ${o.timeoutMs} ms`, timeout: true };
    return { ok: false, error: `the connection broke while reading: ${describe(cause)}`, timeout: false };
  }
  const meta = sink.end();
  return {
    ...base,
    meta,
    bytes: sink.bytes,
    truncated: sink.truncated,
    charset: sink.charset,
    unknownCharset: sink.unknownCharset,
  };
}
