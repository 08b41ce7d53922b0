#!/usr/bin/env node
// What a warm answer costs inside an Express app, and how much of it is the handler's: the CPU of
// one warm request (a cached 360,889-byte gzip with its headers) with no socket and no client, so
// that a loaded machine moves it little. Real IncomingMessage and ServerResponse objects over a
// socket that takes every write at once; each contender in a process of its own (so that no
// other's objects reach the same code), the processes in turn, medians of the rounds:
//   - bare: a listener that only does res.writeHead(200, headers) and res.end(bytes), the least
//     any answer of these bytes can cost, under node:http and as Express middleware;
//   - sitemapkit: the handler over the bench's SQLite table (bench/handler.mjs), the same two ways;
//   - the npm `sitemap` README route in Express, its cached buffer (res.send).
// Prints microseconds of CPU a request. Inside Express the difference between bare and the
// handler is what the handler can still win; the rest is Express and Node's http code.
//   npm run build && node bench/handler-floor.mjs [ROUNDS]      (default 5)
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import Database from 'better-sqlite3';
import { fmt, OUT, table } from './lib.mjs';

const REQUESTS = 4000;
const CONTENDERS = [
  'bare, node:http',
  'sitemapkit, node:http',
  'bare, Express',
  'sitemapkit, Express',
  'sitemap README route, Express',
];
const dbPath = join(OUT, 'handler-floor.sqlite');

/** One warm request: the app's CPU from the request's arrival to its response's 'finish'. */
function requester(app) {
  let written = 0;
  const socket = new Duplex({
    read() {},
    write(chunk, _encoding, done) {
      written += chunk.length;
      done();
    },
  });
  socket.setTimeout = () => socket;
  socket.on('drain', () => socket._httpMessage?.emit('drain'));
  const one = () =>
    new Promise((resolve) => {
      const req = new IncomingMessage(socket);
      req.method = 'GET';
      req.url = '/sitemap.xml';
      req.httpVersionMajor = 1;
      req.httpVersionMinor = 1;
      req.headers = { host: 'example.com', 'accept-encoding': 'gzip' };
      req.push(null);
      const res = new ServerResponse(req);
      res.assignSocket(socket);
      res.on('finish', () => {
        res.detachSocket(socket);
        resolve();
      });
      app(req, res);
    });
  return { one, written: () => written };
}

async function contender(name) {
  const express = (await import('express')).default;
  const db = new Database(dbPath, { readonly: true });
  if (name.startsWith('sitemapkit')) {
    const { createNodeSitemapHandler, toNodeListener } = await import('sitemapkit/handler/node');
    const count = db.prepare('SELECT count(*) AS n FROM urls');
    const rows = db.prepare('SELECT id, loc, lastmod FROM urls WHERE id > ? ORDER BY id LIMIT ?');
    const handler = createNodeSitemapHandler({
      baseUrl: 'https://example.com/',
      source: {
        count: () => count.get().n,
        async *page(index, size) {
          const batch = rows.all(index * size, size);
          for (const r of batch) yield { loc: r.loc, lastmod: r.lastmod };
        },
      },
    });
    if (name.endsWith('node:http')) return toNodeListener(handler);
    const app = express();
    app.use(toNodeListener(handler));
    return app;
  }
  if (name.startsWith('bare')) {
    const bytes = new Uint8Array(360_889);
    const headers = Object.freeze({
      'content-type': 'application/xml; charset=utf-8',
      'cache-control': 'public, max-age=3600',
      vary: 'Accept-Encoding',
      etag: 'W/"1q3htcif3cd3t"',
      'last-modified': new Date().toUTCString(),
      'x-content-type-options': 'nosniff',
      'content-encoding': 'gzip',
      'content-length': String(bytes.byteLength),
    });
    const bare = (_req, res) => {
      res.writeHead(200, headers);
      res.end(bytes);
    };
    return name.endsWith('node:http') ? bare : express().use(bare);
  }
  const { sitemapApp } = await import('./serve/sitemap-route.mjs');
  return sitemapApp(db);
}

if (process.argv[2] === '--child') {
  const { one, written } = requester(await contender(process.argv[3]));
  // Generated, cached, asked for again (the handler recompresses its gzip once), then warm.
  for (let i = 0; i < 3; i++) await one();
  await new Promise((r) => setTimeout(r, 1500));
  for (let i = 0; i < 1000; i++) await one();
  const before = written();
  const t = process.cpuUsage();
  for (let i = 0; i < REQUESTS; i++) await one();
  const cpu = process.cpuUsage(t);
  process.stdout.write(
    `${JSON.stringify({ us: (cpu.user + cpu.system) / REQUESTS, bytes: (written() - before) / REQUESTS })}\n`,
  );
  process.exit(0);
}

const ROUNDS = Number(process.argv[2] ?? 5);
rmSync(dbPath, { force: true });
{
  const db = new Database(dbPath);
  db.exec('CREATE TABLE urls (id INTEGER PRIMARY KEY, loc TEXT NOT NULL, lastmod TEXT)');
  const insert = db.prepare('INSERT INTO urls (id, loc, lastmod) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= 50_000; i++) {
      const day = new Date(Date.UTC(2024, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
      insert.run(i, `https://example.com/products/category-${i % 97}/item-${i}`, day);
    }
  })();
  db.close();
}
const results = Object.fromEntries(CONTENDERS.map((c) => [c, []]));
const bytes = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const name of CONTENDERS) {
    const child = spawn(process.execPath, [new URL(import.meta.url).pathname, '--child', name], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    const [code] = await once(child, 'close');
    if (code !== 0) throw new Error(`${name} exited with ${code}`);
    const r = JSON.parse(out);
    results[name].push(r.us);
    bytes[name] = r.bytes;
  }
}
rmSync(dbPath, { force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = Object.fromEntries(CONTENDERS.map((c) => [c, median(results[c])]));
console.log(
  `\nCPU of one warm request, no socket (median of ${ROUNDS} processes each, ${fmt.n(REQUESTS)} requests; load average ${loadavg()[0].toFixed(1)} at the end)`,
);
table(
  CONTENDERS.map((c) => ({
    contender: c,
    'µs a request': m[c].toFixed(1),
    runs: results[c].map((x) => x.toFixed(1)).join(' '),
    'over bare': c.startsWith('sitemapkit')
      ? `+${(m[c] - m[c.endsWith('Express') ? 'bare, Express' : 'bare, node:http']).toFixed(1)} µs`
      : '',
    'bytes a request': fmt.n(Math.round(bytes[c])),
  })),
  ['contender', 'µs a request', 'runs', 'over bare', 'bytes a request'],
);
console.log(
  `Express's own cost (bare in Express over bare under node:http): ${(m['bare, Express'] - m['bare, node:http']).toFixed(1)} µs a request`,
);
