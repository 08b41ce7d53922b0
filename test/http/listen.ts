/**
 * A real HTTP server on a chosen loopback address (127.0.0.1, 127.0.0.2, ::1): the address policy
 * tests need servers on several addresses, which the shared helpers do not offer yet. Counts the
 * requests in flight (for politeness) and keeps what each request carried.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpClient, type HttpClientOptions } from '../../src/http/index.js';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface Listening {
  /** `http://HOST:PORT` (IPv6 in brackets). */
  origin: string;
  port: number;
  requests: Array<{ path: string; headers: IncomingMessage['headers'] }>;
  /** Most requests in flight at once. */
  peak: number;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export async function listen(host = '127.0.0.1'): Promise<Listening> {
  const routes = new Map<string, Handler>();
  let inFlight = 0;
  const server = createServer((req, res) => {
    state.requests.push({ path: req.url ?? '/', headers: req.headers });
    inFlight++;
    state.peak = Math.max(state.peak, inFlight);
    res.on('close', () => inFlight--);
    const handler = routes.get(req.url ?? '/');
    if (handler === undefined) return void res.writeHead(404).end('not found');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const state: Listening = {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    requests: [],
    peak: 0,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

export const text =
  (body: string | Uint8Array, headers: Record<string, string> = {}, status = 200): Handler =>
  (_req, res) =>
    void res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);

export const redirect =
  (to: string, status = 302): Handler =>
  (_req, res) =>
    void res.writeHead(status, { location: to }).end();

/** Servers and clients made by a test file, all closed after each test. */
export function tracked(): {
  server(host?: string): Promise<Listening>;
  client(o?: HttpClientOptions): HttpClient;
  closeAll(): Promise<void>;
} {
  const servers: Listening[] = [];
  const clients: HttpClient[] = [];
  return {
    async server(host) {
      const s = await listen(host);
      servers.push(s);
      return s;
    },
    client(o = {}) {
      const c = new HttpClient(o);
      clients.push(c);
      return c;
    },
    async closeAll() {
      await Promise.all(clients.splice(0).map((c) => c.close()));
      await Promise.all(servers.splice(0).map((s) => s.close()));
    },
  };
}
