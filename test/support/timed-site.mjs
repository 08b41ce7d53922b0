/**
 * The politeness test's web server, in its own process so that the test process's own work never
 * delays (and bunches) the arrivals it stamps: `node timed-site.mjs N` serves the site of
 * test/crawler/postgres-helpers.ts's `siteRoutes(N)` pages (`/`, `/p/1` … with the same links)
 * and a robots.txt, notes the time each request arrives (ms since the epoch), and answers
 * `GET /__arrivals` with them as JSON (that request not counted). Prints `PORT=n` when ready.
 *
 * An arrival is `{ at, after }`: `at` when this process read the request, `after` the last time
 * before it that this process was seen running (a 1 ms timer's last tick). On a loaded machine the
 * process can be off the CPU for hundreds of milliseconds, and requests that reached the kernel
 * far apart are read together when it runs again: such a request arrived somewhere in `[after,
 * at]`, and the test judges the spacing with that uncertainty instead of the bunched stamps.
 *
 * `node timed-site.mjs app` serves instead a page whose script asks `/api/1` … `/api/6` at once
 * and links the pages `/p/1` … `/p/6` they name: the rendering crawl's politeness test.
 */
import { createServer } from 'node:http';

const app = process.argv[2] === 'app';
const n = app ? 0 : Number(process.argv[2] ?? 30);
const arrivals = [];
const path = (i) => (i === 0 ? '/' : `/p/${i}`);
const pages = new Map();
if (app) {
  const script = `Promise.all([1, 2, 3, 4, 5, 6].map((i) => fetch('/api/' + i).then((r) => r.text()))).then((paths) => {
    for (const p of paths) { const a = document.createElement('a'); a.href = p; a.textContent = p; document.body.append(a); }
  });`;
  pages.set(
    '/',
    `<!doctype html><html><head><title>App</title></head><body><script>${script}</script></body></html>`,
  );
  for (let i = 1; i <= 6; i++) {
    pages.set(`/api/${i}`, `/p/${i}`);
    pages.set(
      `/p/${i}`,
      `<!doctype html><html><head><title>Page ${i}</title></head><body><a href="/">home</a></body></html>`,
    );
  }
}
for (let i = 0; i < n; i++) {
  const links = [0, (i * 7 + 1) % n, (i * 13 + 5) % n, (i + 1) % n].map(
    (j) => `<a href="${path(j)}">${j}</a>`,
  );
  if (i % 10 === 3) links.push('<a href="/private/x">p</a>', `<a href="/missing/${i}">m</a>`);
  const head = i % 17 === 5 ? '<meta name="robots" content="noindex">' : '';
  pages.set(
    path(i),
    `<!doctype html><html><head><title>Page ${i}</title>${head}</head><body>${links.join(' ')}</body></html>`,
  );
}
let lastTick = performance.timeOrigin + performance.now();
setInterval(() => {
  lastTick = performance.timeOrigin + performance.now();
}, 1).unref();
const server = createServer((req, res) => {
  if (req.url === '/__arrivals') {
    res.end(JSON.stringify(arrivals));
    return;
  }
  arrivals.push({ at: performance.timeOrigin + performance.now(), after: lastTick });
  if (req.url === '/robots.txt') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('User-agent: *\nDisallow: /private/\n');
    return;
  }
  const page = pages.get(req.url ?? '');
  if (page === undefined) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
    return;
  }
  const api = req.url?.startsWith('/api/');
  res.writeHead(200, { 'content-type': api ? 'text/plain' : 'text/html; charset=utf-8' });
  res.end(page);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`PORT=${server.address().port}\n`));
process.on('SIGTERM', () => process.exit(0));
