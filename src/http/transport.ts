/**
 * The one place the transport is chosen: an undici keep-alive pool owned by the client (the
 * default; its connector judges the connected address), a user's undici `Dispatcher`, or a user's
 * `fetch`. undici is imported on first use only: it costs ~70 ms and ~20 MB to load, which
 * everyone importing the package root would otherwise pay. Each transport sends one request and
 * never follows redirects; `client.ts` does the rest.
 */
import type { LookupFunction, Socket } from 'node:net';
import type { buildConnector as BuildConnector, Dispatcher } from 'undici';
import { httpModule } from './builtins.js';
import { HttpError } from './errors.js';
import type { FetchLike, ResponseHeaders } from './types.js';

/** One request's answer whose headers arrived. `body` is read once, or `cancel()` releases it. */
export interface Opened {
  status: number;
  statusText: string;
  headers: ResponseHeaders;
  /** The body as received: still Content-Encoded when `encoded` is true. */
  body: AsyncIterable<Uint8Array>;
  encoded: boolean;
  cancel(): void;
}

export interface OpenRequest {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal;
}

export interface Transport {
  /** Whether the address actually connected to is judged by the transport (the client's pool). */
  readonly seesAddress: boolean;
  /** Whether bodies come still Content-Encoded (the client then asks for and undoes gzip, deflate, br). */
  readonly raw: boolean;
  open(url: string, r: OpenRequest): Promise<Opened>;
  close(): Promise<void>;
}

type Undici = Pick<typeof import('undici'), 'Agent' | 'buildConnector' | 'request'>;
let undici: Promise<Undici> | undefined;

/**
 * The three parts of undici the pool needs. Its entry point also loads fetch, WebSocket, caches
 * and more: 250 to 300 ms of compiling on this machine under load, against 75 to 180 ms for these
 * parts, which the parse benchmark's tree over loopback pays once per process. The entry point
 * stays the fallback should a release move the files.
 */
async function loadParts(): Promise<Undici> {
  try {
    const [agent, api, connect] = await Promise.all([
      import('undici/lib/dispatcher/agent.js' as string),
      import('undici/lib/api/index.js' as string),
      import('undici/lib/core/connect.js' as string),
    ]);
    const Agent = (agent.default ?? agent) as Undici['Agent'];
    const request = (api.default ?? api).request as (this: Dispatcher, opts: object) => unknown;
    const buildConnector = (connect.default ?? connect) as Undici['buildConnector'];
    if (
      typeof Agent !== 'function' ||
      typeof request !== 'function' ||
      typeof buildConnector !== 'function'
    ) {
      throw new Error('undici moved its files');
    }
    // undici's own `request(url, { dispatcher })`, without its entry point: the api on the dispatcher.
    const viaDispatcher = ((url: string, opts: { dispatcher: Dispatcher } & Record<string, unknown>) => {
      const { dispatcher, ...rest } = opts;
      const u = new URL(url);
      return request.call(dispatcher, { ...rest, origin: u.origin, path: `${u.pathname}${u.search}` });
    }) as unknown as Undici['request'];
    return { Agent, buildConnector, request: viaDispatcher };
  } catch {
    return import('undici');
  }
}

const loadUndici = (): Promise<Undici> => {
  undici ??= loadParts();
  return undici;
};

type RawHeaders = Record<string, string | string[] | undefined>;

class RawResponseHeaders implements ResponseHeaders {
  readonly #h: RawHeaders;
  constructor(h: RawHeaders) {
    this.#h = h;
  }
  get(name: string): string | null {
    const v = this.#h[name.toLowerCase()];
    if (v === undefined) return null;
    return typeof v === 'string' ? v : v.join(', ');
  }
  values(name: string): string[] {
    const v = this.#h[name.toLowerCase()];
    if (v === undefined) return [];
    return typeof v === 'string' ? [v] : v;
  }
  record(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const k of Object.keys(this.#h)) out[k] = this.get(k) ?? '';
    return out;
  }
}

class FetchResponseHeaders implements ResponseHeaders {
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
  record(): Record<string, string> {
    const out: Record<string, string> = {};
    this.#h.forEach((value, key) => {
      out[key] = value;
    });
    return out;
  }
}

