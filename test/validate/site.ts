/**
 * A small real site on 127.0.0.1 (random port) for the validator's tests: routes answer with any
 * status, headers and body, per method; every request is recorded (method, path, User-Agent) and
 * the peak of requests in flight is kept.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

/** A route: a fixed answer, or a function of the request and how many times the path was asked for. */
export type Route = Answer | ((req: IncomingMessage, nth: number) => Answer);

export interface SeenRequest {
  method: string;
  path: string;
  userAgent: string | undefined;
}

export interface Site {
  origin: string;
  requests: SeenRequest[];
  /** Most requests in flight at once. */
  peak: number;
  route(path: string, route: Route): void;
  close(): Promise<void>;
}

export async function startSite(routes: Record<string, Route> = {}): Promise<Site> {
  const table = new Map<string, Route>(Object.entries(routes));
  const counts = new Map<string, number>();
  let inFlight = 0;
  const site: Site = {
    origin: '',
    requests: [],
    peak: 0,
    route: (path, route) => {
      table.set(path, route);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    site.requests.push({ method: req.method ?? '', path, userAgent: req.headers['user-agent'] });
    inFlight++;
    site.peak = Math.max(site.peak, inFlight);
    res.on('close', () => inFlight--);
    const nth = (counts.get(path) ?? 0) + 1;
    counts.set(path, nth);
    const route = table.get(path);
    const answer: Answer =
      route === undefined
        ? { status: 404, headers: { 'content-type': 'text/html' }, body: '<title>Not found</title>' }
        : typeof route === 'function'
          ? route(req, nth)
          : route;
    const send = (): void => {
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...answer.headers });
      res.end(req.method === 'HEAD' ? undefined : (answer.body ?? ''));
    };
    if (answer.delayMs !== undefined) setTimeout(send, answer.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return site;
}

/** An HTML page with the given head. */
export function page(head: string, body = '<p>content</p>'): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title>${head}</head><body>${body}</body></html>`;
}
