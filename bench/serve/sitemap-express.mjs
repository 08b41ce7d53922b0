// The npm `sitemap` package's README route: SitemapStream piped through gzip into the response,
// the gzipped buffer cached for later requests (COLD=1: never cached). Entries from the same
// SQLite table. Prints the port, and exits when stdin ends.
import { createServer } from 'node:http';
import { createGzip } from 'node:zlib';
import Database from 'better-sqlite3';
import express from 'express';
import { SitemapStream, streamToPromise } from 'sitemap';

const [dbPath] = process.argv.slice(2);
const db = new Database(dbPath, { readonly: true });
const all = db.prepare('SELECT loc, lastmod FROM urls ORDER BY id');
const app = express();
let sitemap;

app.get('/sitemap.xml', (_req, res) => {
  res.header('Content-Type', 'application/xml');
  res.header('Content-Encoding', 'gzip');
  // if we have a cached entry send it
  if (sitemap) {
    res.send(sitemap);
    return;
  }
  try {
    const smStream = new SitemapStream({ hostname: 'https://example.com/' });
    const pipeline = smStream.pipe(createGzip());
    // pipe your entries or directly write them.
    for (const r of all.iterate()) smStream.write({ url: r.loc, lastmod: r.lastmod });
    smStream.end();
    // cache the response
    if (process.env.COLD !== '1')
      streamToPromise(pipeline).then((sm) => {
        sitemap = sm;
      });
    // stream write the response
    pipeline.pipe(res).on('error', (e) => {
      throw e;
    });
  } catch (e) {
    console.error(e);
    res.status(500).end();
  }
});
const server = createServer(app).listen(0, '127.0.0.1', () => {
  process.stdout.write(`${server.address().port}\n`);
});
process.stdin.on('end', () => server.close(() => process.exit(0)));
process.stdin.resume();
