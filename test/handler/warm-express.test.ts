/**
 * The answers of the handler inside an Express app, pinned byte for byte as a client reads them
 * off the socket: the status line, every header in the order it is sent (names spelled as sent),
 * and the body, for a mix of requests answered cold (generated) and warm (cached). The warm path
 * is tuned for speed; this is what keeps it the same answer.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSitemapHandler, toNodeListener } from '../../src/handler/node.js';
import { BASE } from './fixtures.js';

interface Raw {
  /** The status line and the header lines as sent, `Date` blanked. */
  head: string[];
  /** The body as sent (chunked transfer coding undone). */
  body: Buffer;
}

/** One keep-alive connection that sends requests one at a time and reads each answer whole. */
class RawClient {
  #socket: Socket;
  #buf = Buffer.alloc(0);
  #wake: (() => void) | undefined;
  constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (d: Buffer) => {
      this.#buf = Buffer.concat([this.#buf, d]);
      this.#wake?.();
    });
  }
  static async open(port: number): Promise<RawClient> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new RawClient(socket);
  }
  close(): void {
    this.#socket.end();
  }
  async #more(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
    });
  }
  async request(method: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
    const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
    this.#socket.write(`${method} ${path} HTTP/1.1\r\nHost: example.com\r\n${lines.join('')}\r\n`);
    let end = this.#buf.indexOf('\r\n\r\n');
    while (end === -1) {
      await this.#more();
      end = this.#buf.indexOf('\r\n\r\n');
    }
    const head = this.#buf.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(head[0]!.split(' ')[1]);
    const field = (name: string): string | undefined =>
      head.find((l) => l.toLowerCase().startsWith(`${name}: `))?.slice(name.length + 2);
    const at = end + 4;
    let body: Buffer;
    if (method === 'HEAD' || status === 304) {
      body = Buffer.alloc(0);
      this.#buf = this.#buf.subarray(at);
    } else if (field('transfer-encoding') === 'chunked') {
      const parts: Buffer[] = [];
      let i = at;
      for (;;) {
        let eol = this.#buf.indexOf('\r\n', i);
        while (eol === -1) {
          await this.#more();
          eol = this.#buf.indexOf('\r\n', i);
        }
        const size = Number.parseInt(this.#buf.subarray(i, eol).toString('latin1'), 16);
        while (this.#buf.length < eol + 2 + size + 2) await this.#more();
        parts.push(Buffer.from(this.#buf.subarray(eol + 2, eol + 2 + size)));
        i = eol + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(parts);
      this.#buf = this.#buf.subarray(i);
    } else {
      const length = Number(field('content-length'));
      while (this.#buf.length < at + length) await this.#more();
      body = Buffer.from(this.#buf.subarray(at, at + length));
      this.#buf = this.#buf.subarray(at + length);
    }
    return { head: head.map((l) => (l.startsWith('Date: ') ? 'Date: -' : l)), body };
  }
}

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex').slice(0, 16);

function decoded(r: Raw): Buffer {
  const enc = r.head.find((l) => l.startsWith('content-encoding: '))?.slice(18);
  return enc === 'gzip' ? gunzipSync(r.body) : enc === 'br' ? brotliDecompressSync(r.body) : r.body;
}

// The set: 250 URLs, 100 a file: an index and three children. A fixed version and clock, so
// that the validators are the same in every run.
const LAST_MODIFIED = 'Thu, 02 Jan 2025 03:04:05 GMT';
let server: Server;
let client: RawClient;
let etag: string;

beforeAll(async () => {
  const handler = createNodeSitemapHandler({
    baseUrl: BASE,
    maxUrlsPerFile: 100,
    version: () => 'v1',
    now: () => new Date(LAST_MODIFIED),
    source: {
      count: () => 250,
      *page(index, size) {
        for (let i = index * size; i < Math.min(250, (index + 1) * size); i++)
          yield { loc: `${BASE}page-${i}`, lastmod: '2024-03-04' };
      },
    },
  });
  const app = express();
  app.use(toNodeListener(handler));
  server = createServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  client = await RawClient.open((server.address() as AddressInfo).port);
});

afterAll(async () => {
  client.close();
  await new Promise((r) => server.close(r));
});

/** The head of a 200 or 304 of a sitemap file, as the handler answers it inside Express. */
function fileHead(
  status: 200 | 304,
  type: string,
  encoding: string | undefined,
  length: number | 'chunked',
): string[] {
  return [
    status === 200 ? 'HTTP/1.1 200 OK' : 'HTTP/1.1 304 Not Modified',
    'X-Powered-By: Express',
    ...(status === 200 ? [`content-type: ${type}`] : []),
    'cache-control: public, max-age=3600',
    'vary: Accept-Encoding',
    `etag: ${etag}`,
    `last-modified: ${LAST_MODIFIED}`,
    'x-content-type-options: nosniff',
    ...(encoding === undefined ? [] : [`content-encoding: ${encoding}`]),
    ...(length === 'chunked' || status === 304 ? [] : [`content-length: ${length}`]),
    'Date: -',
    'Connection: keep-alive',
    'Keep-Alive: timeout=5',
    ...(length === 'chunked' ? ['Transfer-Encoding: chunked'] : []),
  ];
}

const XML = 'application/xml; charset=utf-8';
const gz = { 'Accept-Encoding': 'gzip' };
const br = { 'Accept-Encoding': 'gzip, deflate, br' };

describe('inside an Express app, the handler answers', () => {
  it('the index and a child cold, then warm: the same document, headers in the same order, Content-Length instead of chunks', async () => {
    const coldIndex = await client.request('GET', '/sitemap.xml', gz);
    etag = coldIndex.head.find((l) => l.startsWith('etag: '))!.slice(6);
    expect(etag).toMatch(/^W\/"[0-9a-z]+"$/);
    expect(coldIndex.head).toEqual(fileHead(200, XML, 'gzip', 'chunked'));
    const warmIndex = await client.request('GET', '/sitemap.xml', gz);
    expect(warmIndex.head).toEqual(fileHead(200, XML, 'gzip', warmIndex.body.length));
    expect(warmIndex.body.equals(coldIndex.body)).toBe(true);
    expect(sha(decoded(warmIndex))).toBe('1b7be29e8c13cb46');

    const cold = await client.request('GET', '/sitemap-00002.xml', gz);
    expect(cold.head).toEqual(fileHead(200, XML, 'gzip', 'chunked'));
    const text = decoded(cold);
    expect([text.length, sha(text)]).toEqual([8110, 'f20c1d486f95016a']);
    // Warm: the cached bytes; asked for again they may be recompressed once (gzip level 9):
    // the same document whichever bytes carry it.
    for (let i = 0; i < 4; i++) {
      const warm = await client.request('GET', '/sitemap-00002.xml', gz);
      expect(warm.head).toEqual(fileHead(200, XML, 'gzip', warm.body.length));
      expect(decoded(warm).equals(text)).toBe(true);
    }
  });

  it('every other encoding, HEAD, a query, conditional requests, the twins, and what is not a file', async () => {
    const text = decoded(await client.request('GET', '/sitemap-00002.xml', gz));
    const brCold = await client.request('GET', '/sitemap-00002.xml', br);
    expect(brCold.head).toEqual(fileHead(200, XML, 'br', 'chunked'));
    const brWarm = await client.request('GET', '/sitemap-00002.xml', br);
    expect(brWarm.head).toEqual(fileHead(200, XML, 'br', brWarm.body.length));
    expect(brWarm.body.equals(brCold.body)).toBe(true);
    expect(decoded(brWarm).equals(text)).toBe(true);

    const plainCold = await client.request('GET', '/sitemap-00002.xml');
    expect(plainCold.head).toEqual(fileHead(200, XML, undefined, 'chunked'));
    const plainWarm = await client.request('GET', '/sitemap-00002.xml');
    expect(plainWarm.head).toEqual(fileHead(200, XML, undefined, 8110));
    expect(plainWarm.body.equals(text)).toBe(true);

    const gzWarm = await client.request('GET', '/sitemap-00002.xml', gz);
    const head = await client.request('HEAD', '/sitemap-00002.xml', gz);
    expect(head.head).toEqual(fileHead(200, XML, 'gzip', gzWarm.body.length));
    const query = await client.request('GET', '/sitemap-00002.xml?utm=1', gz);
    expect(query.head).toEqual(gzWarm.head);
    expect(query.body.equals(gzWarm.body)).toBe(true);

    for (const conditional of [{ 'If-None-Match': etag }, { 'If-Modified-Since': LAST_MODIFIED }]) {
      const r = await client.request('GET', '/sitemap-00002.xml', { ...gz, ...conditional });
      expect(r.head).toEqual(fileHead(304, XML, undefined, 0));
    }
    const stale = await client.request('GET', '/sitemap-00002.xml', { ...gz, 'If-None-Match': 'W/"other"' });
    expect(stale.head).toEqual(gzWarm.head);

    for (let i = 0; i < 2; i++) {
      const txt = await client.request('GET', '/sitemap-00002.txt');
      expect(txt.head).toEqual(
        fileHead(200, 'text/plain; charset=utf-8', undefined, i === 0 ? 'chunked' : 2900),
      );
      expect([txt.body.length, sha(txt.body)]).toEqual([2900, '9323a259ebd43e1a']);
    }
    const html = await client.request('GET', '/sitemap-00002.html');
    expect(html.head).toEqual(fileHead(200, 'text/html; charset=utf-8', undefined, 'chunked'));

    const gone = await client.request('GET', '/sitemap-00009.xml', gz);
    expect(gone.head).toEqual([
      'HTTP/1.1 404 Not Found',
      'X-Powered-By: Express',
      'content-type: text/plain; charset=utf-8',
      'cache-control: no-store',
      'Date: -',
      'Connection: keep-alive',
      'Keep-Alive: timeout=5',
      'Transfer-Encoding: chunked',
    ]);
    expect(gone.body.toString()).toBe(
      'sitemap-00009.xml is not a file of this sitemap set (any more): start from sitemap.xml\n',
    );
    const post = await client.request('POST', '/sitemap.xml', { 'Content-Length': '0' });
    expect(post.head).toEqual([
      'HTTP/1.1 405 Method Not Allowed',
      'X-Powered-By: Express',
      'content-type: text/plain; charset=utf-8',
      'cache-control: no-store',
      'allow: GET, HEAD',
      'Date: -',
      'Connection: keep-alive',
      'Keep-Alive: timeout=5',
      'Transfer-Encoding: chunked',
    ]);
    const xsl = await client.request('GET', '/sitemap.xsl');
    expect(xsl.head).toEqual([
      'HTTP/1.1 200 OK',
      'X-Powered-By: Express',
      'content-type: text/xsl; charset=utf-8',
      `content-length: ${xsl.body.length}`,
      'cache-control: public, max-age=3600',
      'Date: -',
      'Connection: keep-alive',
      'Keep-Alive: timeout=5',
    ]);
    // Not a sitemap route: Express's own 404.
    const other = await client.request('GET', '/other', gz);
    expect(other.head[0]).toBe('HTTP/1.1 404 Not Found');
    expect(other.body.toString()).toContain('Cannot GET /other');
  });
});
