// The npm `sitemap` package's README route (bench/serve/sitemap-route.mjs) in its own server
// process (COLD=1: never cached). Entries from the SQLite file given. Prints the port, and exits
// when stdin ends.
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import { sitemapApp } from './sitemap-route.mjs';

const [dbPath] = process.argv.slice(2);
const db = new Database(dbPath, { readonly: true });
const server = createServer(sitemapApp(db, { cache: process.env.COLD !== '1' })).listen(
  0,
  '127.0.0.1',
  () => {
    process.stdout.write(`${server.address().port}\n`);
  },
);
process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
