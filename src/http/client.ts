/**
 * The one way sitemapkit talks HTTP. A client holds the run's transport (see `transport.ts`), its
 * User-Agent, the caller's headers and credentials (sent only to the origins they were given
 * for, redirects included), and the address policy. `request()` sends GET, HEAD, POST or PUT with
 * manual redirects (a cap, a loop check, http(s) only), one timeout that covers the body, and a
 * streaming body read with Content-Encoding undone and a cap on the inflated bytes. Failures are
 * {@link HttpError}s with a `reason`.
 */
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { SitemapkitError } from '../core/errors.js';
import { type AddressClassifier, AddressGuard, type AddressPolicy } from './address.js';
import { chunksOf, decoderFor, pushChunks, TOO_LARGE } from './body.js';
import { describeNetworkError, HttpError } from './errors.js';
import { checkHeaders, checkUserAgent } from './headers.js';
import {
  fetchTransport,
  type Opened,
  openedFromResponse,
  responseHeaders,
  type Transport,
  undiciTransport,
} from './transport.js';
import type { FetchLike, ResponseHeaders } from './types.js';

/** How requests go out and what they carry; one bag for every entry point. */
export interface HttpClientOptions {
  /** Your own `fetch` (a proxy, a test double). It hides the connected address: see the docs. */
  fetch?: FetchLike | undefined;
  /** Your own undici `Dispatcher` (a `ProxyAgent`, a `MockAgent`). @default a keep-alive pool */
  dispatcher?: Dispatcher | undefined;
  /** @default DEFAULT_USER_AGENT */
  userAgent?: string | undefined;
  /** Extra headers, sent only to the origins of the URLs you start from. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Moves to private addresses: refused from a public start (`default`), always (`strict`), never (`off`). */
  addressPolicy?: AddressPolicy | undefined;
  /** Classifies addresses for the policy (tests play public addresses on loopback). */
  classifyAddress?: AddressClassifier | undefined;
  /** Name resolution of the pool. @default dns.lookup */
  lookup?: LookupFunction | undefined;
  /** Connections per origin of the pool. @default unlimited */
  connections?: number | undefined;
}

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT';

/** What a caller can add to a client it shares (see {@link HttpClient.withHooks}). */
export interface ClientHooks {
  /** Answers some URLs without the network (a local mirror of a deploy); undefined lets the request go. */
  intercept?: (url: string, method: HttpMethod) => Promise<Response | undefined>;
  /** Sees the URL, status and headers of each final answer (after redirects). */
  onResponse?: (url: string, status: number, headers: ResponseHeaders) => void;
}

interface Shared {
  userAgent: string;
  headers: Record<string, string>;
  transport: Transport;
  guard: AddressGuard;
  scoped: Map<string, string | undefined>;
  addresses: Map<string, string>;
}

export interface RequestOptions {
  /** @default 'GET' */
  method?: HttpMethod;
  /** Headers of this request (`accept`, `content-type`); the client's own go over them. */
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array;
  /** The whole exchange, body included. */
  timeoutMs: number;
  /** Bytes of body read at most, after Content-Encoding is undone. @default unlimited */
  maxBytes?: number;
  /** Past `maxBytes`: `error` fails with `too-large`, `truncate` ends the body there. @default 'error' */
  overflow?: 'error' | 'truncate';
  /** `follow` follows 301/302/303/307/308; `manual` returns them. @default 'follow' */
  redirect?: 'follow' | 'manual';
  /** @default 5 */
  maxRedirects?: number;
  /** Aborting it fails the request with `aborted` (`ERR_ABORTED`). */
  signal?: AbortSignal | undefined;
}

/** An answer whose headers arrived. Read the body once (`body`, `bytes`, `text`) or `cancel()` it. */
export interface HttpResponse {
  /** The URL the answer came from, after redirects. */
  url: string;
  /** The redirect targets followed, in order. */
  redirects: string[];
  status: number;
  statusText: string;
  headers: ResponseHeaders;
  /** The address the client's pool last connected to for this origin (undefined through your own fetch or dispatcher). */
  address: string | undefined;
  /** The body, decoded, capped; failures mid-body are `HttpError`s like any other. */
  body(): AsyncIterable<Uint8Array>;
  /** The body a chunk at a time to `onChunk`, synchronously as it arrives (instead of `body()`). */
  each(onChunk: (chunk: Uint8Array) => void): Promise<void>;
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
  /** Whether the body was cut at `maxBytes` (with `overflow: 'truncate'`). */
  readonly truncated: boolean;
  cancel(): void;
}

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

