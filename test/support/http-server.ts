/**
 * The one HTTP server of the tests: a real node:http server on 127.0.0.1 and a random port, with
 * routes by path, a log of every request, and helpers for the answers the suites need (fixed
 * bodies, redirects, slow, cut and gzip answers, a static folder). Network behaviour is tested
 * against it rather than against mocks, so that sockets, redirects and timeouts are real.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** A fixed answer. Without a content-type header it is an HTML page. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Milliseconds before answering (the timer is dropped when the client goes away). */
  delayMs?: number;
}

export interface RequestContext {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** How many times this path (with its query) has been asked for, this request included. */
  hit: number;
}

/** Answers by itself through `res` (or never, to play a server that hangs). */
export type Handler = (req: IncomingMessage, res: ServerResponse, ctx: RequestContext) => unknown;

export type Route = Answer | Handler;

export interface SeenRequest {
  method: string;
  /** The request target as sent: path and query. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The status answered; 0 while the answer is pending or when the connection was cut first. */
  status: number;
}

export interface TestServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  origin: string;
  /** `http://127.0.0.1:PORT/` (with the slash, for joining relative paths). */
  url: string;
  port: number;
  /** Every request, in arrival order. */
  requests: SeenRequest[];
  /** Most requests in flight at once. */
  peak: number;
  /** Requests for this path (with its query). */
  hits(path: string): number;
  route(path: string, route: Route): void;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /**
   * `false` answers every request with `Connection: close`, so that a socket left over by one test
   * (a timeout, a cut body) is never reused, and retried, by the next. @default true
   */
  keepAlive?: boolean;
  /** Answers the paths no route names; without it they get a 404 page. */
  fallback?: Handler;
}

const NOT_FOUND: Answer = { status: 404, body: '<title>Not found</title>' };

/**
 * Starts a server. A request is routed by its exact target, then by its path without the query.
 * `routes` is read at each request, not copied: a test may add to it, or call `route()`, while the
 * server runs.
 */
export async function startServer(
  routes: Record<string, Route> = {},
  options: TestServerOptions = {},
): Promise<TestServer> {
  const counts = new Map<string, number>();
  let inFlight = 0;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const seen: SeenRequest = { method: req.method ?? '', path, headers: req.headers, status: 0 };
    state.requests.push(seen);
    inFlight++;
    state.peak = Math.max(state.peak, inFlight);
    res.on('finish', () => {
      seen.status = res.statusCode;
    });
    res.on('close', () => inFlight--);
    if (options.keepAlive === false) res.setHeader('connection', 'close');
    const hit = (counts.get(path) ?? 0) + 1;
    counts.set(path, hit);
    const route =
      lookup(routes, path) ?? lookup(routes, path.split('?')[0]!) ?? options.fallback ?? NOT_FOUND;
    if (typeof route !== 'function') {
      send(req, res, route);
      return;
    }
    Promise.resolve()
      .then(() => route(req, res, { origin: state.origin, hit }))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ready);
  });
  const { port } = server.address() as AddressInfo;
  const state: TestServer = {
    origin: `http://127.0.0.1:${port}`,
    url: `http://127.0.0.1:${port}/`,
    port,
    requests: [],
    peak: 0,
    hits: (path) => counts.get(path) ?? 0,
    route: (path, route) => {
      routes[path] = route;
    },
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
  return state;
}

function lookup(routes: Record<string, Route>, path: string): Route | undefined {
  return Object.hasOwn(routes, path) ? routes[path] : undefined;
}

function send(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  const write = (): void => {
    res.writeHead(answer.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...answer.headers });
    res.end(req.method === 'HEAD' ? undefined : (answer.body ?? ''));
  };
  if (answer.delayMs === undefined) {
    write();
    return;
  }
  const timer = setTimeout(write, answer.delayMs);
  res.on('close', () => clearTimeout(timer));
}

/** A handler that computes its answer from the request (and how many times the path was asked for). */
export const answer =
  (compute: (req: IncomingMessage, ctx: RequestContext) => Answer): Handler =>
  (req, res, ctx) =>
    send(req, res, compute(req, ctx));

/** Plain text (robots.txt, key files). */
export const text = (
  body: string | Uint8Array,
  status = 200,
  headers: Record<string, string> = {},
): Answer => ({
  status,
  headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
  body,
});

/** An XML document (a sitemap). */
export const body = (
  content: string | Uint8Array,
  headers: Record<string, string> = {},
  status = 200,
): Answer => ({
  status,
  headers: { 'content-type': 'application/xml', ...headers },
  body: content,
});

/** `html('Title', '<a href=/x>x</a>')`: a small page. */
export const html = (title: string, bodyHtml = '', head = ''): Answer => ({
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html><head><title>${title}</title>${head}</head><body>${bodyHtml}</body></html>`,
});

export const redirect = (to: string, status = 302): Answer => ({ status, headers: { location: to } });

/** The document gzip-compressed as a file (`.xml.gz`), with no Content-Encoding. */
export const gzipFile = (content: string): Answer =>
  body(gzipSync(content), { 'content-type': 'application/gzip' });

/** The document compressed in transit (`Content-Encoding: gzip`). */
export const gzipTransfer = (content: string): Answer =>
  body(gzipSync(content), { 'content-encoding': 'gzip' });

/** Answers after `ms` milliseconds. */
export const slow = (ms: number, inner: Answer): Answer => ({ ...inner, delayMs: ms });

/** Announces all of `content`, sends its start, then cuts the connection. */
export const cut =
  (content: string, at: number): Handler =>
  (_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/xml',
      'content-length': String(Buffer.byteLength(content)),
    });
    res.write(content.slice(0, at), () => setTimeout(() => res.socket?.destroy(), 20));
  };

/** Content-Type by file extension. `.gz` is served as the file it is, never as Content-Encoding. */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.xml': 'application/xml; charset=utf-8',
  // text/xsl is what browsers have accepted longest for xml-stylesheet; application/xslt+xml works too.
  '.xsl': 'text/xsl; charset=utf-8',
  '.xslt': 'application/xslt+xml; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.jsonl': 'application/jsonl; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gz': 'application/gzip',
};

export interface FolderOptions {
  /** Extra response headers for every file (for example a Content-Security-Policy). */
  headers?: Record<string, string>;
}

/**
 * Serves `root` read-only with the Content-Types a web server gives sitemaps, stylesheets and HTML.
 * Directories answer with their `index.html`; paths outside `root` get 404.
 */
export function serveFolder(root: string, options: FolderOptions = {}): Handler {
  const base = resolve(root);
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = resolve(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(404).end();
      return;
    }
    let info = await stat(file).catch(() => undefined);
    if (info?.isDirectory() === true) {
      file = join(file, 'index.html');
      info = await stat(file).catch(() => undefined);
    }
    if (info === undefined || !info.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${path}\n`);
      return;
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': String(info.size),
      'cache-control': 'no-store',
      ...options.headers,
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    await new Promise<void>((done, fail) => {
      createReadStream(file).on('error', fail).pipe(res).on('finish', done).on('error', fail);
    });
  };
}

/** A server for one folder (browser tests). */
export function startStaticServer(root: string, options: FolderOptions = {}): Promise<TestServer> {
  return startServer({}, { fallback: serveFolder(root, options) });
}
