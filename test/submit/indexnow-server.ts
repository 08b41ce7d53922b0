import { startServer, type TestServer } from '../support/http-server.js';

export interface Post {
  host: string;
  key: string;
  keyLocation?: string;
  urlList: string[];
}

export interface Engine extends TestServer {
  posts: Post[];
  /** Answers to give before judging a post normally (e.g. 429 with Retry-After). */
  queue: Array<{ status: number; headers?: Record<string, string> }>;
  /** Whether to answer 202 (key validation pending) instead of 200. */
  pending: boolean;
}

/**
 * A local IndexNow endpoint at /indexnow that implements the protocol's answers: 400 for a body
 * that is not the JSON shape, 422 for a bad key or a URL not on `host`, 403 when the key file
 * (fetched from the site, as engines do) is missing or does not hold the key, 200 (or 202).
 */
export async function startEngine(): Promise<Engine> {
  const server = await startServer({}, { keepAlive: false });
  const engine = Object.assign(server, { posts: [] as Post[], queue: [] as Engine['queue'], pending: false });
  server.route('/indexnow', (req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      raw += d;
    });
    req.on('end', () => {
      void (async () => {
        const queued = engine.queue.shift();
        if (queued !== undefined) {
          res.writeHead(queued.status, queued.headers ?? {}).end('queued answer');
          return;
        }
        let body: Post;
        try {
          body = JSON.parse(raw) as Post;
        } catch {
          res.writeHead(400).end('invalid JSON');
          return;
        }
        if (
          req.method !== 'POST' ||
          !/^application\/json/.test(req.headers['content-type'] ?? '') ||
          typeof body.host !== 'string' ||
          !Array.isArray(body.urlList)
        ) {
          res.writeHead(400).end('bad request');
          return;
        }
        if (!/^[a-zA-Z0-9-]{8,128}$/.test(body.key) || body.urlList.length > 10_000) {
          res.writeHead(422).end('key does not match the schema, or too many URLs');
          return;
        }
        if (body.urlList.some((u) => new URL(u).host !== body.host)) {
          res.writeHead(422).end('URLs do not belong to the host');
          return;
        }
        const keyFile = body.keyLocation ?? `http://${body.host}/${body.key}.txt`;
        const r = await fetch(keyFile).catch(() => undefined);
        const text = r?.ok === true ? (await r.text()).trim() : undefined;
        if (text !== body.key) {
          res.writeHead(403).end('key not valid');
          return;
        }
        engine.posts.push(body);
        res.writeHead(engine.pending ? 202 : 200).end();
      })();
    });
  });
  return engine;
}
