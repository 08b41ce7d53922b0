#!/usr/bin/env node
// --from-log benchmark (issue 12): a generated 1 GB combined access log (pages, assets, bots, 404s,
// POSTs, 304s, query strings with tracking parameters; written once into bench/out/) into
// sitemaps through `sitemapkit generate --from-log`, plain and gzip, against a floor in the same
// run: a bare script that splits the same lines and takes each path with no checks
// (bench/peers/bare-log.mjs). Prints medians of --runs, MB/s, lines/s, the ratio to the floor and
// peak RSS. Usage: node bench/logs.mjs [--mb N] [--runs N] [--quick]
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { benchFlags, fmt, OUT, ROOT, requireBuild, runNode, table } from './lib.mjs';

const flags = benchFlags({ mb: { value: 1024, quick: 20 }, runs: 3 });
const MB = flags.mb;
const RUNS = flags.runs;
const BIN = requireBuild();

/** A deterministic generator (mulberry32), so every machine benches the same log. */
function rng(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0 \\"quoted\\"',
];
const ASSETS = [
  '/static/app.3f9a1c.css',
  '/static/app.81bd2e.js',
  '/img/logo.svg',
  '/favicon.ico',
  '/fonts/inter.woff2',
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** Distinct page URLs the log visits (about). */
const PAGES = 400_000;

function page(r) {
  const n = Math.floor(r() ** 2 * PAGES); // a few pages are popular
  const kind = n % 4;
  if (kind === 0) return `/products/item-${n}`;
  if (kind === 1) return `/blog/2024/post-${n}?utm_source=newsletter&utm_medium=email`;
  if (kind === 2) return `/category/shoes?page=${n % 500}&sort=price`;
  return `/docs/guide/section-${n}/`;
}

async function makeLog(mb) {
  const path = join(OUT, `access-${mb}mb.log`);
  if (existsSync(path)) return path;
  const r = rng(12);
  const ws = createWriteStream(`${path}.tmp`);
  let bytes = 0;
  let buf = '';
  let t = Date.UTC(2026, 10, 1);
  while (bytes < mb * 1048576) {
    t += Math.floor(r() * 40);
    const d = new Date(t);
    const time = `${String(d.getUTCDate()).padStart(2, '0')}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${d.toISOString().slice(11, 19)} +0000`;
    const x = r();
    const ip =
      x < 0.1
        ? `2001:db8::${Math.floor(r() * 65535).toString(16)}`
        : `203.0.${Math.floor(r() * 255)}.${Math.floor(r() * 255)}`;
    let method = 'GET';
    let path = page(r);
    let status = 200;
    if (x < 0.4) path = ASSETS[Math.floor(r() * ASSETS.length)];
    else if (x < 0.48) {
      path = `/wp-login.php?x=${Math.floor(r() * 1e6)}`;
      status = 404;
    } else if (x < 0.53) {
      method = 'POST';
      path = '/cart/add';
      status = 302;
    } else if (x < 0.6) status = 304;
    const line = `${ip} - - [${time}] "${method} ${path} HTTP/1.1" ${status} ${status === 304 ? '-' : Math.floor(r() * 50000)} "https://example.com/" "${AGENTS[Math.floor(r() * AGENTS.length)]}"\n`;
    buf += line;
    bytes += line.length;
    if (buf.length > 1 << 20) {
      if (!ws.write(buf)) await new Promise((ok) => ws.once('drain', ok));
      buf = '';
    }
  }
  ws.end(buf);
  await new Promise((ok) => ws.on('close', ok));
  renameSync(`${path}.tmp`, path);
  return path;
}

async function gzipOf(path) {
  const gz = `${path}.gz`;
  if (existsSync(gz)) return gz;
  await pipeline(createReadStream(path), createGzip({ level: 1 }), createWriteStream(`${gz}.tmp`));
  renameSync(`${gz}.tmp`, gz);
  return gz;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const plain = await makeLog(MB);
const gz = await gzipOf(plain);
const size = statSync(plain).size;
const lines = Number((await runNode([join(ROOT, 'bench/peers/bare-log.mjs'), plain])).stdout.split(' ')[0]);
const out = join(OUT, 'logs-out');
const contenders = [
  {
    name: 'sitemapkit --from-log',
    input: plain,
    args: (f) => [
      BIN,
      'generate',
      '--from-log',
      f,
      '--site',
      'https://example.com/',
      '--base-url',
      'https://example.com/',
      '--out',
      out,
    ],
  },
  {
    name: 'floor (split, no checks)',
    input: plain,
    args: (f) => [join(ROOT, 'bench/peers/bare-log.mjs'), f],
  },
  {
    name: 'sitemapkit --from-log',
    input: gz,
    args: (f) => [
      BIN,
      'generate',
      '--from-log',
      f,
      '--site',
      'https://example.com/',
      '--base-url',
      'https://example.com/',
      '--out',
      out,
    ],
  },
  { name: 'floor (split, no checks)', input: gz, args: (f) => [join(ROOT, 'bench/peers/bare-log.mjs'), f] },
];
const results = contenders.map(() => ({ secs: [], rss: [] }));
let summary = '';
// Contenders interleaved run by run, so that a busy moment on the machine hits everyone alike.
for (let run = 0; run < RUNS; run++) {
  for (let i = 0; i < contenders.length; i++) {
    const c = contenders[i];
    rmSync(out, { recursive: true, force: true });
    const r = await runNode(c.args(c.input));
    if (r.code !== 0) throw new Error(`${c.name} failed (${r.code}): ${r.stderr}`);
    if (c.name.startsWith('sitemapkit')) summary = r.stdout.trim();
    results[i].secs.push(r.secs);
    results[i].rss.push(r.rssMiB);
  }
}
rmSync(out, { recursive: true, force: true });
const rows = contenders.map((c, i) => {
  const secs = median(results[i].secs);
  const floor = median(results[i % 2 === 0 ? i + 1 : i].secs);
  return {
    input: c.input === gz ? `gzip (${fmt.mb(statSync(gz).size / 1048576)} MiB)` : 'plain',
    contender: c.name,
    seconds: fmt.s(secs),
    'MB/s': (size / 1e6 / secs).toFixed(1),
    'lines/s': fmt.n(lines / secs),
    'x floor time': `${(secs / floor).toFixed(2)}x`,
    'peak RSS MiB': fmt.mb(Math.max(...results[i].rss)),
  };
});
console.log(
  `\n--from-log: ${fmt.n(size / 1048576)} MiB combined log, ${fmt.n(lines)} lines, median of ${RUNS} (Node ${process.version})\n`,
);
table(rows, ['input', 'contender', 'seconds', 'MB/s', 'lines/s', 'x floor time', 'peak RSS MiB']);
console.log(`\nsitemapkit's own summary (last run):\n${summary}`);
