// sitemapkit's handler in an Express app (PLAIN=1: node:http alone; FASTIFY=1: a Fastify app), over a SQLite table through a
// paged source (keyset reads of 5,000 rows). COLD=1 gives every request a new version (generated
// each time).
// Prints the port, and exits when stdin ends.
import { createServer } from 'node:http';
import Database from 'better-sqlite3';
import express from 'express';
import Fastify from 'fastify';
import { addFastifyRoutes, createNodeSitemapHandler, toNodeListener } from 'sitemapkit/handler/node';

const [dbPath] = process.argv.slice(2);
const db = new Database(dbPath, { readonly: true });
const count = db.prepare('SELECT count(*) AS n FROM urls');
const rows = db.prepare('SELECT id, loc, lastmod FROM urls WHERE id > ? ORDER BY id LIMIT ?');
let version = 0;
const handler = createNodeSitemapHandler({
  baseUrl: 'https://example.com/',
  version: () => (process.env.COLD === '1' ? ++version : version),
  source: {
    count: () => count.get().n,
    async *page(index, size) {
      // ids are 1..n without gaps here, so page N starts after id N × size.
      let after = index * size;
      const end = after + size;
      while (after < end) {
        const batch = rows.all(after, Math.min(5000, end - after));
        if (batch.length === 0) return;
        for (const r of batch) yield { loc: r.loc, lastmod: r.lastmod };
        after = batch[batch.length - 1].id;
      }
    },
  },
});
if (process.env.FASTIFY === '1') {
  const app = Fastify();
  addFastifyRoutes(app, handler);
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${app.server.address().port}\n`);
  process.stdin.on('end', () => app.close().then(() => process.exit(0)));
  process.stdin.resume();
} else {
  const app = express();
  app.use(toNodeListener(handler));
  const server = createServer(process.env.PLAIN === '1' ? toNodeListener(handler) : app).listen(
    0,
    '127.0.0.1',
    () => {
      process.stdout.write(`${server.address().port}\n`);
    },
  );
  process.stdin.on('end', () => server.close(() => process.exit(0)));
  process.stdin.resume();
}
