// The npm `sitemap` package's README route for Express: SitemapStream piped through gzip into the
// response, the gzipped buffer cached for later requests (`cache: false`: never cached). Entries
// from a SQLite table `urls (id, loc, lastmod)`. Shared by bench/serve/sitemap-express.mjs (its own
// server process) and bench/handler-floor.mjs (in-process requests).
import { createGzip } from 'node:zlib';
import express from 'express';
import { SitemapStream, streamToPromise } from 'sitemap';

export function sitemapApp(db, { cache = true } = {}) {
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
      if (cache)
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
  return app;
}
