/**
 * `sitemapkit/handler/node`: the web handler under `node:http`, Express and Fastify, a few lines
 * each, and Node's zlib as its Brotli (Node 20's `CompressionStream` has none).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Duplex, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { type Answer, answererOf, isThenable } from './body.js';
import { createSitemapHandler } from './handler.js';
import type { Compressor, SitemapHandler, SitemapHandlerOptions } from './types.js';
import { PLAIN_PATH, setBestCompressor } from './warm.js';

export {
  type ServableStore,
  type StoreServeOptions,
  type StoreSourceOptions,
  storeSource,
} from './store-source.js';

type Pair = { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> };

/** Brotli through node:zlib, at quality 5 (fast enough to stream; a cached file pays it once). */
export const nodeBrotli: Compressor = () =>
  Duplex.toWeb(createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })) as unknown as Pair;

/** gzip through node:zlib (level 6, as `CompressionStream`, with less overhead per chunk). */
export const nodeGzip: Compressor = () => Duplex.toWeb(createGzip()) as unknown as Pair;
// A cached gzip file that is asked for again is compressed once more at level 9 (about 8% fewer
// bytes for a sitemap, sent on every later request; warm.ts).
setBestCompressor(nodeGzip, () => Duplex.toWeb(createGzip({ level: 9 })) as unknown as Pair);

/** `createSitemapHandler` with Node's compressors (Brotli and gzip through node:zlib). */
export function createNodeSitemapHandler(options: SitemapHandlerOptions): SitemapHandler {
  return createSitemapHandler({ brotli: nodeBrotli, gzip: nodeGzip, ...options });
}

/** The web Request of a Node request (GET and HEAD only carry no body, which is all the handler answers). */
export function toWebRequest(req: IncomingMessage & { originalUrl?: string }): Request {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const url = `http://${req.headers.host ?? 'localhost'}${req.originalUrl ?? req.url ?? '/'}`;
  return new Request(url, { method: req.method ?? 'GET', headers });
}

/** Writes a web Response to a Node response; a client that goes away cancels the generation. */
export async function sendWebResponse(res: ServerResponse, response: Response): Promise<void> {
  await sendAnswer(res, {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: response.body,
  });
}

/** Writes an answer: at once when its body is bytes or none, else streamed (the promise settles at its end). */
function sendAnswer(res: ServerResponse, a: Answer): Promise<void> | undefined {
  res.writeHead(a.status, a.headers);
  if (a.body === null || a.body instanceof Uint8Array) {
    res.end(a.body ?? undefined);
    return undefined;
  }
  return pipeline(Readable.fromWeb(a.body as import('node:stream/web').ReadableStream), res);
}

/**
 * A request that failed after it was answered in part: the client went away mid-stream, or the
 * source failed after the headers were sent; all that is left is to end the connection.
 */
function failed(res: ServerResponse, error: unknown): void {
  if (!res.headersSent) res.writeHead(500).end();
  else res.destroy(error instanceof Error ? error : undefined);
}

function headerOf(req: IncomingMessage): (name: string) => string | null {
  // Read once: in an Express app `req` has a prototype of Express's own, and every property
  // read on it costs more than one on the plain headers object.
  const headers = req.headers;
  return (name) => {
    const v = headers[name];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
}

/**
 * A `node:http` request listener that is also Express middleware: requests for the handler's
 * routes are answered, others go to `next` (or get a 404 without it).
 */
export function toNodeListener(
  handler: SitemapHandler,
): (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => void {
  return (req, res, next) => {
    const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (next !== undefined && !handler.matches(path)) {
      next();
      return;
    }
    // A handler of createSitemapHandler is answered without a web Request or Response, and a
    // cached file without a promise (one write, in the tick the request arrived in); any other
    // web handler goes through them.
    const answerer = answererOf(handler);
    if (answerer === undefined) {
      let request: Request;
      try {
        request = toWebRequest(req);
      } catch {
        res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('malformed request\n');
        return;
      }
      handler(request)
        .then((response) => sendWebResponse(res, response))
        .catch((error: unknown) => failed(res, error));
      return;
    }
    let pathname = path;
    try {
      // Only a path with escapes, dot segments or odd characters needs the URL parser.
      if (!PLAIN_PATH.test(path)) pathname = new URL(url, 'http://localhost').pathname;
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('malformed request\n');
      return;
    }
    try {
      const a = answerer({ method: req.method ?? 'GET', pathname, header: headerOf(req) });
      if (isThenable(a))
        a.then((answer) => sendAnswer(res, answer)).catch((error: unknown) => failed(res, error));
      else sendAnswer(res, a)?.catch((error: unknown) => failed(res, error));
    } catch (error) {
      failed(res, error);
    }
  };
}

/** What {@link addFastifyRoutes} needs of a Fastify instance. */
export interface FastifyLike {
  addHook(
    name: 'onRequest',
    hook: (
      request: { raw: IncomingMessage; url: string },
      reply: { raw: ServerResponse; hijack(): void },
    ) => Promise<void>,
  ): unknown;
}

/** Answers the handler's routes in a Fastify app (`addFastifyRoutes(app, handler)` before `listen`). */
export function addFastifyRoutes(app: FastifyLike, handler: SitemapHandler): void {
  const listener = toNodeListener(handler);
  app.addHook('onRequest', async (request, reply) => {
    if (!handler.matches(request.url.split('?')[0]!)) return;
    reply.hijack();
    listener(request.raw, reply.raw);
  });
}
