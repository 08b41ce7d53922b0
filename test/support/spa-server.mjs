/**
 * Serves the bundled single-page application of test/fixtures/spa (its README says what is in it)
 * on 127.0.0.1: the shell for every path without an extension, the JSON API, the static docs pages,
 * robots.txt, and on request a page that hangs the renderer (`/hang`: a script that never yields)
 * and one that crashes it (`/crash`: a script that allocates until the renderer's heap is gone; run
 * Chromium with a small heap, `--js-flags=--max-old-space-size=64`). Plain JavaScript, so that the
 * bench (bench/render.mjs) serves the same application scaled up (`products`), and people by hand: `node test/support/spa-server.mjs 8080`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../fixtures/spa/', import.meta.url);
const read = (path) => readFileSync(new URL(path, ROOT));

// Each first tells the server it ran (/api/ping/NAME): the tests count the attempts.
const HANG =
  '<!doctype html><title>Hang</title><p>Stuck.</p><script>fetch("/api/ping/hang").then(() => { for (;;) {} });</script>';
const CRASH =
  '<!doctype html><title>Crash</title><p>Out of memory.</p><script>fetch("/api/ping/crash").then(() => { const keep = []; for (;;) keep.push(new Array(1e7).fill(1.5)); });</script>';

function docsPage(n, docs) {
  const links = [];
  for (let i = 1; i <= docs; i++)
    if (i !== n) links.push(`<li><a href="/docs/${i}.html">Chapter ${i}</a></li>`);
  const text = 'This chapter explains one part of the shop in plain words, with examples and notes. '.repeat(
    8,
  );
  // A script, as on most documentation sites (a search box): `render: 'auto'` samples such pages.
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Chapter ${n}</title><script>document.documentElement.dataset.js = 'on';</script></head><body><h1>Chapter ${n}</h1><p>${text}</p><ul>${links.join('')}</ul><p><a href="/">Shop</a></p></body></html>`;
}

/**
 * Starts the server. `products`: products the API lists (each a page); `docs`: static pages;
 * `onPath` sees every request's path first (returning false leaves it unanswered); `extra` answers
 * more paths, each with its content type and body (a published sitemap, for the audit).
 * Resolves with its origin, a log of request paths, and close().
 */
export async function startSpaServer({
  products = 3,
  docs = 6,
  delayApiMs = 0,
  onPath,
  port = 0,
  extra = {},
} = {}) {
  const shell = read('index.html');
  const assets = { '/assets/app.js': read('assets/app.js'), '/assets/lazy.js': read('assets/lazy.js') };
  const list = JSON.stringify(
    Array.from({ length: products }, (_, i) => ({ id: i + 1, name: `Product ${i + 1}` })),
  );
  const paths = [];
  const send = (res, status, type, body) => {
    res.writeHead(status, { 'content-type': type, 'cache-control': 'max-age=60' }).end(body);
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    paths.push(path);
    // A test's hook; `false` leaves the request unanswered (a server that hangs).
    if (onPath?.(path) === false) return;
    if (Object.hasOwn(extra, path)) return send(res, 200, extra[path].type, extra[path].body);
    if (path === '/robots.txt')
      return send(res, 200, 'text/plain', 'User-agent: *\nDisallow: /api/private/\n');
    if (assets[path] !== undefined) return send(res, 200, 'text/javascript; charset=utf-8', assets[path]);
    if (path === '/api/products.json') {
      const answer = () => send(res, 200, 'application/json', list);
      if (delayApiMs > 0) setTimeout(answer, delayApiMs);
      else answer();
      return;
    }
    if (path.startsWith('/api/ping/')) {
      // Counted: never from a cache.
      return res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end('{}');
    }
    if (path.startsWith('/api/')) return send(res, 200, 'application/json', '{}');
    if (path === '/hang') return send(res, 200, 'text/html; charset=utf-8', HANG);
    if (path === '/crash') return send(res, 200, 'text/html; charset=utf-8', CRASH);
    const doc = /^\/docs\/(\d+)\.html$/.exec(path);
    if (doc !== null && Number(doc[1]) >= 1 && Number(doc[1]) <= docs) {
      return send(res, 200, 'text/html; charset=utf-8', docsPage(Number(doc[1]), docs));
    }
    if (path.startsWith('/img/'))
      return send(res, 200, 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>');
    if (path.startsWith('/fonts/')) return send(res, 200, 'font/woff2', '');
    if (!path.slice(path.lastIndexOf('/')).includes('.'))
      return send(res, 200, 'text/html; charset=utf-8', shell);
    return send(res, 404, 'text/plain', 'not found');
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${server.address().port}`,
    paths,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `node test/support/spa-server.mjs [PORT]` serves the application until Ctrl-C (docs/crawl.md).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = await startSpaServer({ port: Number(process.argv[2] ?? 8080) });
  process.stdout.write(`the bundled single-page application: ${s.origin}/\n`);
}
