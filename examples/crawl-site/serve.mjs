#!/usr/bin/env node
// Serves the sample site in ./public on 127.0.0.1, with the redirects of ./redirects.json and a
// 404 page for everything else, like a small web server would. Used by `npm run demo`; run it
// alone with `node examples/crawl-site/serve.mjs [PORT]` and crawl it yourself.
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.pdf': 'application/pdf',
  '.jpg': 'image/jpeg',
  '.xml': 'application/xml',
  '.xsl': 'text/xsl; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Starts the server; resolves to `{ url, close() }`. */
export async function serveSampleSite({ port = 0, root = join(here, 'public') } = {}) {
  const base = resolve(root);
  const redirects = JSON.parse(await readFile(join(here, 'redirects.json'), 'utf8'));
  const server = createServer(async (req, res) => {
    try {
      const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      const redirect = redirects[path];
      if (redirect !== undefined) {
        res.writeHead(redirect[1], { location: redirect[0] }).end();
        return;
      }
      let file = resolve(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) throw new Error('outside');
      if ((await stat(file).catch(() => undefined))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'last-modified': 'Mon, 03 Jun 2024 09:00:00 GMT',
      });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    }
  });
  await new Promise((ready) => server.listen(port, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    close: () => new Promise((done) => server.close(done)),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const site = await serveSampleSite({ port: Number(process.argv[2] ?? 8080) });
  console.log(`Serving the sample site at ${site.url} (Ctrl-C to stop)`);
  console.log(`Crawl it: npx sitemapkit crawl ${site.url} --out dist/ --public-origin https://www.example.com`);
}
