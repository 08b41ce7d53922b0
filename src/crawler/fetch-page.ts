/**
 * One HTTP exchange of the crawler: GET without following redirects, a time limit on the whole
 * exchange, and for HTML a streaming read (charset from the BOM, the Content-Type, or a prescan of
 * the first 1,024 bytes, as browsers do) into the page reader, stopped at a size cap. Anything
 * else is not downloaded. Network failures are results, not exceptions; only an abort of the
 * crawl throws.
 */
import { TextDecoder } from 'node:util';
import { SitemapkitError } from '../core/errors.js';
import { type PageMeta, PageMetaReader } from '../page/page-meta.js';
import type { FetchLike } from '../robots/fetch.js';

export interface PageFetchOptions {
  fetch: FetchLike;
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
      headers: Headers;
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

async function exchange(
  url: string,
  o: PageFetchOptions,
  signal: AbortSignal,
  timedOut: () => boolean,
): Promise<PageResponse> {
  const timeout = {
    get aborted(): boolean {
      return timedOut();
    },
  };
  const aborted = (cause: unknown): SitemapkitError =>
    new SitemapkitError('ERR_ABORTED', `fetching ${url} was aborted`, { cause, where: url });
  let response: Response;
  try {
    response = await o.fetch(url, { redirect: 'manual', headers: { ...o.headers }, signal });
  } catch (cause) {
    if (o.signal?.aborted === true) throw aborted(cause);
    if (timeout.aborted) return { ok: false, error: `no answer within ${o.timeoutMs} ms`, timeout: true };
    return { ok: false, error: `network error: ${describe(cause)}`, timeout: false };
  }
  const contentType = response.headers.get('content-type') ?? '';
  const base = {
    ok: true as const,
    status: response.status,
    headers: response.headers,
    contentType,
    meta: undefined,
    bytes: 0,
    truncated: false,
    charset: undefined,
    unknownCharset: undefined,
  };
  if (o.bodyFor(response.status, contentType) === 'skip' || response.body === null) {
    await response.body?.cancel().catch(() => undefined);
    return base;
  }
  const reader = response.body.getReader();
  const page = new PageMetaReader();
  let decoder: TextDecoder | undefined;
  let charset: string | undefined;
  let unknownCharset: string | undefined;
  let head: Uint8Array[] = [];
  let headBytes = 0;
  let bytes = 0;
  let truncated = false;
  const start = (first: Uint8Array): void => {
    let label = charsetFromBom(first) ?? charsetFromContentType(contentType) ?? charsetFromPrescan(first);
    label ??= 'utf-8';
    decoder = decoderFor(label);
    if (decoder === undefined) {
      unknownCharset = label;
      decoder = new TextDecoder('utf-8');
    }
    charset = decoder.encoding;
  };
  const concat = (parts: Uint8Array[], total: number): Uint8Array => {
    if (parts.length === 1) return parts[0]!;
    const out = new Uint8Array(total);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let chunk = value;
      if (bytes + chunk.length > o.maxBytes) {
        chunk = chunk.subarray(0, o.maxBytes - bytes);
        truncated = true;
      }
      bytes += chunk.length;
      if (decoder === undefined) {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= PRESCAN || truncated) {
          const first = concat(head, headBytes);
          head = [];
          start(first);
          page.write(decoder!.decode(first, { stream: true }));
        }
      } else {
        page.write(decoder.decode(chunk, { stream: true }));
      }
      if (truncated) break;
    }
  } catch (cause) {
    if (o.signal?.aborted === true) throw aborted(cause);
    if (timeout.aborted)
      return { ok: false, error: `no complete answer within ${o.timeoutMs} ms`, timeout: true };
    return { ok: false, error: `the connection broke while reading: ${describe(cause)}`, timeout: false };
  } finally {
    if (truncated) await reader.cancel().catch(() => undefined);
  }
  if (decoder === undefined) {
    const first = concat(head, headBytes);
    start(first);
    page.write(decoder!.decode(first, { stream: true }));
  }
  page.write(decoder!.decode());
  return { ...base, meta: page.end(), bytes, truncated, charset, unknownCharset };
}