export class HttpClient {
  readonly userAgent: string;
  readonly #headers: Record<string, string>;
  readonly #transport: Transport;
  readonly #guard: AddressGuard;
  /** Origins the caller's headers go to, and the credentials of each (from `user:pass@`). */
  readonly #scoped: Map<string, string | undefined>;
  readonly #addresses: Map<string, string>;
  readonly #hooks: ClientHooks;
  readonly #owner: boolean;

  constructor(options: HttpClientOptions = {}, shared?: { from: HttpClient; hooks: ClientHooks }) {
    this.#hooks = shared?.hooks ?? {};
    this.#owner = shared === undefined;
    if (shared !== undefined) {
      const s = shared.from.#shared();
      this.userAgent = s.userAgent;
      this.#headers = s.headers;
      this.#transport = s.transport;
      this.#guard = s.guard;
      this.#scoped = s.scoped;
      this.#addresses = s.addresses;
      return;
    }
    this.#scoped = new Map();
    this.#addresses = new Map();
    if (options.fetch !== undefined && typeof options.fetch !== 'function') {
      throw new SitemapkitError('ERR_OPTIONS', 'fetch must be a function');
    }
    if (options.fetch !== undefined && options.dispatcher !== undefined) {
      throw new SitemapkitError('ERR_OPTIONS', 'give fetch or dispatcher, not both');
    }
    const policy = options.addressPolicy ?? 'default';
    if (policy !== 'default' && policy !== 'strict' && policy !== 'off') {
      throw new SitemapkitError(
        'ERR_OPTIONS',
        `addressPolicy must be "default", "strict" or "off", not "${policy}"`,
      );
    }
    this.userAgent = checkUserAgent(options.userAgent);
    this.#headers = checkHeaders(options.headers);
    this.#guard = new AddressGuard(policy, options.classifyAddress);
    this.#transport =
      options.fetch !== undefined
        ? fetchTransport(options.fetch)
        : undiciTransport(options.dispatcher, {
            checkAddress: (origin, address) => this.#guard.check(origin, address),
            onConnect: (origin, address) => this.#addresses.set(origin, address),
            lookup: options.lookup,
            connections: options.connections,
          });
  }