/** The chunks of a web stream; stopping early cancels it. */
export async function* webChunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) return;
      yield r.value;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

async function* empty(): AsyncGenerator<Uint8Array> {}

/** Response headers read through the common interface. */
export function responseHeaders(h: Headers): ResponseHeaders {
  return new FetchResponseHeaders(h);
}

/** A WHATWG `Response` as an opened answer (bodies of a `fetch` come decoded). */
export function openedFromResponse(response: Response): Opened {
  const stream = response.body;
  return {
    status: response.status,
    statusText: response.statusText,
    headers: new FetchResponseHeaders(response.headers),
    body: stream === null ? empty() : webChunks(stream),
    encoded: false,
    cancel: () => {
      stream?.cancel().catch(() => undefined);
    },
  };
}

/** A user's `fetch`: it decodes Content-Encoding itself and hides the connected address. */
export function fetchTransport(fetch: FetchLike): Transport {
  return {
    seesAddress: false,
    raw: false,
    async open(url, r) {
      const init: RequestInit = {
        method: r.method,
        redirect: 'manual',
        headers: r.headers,
        signal: r.signal,
      };
      if (r.body !== undefined) init.body = r.body;
      return openedFromResponse(await fetch(url, init));
    },
    close: async () => undefined,
  };
}

/** Options of the client's own pool. */
export interface PoolOptions {
  /** Connections per origin. @default unlimited */
  connections?: number | undefined;
  /** Judges each new connection: a reason to refuse it, or undefined. */
  checkAddress?: (origin: string, address: string) => string | undefined;
  /** Records the address each origin's latest connection went to. */
  onConnect?: (origin: string, address: string) => void;
  /** Name resolution (tests, split-horizon DNS). @default dns.lookup */
  lookup?: LookupFunction | undefined;
}

/** undici's `request` over a dispatcher: the client's own pool, or the user's dispatcher. */
export function undiciTransport(dispatcher: Dispatcher | undefined, pool: PoolOptions = {}): Transport {
  let own: Promise<Dispatcher> | undefined;
  let ready: [Undici, Dispatcher] | undefined;
  const seesAddress = dispatcher === undefined;
  const getDispatcher = (): Promise<Dispatcher> => {
    if (dispatcher !== undefined) return Promise.resolve(dispatcher);
    own ??= loadUndici().then(({ Agent, buildConnector }) => {
      const base = buildConnector(pool.lookup === undefined ? {} : ({ lookup: pool.lookup } as object));
      const connect: BuildConnector.connector = (opts, callback) =>
        base(opts, (error, socket) => {
          if (error !== null) return callback(error, null);
          const s = socket as Socket;
          const address = s.remoteAddress ?? '';
          const origin = `${opts.protocol}//${opts.host}`;
          const refused = pool.checkAddress?.(origin, address);
          if (refused !== undefined) {
            s.destroy();
            return callback(new HttpError('address-refused', `address refused: ${refused}`, origin), null);
          }
          pool.onConnect?.(origin, address);
          callback(null, socket);
        });
      return new Agent({
        keepAliveTimeout: 10_000,
        connect,
        ...(pool.connections === undefined ? {} : { connections: pool.connections }),
      });
    });
    return own;
  };
  return {
    seesAddress,
    raw: true,
    async open(url, r) {
      // Resolved once: a crawl opens hundreds of requests a second.
      ready ??= await Promise.all([loadUndici(), getDispatcher()]);
      const [{ request }, d] = ready;
      const res = await request(url, {
        dispatcher: d,
        method: r.method,
        headers: r.headers,
        signal: r.signal,
        ...(r.body === undefined ? {} : { body: r.body }),
      });
      const body = res.body;
      return {
        status: res.statusCode,
        statusText: httpModule().STATUS_CODES[res.statusCode] ?? '',
        headers: new RawResponseHeaders(res.headers as RawHeaders),
        body: body as AsyncIterable<Uint8Array>,
        encoded: true,
        cancel: () => {
          // A destroyed body emits an abort error that nobody waits for any more.
          body.on('error', () => undefined);
          body.destroy();
        },
      };
    },
    async close() {
      if (own === undefined) return;
      const d = await own;
      await d.destroy().catch(() => undefined);
    },
  };
}
