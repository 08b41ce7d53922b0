#!/usr/bin/env node
// Serving a 50,000-URL sitemap from SQLite inside an Express app: sitemapkit's handler against
// the route the npm `sitemap` package's README shows (SitemapStream piped through gzip, the
// gzipped buffer cached). Each server runs in its own process; the same clients drive all, gzip
// accepted, no conditional headers (so a 304 cannot win): the lean undici client (cold and warm)
// and wrk (warm; in C, in its own process, so the client does not set the pace). Cold: every
// request generates (a new version for the handler; no cached buffer for the README route).
// Warm: cached. Prints requests per second (median of RUNS), the ratio, the server's CPU per
// request (from /proc), the client's own CPU per request, and each server's peak RSS. Two more
// rows run the handler under node:http alone and in a Fastify app.
//   npm run build && node bench/handler.mjs [URLS] [RUNS]      (default 50,000; 3)
import { rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fmt, OUT } from './lib.mjs';
import { CONCURRENCY, measure, printResults } from './serve/drive.mjs';

const URLS = Number(process.argv[2] ?? 50_000);
const RUNS = Number(process.argv[3] ?? 3);

const dbPath = join(OUT, 'handler-bench.sqlite');
rmSync(dbPath, { force: true });
{
  const db = new Database(dbPath);
  db.exec('CREATE TABLE urls (id INTEGER PRIMARY KEY, loc TEXT NOT NULL, lastmod TEXT)');
  const insert = db.prepare('INSERT INTO urls (id, loc, lastmod) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= URLS; i++) {
      const day = new Date(Date.UTC(2024, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
      insert.run(i, `https://example.com/products/category-${i % 97}/item-${i}`, day);
    }
  })();
  db.close();
}

const SERVERS = {
  sitemapkit: { script: new URL('./serve/handler-server.mjs', import.meta.url).pathname, arg: dbPath },
  'sitemap (README route)': {
    script: new URL('./serve/sitemap-express.mjs', import.meta.url).pathname,
    arg: dbPath,
    // Its cached buffer is sent as it was made.
    recompresses: false,
  },
  // The handler without Express: what the framework costs.
  'sitemapkit, node:http': {
    script: new URL('./serve/handler-server.mjs', import.meta.url).pathname,
    arg: dbPath,
    env: { PLAIN: '1' },
  },
  'sitemapkit, Fastify': {
    script: new URL('./serve/handler-server.mjs', import.meta.url).pathname,
    arg: dbPath,
    env: { FASTIFY: '1' },
  },
};

const results = await measure(SERVERS, { urls: URLS, runs: RUNS });

console.log(
  `\nServing a ${fmt.n(URLS)}-URL sitemap from SQLite in Express, gzip, ${CONCURRENCY} connections, median of ${RUNS} (load average ${loadavg()[0].toFixed(1)} at the end)`,
);
printResults(results, SERVERS, 'sitemapkit', 'sitemapkit');
rmSync(dbPath, { force: true });
