/**
 * A static file server on 127.0.0.1 (random port) for browser tests: serves one folder with the
 * Content-Types a web server gives sitemaps, stylesheets and HTML, and records what was asked for.
 * Shared by the HTML site map / XSL tests and the validator's HTML report test: keep it generic.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';

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

export interface ServedRequest {
  method: string;
  path: string;
  status: number;
}

export interface StaticServer {
  /** `http://127.0.0.1:PORT/` (ends with '/'). */
  url: string;
  port: number;
  /** Every request in arrival order, with the status it got. */
  requests: ServedRequest[];
  close(): Promise<void>;
}

export interface StaticServerOptions {
  /** Extra response headers for every file (for example a Content-Security-Policy). */
  headers?: Record<string, string>;
}

/** Serves `root` read-only. Directories answer with their `index.html`; paths outside `root` get 404. */
export async function startStaticServer(
  root: string,
  options: StaticServerOptions = {},
): Promise<StaticServer> {
  const base = resolve(root);
  const requests: ServedRequest[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return 405;
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    } catch {
      res.writeHead(400).end();
      return 400;
    }
    let file = resolve(join(base, path));
    if (file !== base && !file.startsWith(base + sep)) {
      res.writeHead(404).end();
      return 404;
    }
    let info = await stat(file).catch(() => undefined);
    if (info?.isDirectory() === true) {
      file = join(file, 'index.html');
      info = await stat(file).catch(() => undefined);
    }
    if (info === undefined || !info.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`not found: ${path}\n`);
      return 404;
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'content-length': String(info.size),
      'cache-control': 'no-store',
      ...options.headers,
    });
    if (req.method === 'HEAD') {
      res.end();
      return 200;
    }
    await new Promise<void>((done, fail) => {
      createReadStream(file).on('error', fail).pipe(res).on('finish', done).on('error', fail);
    });
    return 200;
  };

  const server = createServer((req, res) => {
    const entry: ServedRequest = { method: req.method ?? '', path: req.url ?? '', status: 0 };
    requests.push(entry);
    handle(req, res).then(
      (status) => {
        entry.status = status;
      },
      () => {
        entry.status = 500;
        if (!res.headersSent) res.writeHead(500);
        res.end();
      },
    );
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', ready);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    requests,
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}
