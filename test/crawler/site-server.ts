/**
 * A programmable site on 127.0.0.1 (random port) for crawler tests: each path answers with a
 * status, headers and body (or a handler), everything else is 404; every request is recorded with
 * its headers, so tests can count what the crawler fetched.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Milliseconds before answering. */
  delayMs?: number;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, hit: number) => void;

export interface SiteRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

export interface Site {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  origin: string;
  requests: SiteRequest[];
  /** Requests per path (with query). */
  hits(path: string): number;
  close(): Promise<void>;
}

/** `html('Title', '<a href=/x>x</a>')`: a small page. */
export function html(title: string, body = '', head = ''): Route {
  return {
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`,
  };
}

export async function startSite(routes: Record<string, Route | Handler>): Promise<Site> {
  const requests: SiteRequest[] = [];
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    const n = (counts.get(path) ?? 0) + 1;
    counts.set(path, n);
    const route = routes[path] ?? routes[path.split('?')[0]!];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      return;
    }
    if (typeof route === 'function') {
      route(req, res, n);
      return;
    }
    const send = (): void => {
      res
        .writeHead(route.status ?? 200, route.headers ?? { 'content-type': 'text/html; charset=utf-8' })
        .end(route.body ?? '');
    };
    if (route.delayMs !== undefined) setTimeout(send, route.delayMs);
    else send();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
