// The crawl benchmark's web server, in its own process: serves a folder under a mount path
// (`node bench/crawl-server.mjs DIR /3/`), or a generated site of N pages (`--synthetic N`), on
// 127.0.0.1 with keep-alive; prints `PORT=n` when ready. Directories answer with index.html.
// For the recrawl benchmark: `GET /__stats` answers the body bytes sent and the 304s since the
// last `GET /__stats?reset`, and `GET /__validators?on|off` turns ETag and Last-Modified (from the
// file's size and mtime, or the synthetic page's number) and their 304s on or off (off at start).
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain',
  '.gz': 'application/gzip',
};
const args = process.argv.slice(2);

function syntheticPage(i, n) {
  // A tree of fan-out 10 (page i links to 10i+1 … 10i+10), plus home, parent and a fixed menu:
  // every page is reachable, the depth is about log10(n), and most links are already known.
  const links = [];
  for (let c = 10 * i + 1; c <= 10 * i + 10 && c < n; c++)
    links.push(`<a href="/s/${c}/page.html">Page ${c}</a>`);
  const menu = Array.from({ length: 20 }, (_, k) => `<a href="/s/${k}/page.html">Menu ${k}</a>`).join('');
  const parent = i === 0 ? '' : `<a href="/s/${Math.floor((i - 1) / 10)}/page.html">Up</a>`;
  return `<!doctype html><html><head><title>Synthetic page ${i}</title><meta name="description" content="Page ${i} of a generated site"></head><body><nav><a href="/">Home</a>${menu}</nav>${parent}<main><h1>Page ${i}</h1><p>${'Lorem ipsum dolor sit amet. '.repeat(40)}</p><ul>${links.map((l) => `<li>${l}</li>`).join('')}</ul></main></body></html>`;
}

const stats = { bytes: 0, notModified: 0, requests: 0 };
let validators = false;
/** Answers 200 with `body`, or 304 when the request's validators match (while they are on). */
function send(req, res, type, body, etag, mtime) {
  stats.requests++;
  if (validators) {
    const lastModified = mtime.toUTCString();
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    if (inm === etag || (inm === undefined && ims === lastModified)) {
      stats.notModified++;
      res.writeHead(304, { etag, 'last-modified': lastModified }).end();
      return;
    }
    res.setHeader('etag', etag);
    res.setHeader('last-modified', lastModified);
  }
  stats.bytes += body.length;
  res.writeHead(200, { 'content-type': type }).end(body);
}
function control(req, res) {
  const u = new URL(req.url ?? '/', 'http://x');
  if (u.pathname === '/__stats') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(stats));
    if (u.search === '?reset') Object.assign(stats, { bytes: 0, notModified: 0, requests: 0 });
    return true;
  }
  if (u.pathname === '/__validators') {
    validators = u.search === '?on';
    res.writeHead(204).end();
    return true;
  }
  return false;
}
const SYNTHETIC_MTIME = new Date('2024-01-01T00:00:00Z');

let handler;
if (args[0] === '--synthetic') {
  const n = Number(args[1]);
  handler = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const m = /^\/s\/(\d+)\/page\.html$/.exec(path);
    const i = path === '/' ? 0 : m ? Number(m[1]) : -1;
    if (i < 0 || i >= n) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      return;
    }
    send(req, res, 'text/html; charset=utf-8', syntheticPage(i, n), `"s${i}"`, SYNTHETIC_MTIME);
  };
} else {
  const root = resolve(args[0]);
  const mount = args[1] ?? '/';
  handler = async (req, res) => {
    try {
      let path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
      if (path === '/robots.txt') {
        res.writeHead(404).end();
        return;
      }
      if (!path.startsWith(mount)) throw new Error('outside the mount');
      path = path.slice(mount.length);
      let file = resolve(join(root, path));
      if (file !== root && !file.startsWith(root + sep)) throw new Error('outside');
      let info = await stat(file);
      if (info.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file);
      }
      const body = await readFile(file);
      const etag = `"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"`;
      send(req, res, TYPES[extname(file)] ?? 'application/octet-stream', body, etag, info.mtime);
    } catch {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
    }
  };
}
const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
  if (!control(req, res)) return handler(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(`PORT=${server.address().port}`));
