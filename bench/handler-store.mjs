#!/usr/bin/env node
// Serving a 50,000-URL sitemap from a site store inside an Express app: the handler over
// storeSource (the store opened read-only: a connection per read, the store's own file and
// entries) against the same handler over a paged source on a plain SQLite table of the same URLs
// (bench/serve/handler-server.mjs, the route docs/serving.md shows first). Each server runs in its
// own process; one undici client drives both, gzip accepted, no conditional headers. Cold: every
// request generates (the store server with the cache off; the table server with a new version a
// request). Warm: cached. Prints requests per second (median of RUNS), the ratio, the server's CPU
// per request (from /proc), and each server's peak RSS.
//   npm run build && node bench/handler-store.mjs [URLS] [RUNS]      (default 50,000; 3)
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openStore } from 'sitemapkit/store';
import { fmt, OUT } from './lib.mjs';
import { CONCURRENCY, measure, printResults } from './serve/drive.mjs';

const URLS = Number(process.argv[2] ?? 50_000);
const RUNS = Number(process.argv[3] ?? 3);

const url = (i) => `https://example.com/products/category-${i % 97}/item-${i}`;
const day = (i) => new Date(Date.UTC(2024, 0, 1) + (i % 700) * 86_400_000).toISOString().slice(0, 10);
const dbPath = join(OUT, 'handler-store-bench.sqlite');
const storePath = join(OUT, 'handler-store-bench.store');
for (const p of [dbPath, storePath, `${storePath}-wal`, `${storePath}-shm`]) rmSync(p, { force: true });
{
  const db = new Database(dbPath);
  db.exec('CREATE TABLE urls (id INTEGER PRIMARY KEY, loc TEXT NOT NULL, lastmod TEXT)');
  const insert = db.prepare('INSERT INTO urls (id, loc, lastmod) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let i = 1; i <= URLS; i++) insert.run(i, url(i), day(i));
  })();
  db.close();
  const store = await openStore(storePath, { baseUrl: 'https://example.com/' });
  await store.add(
    (function* () {
      for (let i = 1; i <= URLS; i++) yield { loc: url(i), lastmod: day(i) };
    })(),
  );
  await store.close();
}

const SERVERS = {
  'sitemapkit, storeSource': {
    script: new URL('./serve/store-server.mjs', import.meta.url).pathname,
    arg: storePath,
  },
  'sitemapkit, paged SQLite table': {
    script: new URL('./serve/handler-server.mjs', import.meta.url).pathname,
    arg: dbPath,
  },
};

const results = await measure(SERVERS, { urls: URLS, runs: RUNS });

console.log(
  `\nServing a ${fmt.n(URLS)}-URL sitemap from a site store vs a plain SQLite table, in Express, gzip, ${CONCURRENCY} connections, median of ${RUNS}`,
);
printResults(results, SERVERS, 'sitemapkit, storeSource', 'storeSource');
for (const p of [dbPath, storePath, `${storePath}-wal`, `${storePath}-shm`]) rmSync(p, { force: true });