  /**
   * Marks `url` as a place the caller starts from on purpose: its origin gets the caller's headers
   * and credentials, and its first connection may be to a private address (outside `strict`).
   */
  start(url: string): void {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return;
    }
    const origin = originOf(u);
    const credentials =
      u.username === '' && u.password === ''
        ? this.#scoped.get(origin)
        : `Basic ${Buffer.from(`${decodeLenient(u.username)}:${decodeLenient(u.password)}`).toString('base64')}`;
    this.#scoped.set(origin, credentials);
    this.#guard.start(origin);
  }

  #shared(): Shared {
    return {
      userAgent: this.userAgent,
      headers: this.#headers,
      transport: this.#transport,
      guard: this.#guard,
      scoped: this.#scoped,
      addresses: this.#addresses,
    };
  }

  /** The same client (pool, address policy, headers) with `hooks` added; closing it closes nothing. */
  withHooks(hooks: ClientHooks): HttpClient {
    const merged: ClientHooks = { ...this.#hooks, ...hooks };
    return new HttpClient({}, { from: this, hooks: merged });
  }

  /** Releases the pool's connections (a client made by `withHooks` leaves that to its origin). */
  async close(): Promise<void> {
    if (this.#owner) await this.#transport.close();
  }

  /** The headers sent to `url`: the request's, then the caller's where in scope, then the User-Agent. */
  #headersFor(
    url: URL,
    own: Readonly<Record<string, string>> | undefined,
    decode: boolean,
  ): Record<string, string> {
    const out: Record<string, string> = {};
    if (decode) out['accept-encoding'] = 'gzip, deflate, br';
    for (const [k, v] of Object.entries(own ?? {})) out[k.toLowerCase()] = v;
    const origin = originOf(url);
    if (this.#scoped.has(origin)) {
      Object.assign(out, this.#headers);
      const credentials = this.#scoped.get(origin);
      if (credentials !== undefined && out['authorization'] === undefined) out['authorization'] = credentials;
    }
    out['user-agent'] = this.userAgent;
    return out;
  }

  /**
   * Sends one request; see {@link RequestOptions}. Throws {@link HttpError}. The first request of
   * a client nobody called {@link start} on counts as the start.
   */
  async request(url: string, o: RequestOptions): Promise<HttpResponse> {
    if (this.#scoped.size === 0) this.start(url);
    // One controller and one timer per request: AbortSignal.timeout/any cost several times more.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, o.timeoutMs);
    timer.unref?.();
    const onAbort = (): void => controller.abort(o.signal?.reason);
    if (o.signal?.aborted === true) onAbort();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    let done = false;
    const cleanup = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
    };
    const redirects: string[] = [];
    let current = url;
    let status: number | undefined;
    const fail = (cause: unknown, phase: 'open' | 'body'): never => {
      cleanup();
      if (o.signal?.aborted === true) {
        throw new HttpError('aborted', `fetching ${current} was aborted`, current, { cause, redirects });
      }
      if (timedOut) {
        const what = phase === 'open' ? 'no answer' : 'no complete answer';
        throw new HttpError('timeout', `${what} within ${o.timeoutMs} ms`, current, { cause, redirects });
      }
      if (cause instanceof HttpError) throw cause;
      const { reason, detail } = describeNetworkError(cause);
      const message =
        phase === 'open' ? `network error: ${detail}` : `the connection broke while reading: ${detail}`;
      throw new HttpError(reason, message, current, { cause, redirects, detail });
    };
    const follow = (o.redirect ?? 'follow') === 'follow';
    const maxRedirects = o.maxRedirects ?? 5;
    const seen = new Set([url]);
    let method: HttpMethod = o.method ?? 'GET';
    let body = o.body;
    for (;;) {
      let u: URL;
      try {
        u = new URL(current);
      } catch (cause) {
        cleanup();
        throw new HttpError('bad-scheme', `"${current}" is not an absolute URL`, current, {
          cause,
          redirects,
        });
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') {
        cleanup();
        throw new HttpError('bad-scheme', `only http(s) is fetched, not ${u.protocol}`, current, {
          redirects,
        });
      }
      const origin = originOf(u);
      const intercept = this.#hooks.intercept;
      const local = intercept === undefined ? undefined : await intercept(u.href, method);
      if (local !== undefined) {
        this.#hooks.onResponse?.(current, local.status, responseHeaders(local.headers));
        return this.#response(current, redirects, openedFromResponse(local), o, cleanup, fail, undefined);
      }
      if (!this.#transport.seesAddress) {
        const refused = this.#guard.checkHost(origin, u.hostname);
        if (refused !== undefined) {
          cleanup();
          throw new HttpError('address-refused', `address refused: ${refused}`, current, { redirects });
        }
      }
      const headers = this.#headersFor(u, o.headers, this.#transport.raw);
      let opened: Opened;
      try {
        if (u.username !== '' || u.password !== '') {
          u.username = '';
          u.password = '';
        }
        opened = await this.#transport.open(u.href, { method, headers, body, signal: controller.signal });
      } catch (cause) {
        return fail(cause, 'open');
      }
      status = opened.status;
      if (follow && REDIRECTS.has(status)) {
        opened.cancel();
        const location = opened.headers.get('location');
        const at = { status, redirects };
        if (location === null) {
          cleanup();
          throw new HttpError('bad-redirect', `HTTP ${status} without a Location header`, current, at);
        }
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          cleanup();
          throw new HttpError(
            'bad-redirect',
            `HTTP ${status} to an invalid Location "${location}"`,
            current,
            at,
          );
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          cleanup();
          throw new HttpError(
            'bad-scheme',
            `HTTP ${status} to "${next.href}": only http(s) is followed`,
            current,
            at,
          );
        }
        next.hash = '';
        if (seen.has(next.href)) {
          cleanup();
          throw new HttpError('redirect-loop', `redirect loop back to ${next.href}`, current, at);
        }
        if (redirects.length >= maxRedirects) {
          cleanup();
          throw new HttpError('too-many-redirects', `more than ${maxRedirects} redirects`, current, at);
        }
        if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = undefined;
        }
        current = next.href;
        seen.add(current);
        redirects.push(current);
        continue;
      }
      this.#hooks.onResponse?.(current, opened.status, opened.headers);
      return this.#response(current, redirects, opened, o, cleanup, fail, this.#addresses.get(origin));
    }
  }

  #response(
    url: string,
    redirects: string[],
    opened: Opened,
    o: RequestOptions,
    cleanup: () => void,
    fail: (cause: unknown, phase: 'open' | 'body') => never,
    address: string | undefined,
  ): HttpResponse {
    let used = false;
    let truncated = false;
    const max = o.maxBytes ?? Number.POSITIVE_INFINITY;
    const truncate = o.overflow === 'truncate';
    const release = (): void => {
      opened.cancel();
      cleanup();
    };
    async function* read(): AsyncGenerator<Uint8Array> {
      if (used) throw new Error('the body was already read');
      used = true;
      const decoder = opened.encoded ? decoderFor(opened.headers.get('content-encoding')) : undefined;
      let source: AsyncIterable<Uint8Array> = opened.body;
      if (decoder !== undefined) {
        const raw = opened.body as Readable;
        raw.on('error', (e) => decoder.destroy(e));
        source = raw.pipe(decoder);
      }
      const iterator = (
        typeof (source as Readable).on === 'function' ? chunksOf(source as Readable) : source
      )[Symbol.asyncIterator]();
      let total = 0;
      try {
        for (;;) {
          let r: IteratorResult<Uint8Array>;
          try {
            r = await iterator.next();
          } catch (cause) {
            return fail(cause, 'body');
          }
          if (r.done === true) return;
          let chunk = r.value;
          if (total + chunk.length > max) {
            if (!truncate) {
              return fail(
                new HttpError('too-large', `the body is larger than ${max} bytes`, url, { redirects }),
                'body',
              );
            }
            chunk = chunk.subarray(0, max - total);
            truncated = true;
          }
          total += chunk.length;
          if (chunk.length > 0) yield chunk;
          if (truncated) return;
        }
      } finally {
        decoder?.destroy();
        await iterator.return?.().catch(() => undefined);
        release();
      }
    }
    const each = async (onChunk: (chunk: Uint8Array) => void): Promise<void> => {
      const raw = opened.body as Readable;
      if (typeof raw.on !== 'function') {
        for await (const c of read()) onChunk(c);
        return;
      }
      if (used) throw new Error('the body was already read');
      used = true;
      const decoder = opened.encoded ? decoderFor(opened.headers.get('content-encoding')) : undefined;
      // What the caller's own code throws goes back to it as it is, not as a network failure.
      let thrown: { error: unknown } | undefined;
      const guarded = (chunk: Uint8Array): void => {
        try {
          onChunk(chunk);
        } catch (error) {
          thrown = { error };
          throw error;
        }
      };
      try {
        await pushChunks(raw, decoder, max, truncate, guarded, () => {
          truncated = true;
        });
      } catch (cause) {
        if (thrown !== undefined) throw thrown.error;
        const tooLarge = new HttpError('too-large', `the body is larger than ${max} bytes`, url, {
          redirects,
        });
        fail(cause === TOO_LARGE ? tooLarge : cause, 'body');
      } finally {
        decoder?.destroy();
        release();
      }
    };
    const bytes = async (): Promise<Uint8Array> => {
      const parts: Uint8Array[] = [];
      let n = 0;
      for await (const c of read()) {
        parts.push(c);
        n += c.length;
      }
      return parts.length === 1 ? parts[0]! : Buffer.concat(parts, n);
    };
    return {
      url,
      redirects,
      status: opened.status,
      statusText: opened.statusText,
      headers: opened.headers,
      address,
      body: read,
      each,
      bytes,
      text: async () => new TextDecoder().decode(await bytes()),
      get truncated() {
        return truncated;
      },
      cancel: release,
    };
  }
}

/** A percent-decoded user-info part; a malformed escape is sent as written. */
function decodeLenient(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
