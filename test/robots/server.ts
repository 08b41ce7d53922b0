import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, origin: string) => void;

export interface TestServer {
  origin: string;
  /** Requests seen, as `METHOD path`. */
  requests: string[];
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and a random port; unknown paths answer 404. */
export async function startServer(): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  const requests: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    // No keep-alive: a socket left over by one test (a timeout, a cut body) must not be reused,
    // and retried, by the next.
    res.setHeader('connection', 'close');
    const handler = routes.get(req.url ?? '/');
    if (handler === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    handler(req, res, origin);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    route: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const text =
  (body: string | Uint8Array, status = 200, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(body);
  };

export const redirect =
  (to: string, status = 301): Handler =>
  (_req, res) => {
    res.writeHead(status, { location: to }).end();
  };
