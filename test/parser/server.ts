import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface SeenRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

export interface TestServer {
  origin: string;
  requests: SeenRequest[];
  /** Most requests in flight at once. */
  peak: number;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and a random port; unknown paths answer 404. */
export async function startServer(): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  let inFlight = 0;
  const state: TestServer = {
    origin: '',
    requests: [],
    peak: 0,
    route: (path, handler) => {
      routes.set(path, handler);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    state.requests.push({ path: req.url ?? '/', headers: req.headers });
    inFlight++;
    state.peak = Math.max(state.peak, inFlight);
    res.on('close', () => inFlight--);
    res.setHeader('connection', 'close');
    const handler = routes.get(req.url ?? '/');
    if (handler === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

export const body =
  (content: string | Uint8Array, headers: Record<string, string> = {}, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/xml', ...headers }).end(content);
  };

/** The document gzip-compressed as a file (`.xml.gz`), with no Content-Encoding. */
export const gzipFile = (content: string): Handler =>
  body(gzipSync(content), { 'content-type': 'application/gzip' });

/** The document compressed in transit (`Content-Encoding: gzip`). */
export const gzipTransfer = (content: string): Handler =>
  body(gzipSync(content), { 'content-encoding': 'gzip' });

export const redirect =
  (to: string, status = 302): Handler =>
  (_req, res) => {
    res.writeHead(status, { location: to }).end();
  };

/** Answers after `ms` milliseconds. */
export const slow =
  (ms: number, inner: Handler): Handler =>
  (req, res) => {
    const t = setTimeout(() => void inner(req, res), ms);
    res.on('close', () => clearTimeout(t));
  };

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

export function urlsetOf(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<url><loc>${l}</loc></url>`).join('\n')}\n</urlset>\n`;
}

export function indexOf(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`;
}
