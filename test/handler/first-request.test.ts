/**
 * The first request to a fresh app, generated while it is sent: the whole 50,000-URL child arrives
 * however the client reads it and wherever the source stops to wait. A bench run once stopped
 * with "sitemapkit, Fastify served 48977 URLs, not 50000" (a valid gzip of a shorter document on
 * the first request to a fresh server); these are the windows it could have come from, hit on
 * purpose: a client that stops reading for a while, over and over (so that every stage between
 * the source and the socket is held by backpressure, the gzip stream with input written and not
 * yet read), a source that yields to the event loop inside and between its batches, and several
 * first requests at once generating the same file side by side.
 */
import { once } from 'node:events';
import { createServer, IncomingMessage, type Server, ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import express from 'express';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { SitemapEntryInput } from '../../src/core/entry.js';
import { addFastifyRoutes, createNodeSitemapHandler, toNodeListener } from '../../src/handler/node.js';
import type { SitemapHandler } from '../../src/handler/types.js';
import { BASE } from './fixtures.js';

const N = 50_000;

function entryAt(i: number): SitemapEntryInput {
  const day = new Date(Date.UTC(2024, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
  return { loc: `${BASE}products/category-${i % 97}/item-${i}`, lastmod: day };
}

/** A paged source that waits a turn of the event loop at every `every`th row (as a database read does). */
function handlerWith(every: number): SitemapHandler {
  return createNodeSitemapHandler({
    baseUrl: BASE,
    source: {
      count: () => N,
      async *page(index, size) {
        for (let i = index * size + 1; i <= Math.min(N, (index + 1) * size); i++) {
          if (i % every === 0) await new Promise((r) => setImmediate(r));
          yield entryAt(i);
        }
      },
    },
  });
}

type Kind = 'fastify' | 'express' | 'node:http';

async function start(kind: Kind, handler: SitemapHandler): Promise<{ port: number; close(): Promise<void> }> {
  if (kind === 'fastify') {
    const app = Fastify();
    addFastifyRoutes(app, handler);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  }
  let server: Server;
  if (kind === 'express') {
    const app = express();
    app.use(toNodeListener(handler));
    server = createServer(app);
  } else server = createServer(toNodeListener(handler));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/**
 * GET /sitemap.xml with gzip over a raw socket that stops reading for `pauseMs` after every
 * `stride` bytes it takes in; returns the body with the chunked coding undone.
 */
async function slowGet(port: number, stride: number, pauseMs: number): Promise<Buffer> {
  const socket = connect({ port, host: '127.0.0.1' });
  await once(socket, 'connect');
  socket.write(
    'GET /sitemap.xml HTTP/1.1\r\nHost: example.com\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n',
  );
  const parts: Buffer[] = [];
  let since = 0;
  for await (const chunk of socket) {
    parts.push(chunk as Buffer);
    since += (chunk as Buffer).length;
    if (since >= stride) {
      since = 0;
      socket.pause();
      await sleep(pauseMs);
      socket.resume();
    }
  }
  const all = Buffer.concat(parts);
  const end = all.indexOf('\r\n\r\n');
  const head = all.subarray(0, end).toString('latin1');
  expect(head).toMatch(/^HTTP\/1\.1 200 /);
  expect(head).toMatch(/\r\ncontent-encoding: gzip/i);
  expect(head).toMatch(/\r\ntransfer-encoding: chunked/i);
  const body: Buffer[] = [];
  for (let at = end + 4; ; ) {
    const eol = all.indexOf('\r\n', at);
    const size = Number.parseInt(all.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) break;
    body.push(all.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
  return Buffer.concat(body);
}

/** The whole document, as the handler's web API gives it (no Node stream in the way). */
async function expected(): Promise<string> {
  const r = await handlerWith(N + 1)(new Request(`${BASE}sitemap.xml`));
  return r.text();
}

describe.each<Kind>(['fastify', 'express', 'node:http'])('the first request to a fresh %s app', (kind) => {
  it('gets the whole 50,000-URL child from a client that keeps stopping and a source that keeps waiting', async () => {
    const whole = await expected();
    expect(whole.match(/<url>/g)?.length).toBe(N);
    // Each case a fresh app: the first request generates, gzips and sends at once.
    for (const [every, stride, pauseMs] of [
      [1023, 64 * 1024, 25],
      [5000, 16 * 1024, 10],
      [97, 200 * 1024, 60],
    ] as const) {
      const app = await start(kind, handlerWith(every));
      try {
        const text = gunzipSync(await slowGet(app.port, stride, pauseMs)).toString('utf8');
        expect([every, text.match(/<url>/g)?.length]).toEqual([every, N]);
        expect(text === whole).toBe(true);
      } finally {
        await app.close();
      }
    }
  }, 120_000);

  it('gives each of four first requests at once the whole child', async () => {
    const whole = await expected();
    const app = await start(kind, handlerWith(1023));
    try {
      const texts = await Promise.all(
        [8, 16, 32, 64].map(async (k) => gunzipSync(await slowGet(app.port, k * 1024, 5)).toString('utf8')),
      );
      for (const t of texts) expect(t === whole).toBe(true);
    } finally {
      await app.close();
    }
  }, 120_000);
});

describe('the Node adapter writing to a socket that takes each write late', () => {
  it('sends the whole child while every stage waits on the one after it (no kernel buffer in between)', async () => {
    const whole = await expected();
    // A socket whose every write completes a few milliseconds later: the response, the gzip
    // stream and the generation are held back on every chunk, with no socket buffer to absorb it.
    const parts: Buffer[] = [];
    let writes = 0;
    const socket = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, done) {
        parts.push(Buffer.from(chunk));
        writes++;
        setTimeout(done, 2);
      },
      highWaterMark: 1024,
    });
    Object.assign(socket, { setTimeout: () => socket });
    socket.on('drain', () =>
      (socket as unknown as { _httpMessage?: ServerResponse })._httpMessage?.emit('drain'),
    );
    const req = new IncomingMessage(socket as never);
    req.method = 'GET';
    req.url = '/sitemap.xml';
    req.headers = { host: 'example.com', 'accept-encoding': 'gzip' };
    req.push(null);
    const res = new ServerResponse(req);
    res.assignSocket(socket as never);
    const finished = once(res, 'finish');
    toNodeListener(handlerWith(1023))(req, res);
    await finished;
    const all = Buffer.concat(parts);
    // An HTTP/1.0-style answer on this bare socket: the body runs to the end, not chunked.
    const end = all.indexOf('\r\n\r\n');
    expect(all.subarray(0, end).toString('latin1')).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    const body = all.subarray(end + 4);
    expect(writes).toBeGreaterThan(10);
    expect(gunzipSync(body).toString('utf8') === whole).toBe(true);
  }, 60_000);
});
