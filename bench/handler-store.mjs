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
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { openStore } from 'sitemapkit/store';
import { Pool } from 'undici';
import { fmt, OUT, table } from './lib.mjs';

const URLS = Number(process.argv[2] ?? 50_000);
const RUNS = Number(process.argv[3] ?? 3);
const WARM_SECONDS = 3;
const COLD_REQUESTS = 12;
const CONCURRENCY = 4;
// Clock ticks per second of /proc/PID/stat (USER_HZ, 100 on Linux).
const TICKS = 100;

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

async function startServer({ script, arg, env = {} }, cold) {
  const child = spawn(
    process.execPath,
    ['--import', new URL('./rss-hook.mjs', import.meta.url).href, script, arg],
    { env: { ...process.env, ...env, COLD: cold ? '1' : '0' }, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const [line] = await once(child.stdout, 'data');
  const port = Number(String(line).trim());
  return {
    origin: `http://127.0.0.1:${port}`,
    /** CPU seconds the server has used (user + system), from /proc: what a request costs the server alone. */
    cpu() {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return (Number(fields[11]) + Number(fields[12])) / TICKS;
    },
    async stop() {
      child.stdin.end();
      await once(child, 'close');
      const m = /SK_MAXRSS=(\d+)/.exec(stderr);
      return m ? Number(m[1]) / 1024 : Number.NaN;
    },
  };
}

// undici's dispatcher with a handler that only counts the body (keeps it when asked): the client
// costs as little as it can, so that the figures are the servers'.
function fetchOnce(pool, keep = false) {
  return new Promise((resolve, reject) => {
    let status = 0;
    let encoding = '';
    const chunks = [];
    pool.dispatch(
      { path: '/sitemap.xml', method: 'GET', headers: { 'accept-encoding': 'gzip' } },
      {
        onConnect() {},
        onHeaders(code, raw) {
          status = code;
          for (let i = 0; i + 1 < raw.length; i += 2)
            if (String(raw[i]).toLowerCase() === 'content-encoding') encoding = String(raw[i + 1]);
          return true;
        },
        onData(chunk) {
          if (keep) chunks.push(chunk);
          return true;
        },
        onComplete() {
          if (status !== 200 || encoding !== 'gzip')
            reject(new Error(`unexpected answer ${status} ${encoding}`));
          else resolve(Buffer.concat(chunks));
        },
        onError: reject,
      },
    );
  });
}

async function load(pool, server, { seconds, requests }) {
  let done = 0;
  const cpu0 = server.cpu();
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  const worker = async () => {
    while (requests !== undefined ? done < requests : performance.now() < until) {
      done++;
      await fetchOnce(pool);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { rps: done / ((performance.now() - t0) / 1000), cpuMs: ((server.cpu() - cpu0) * 1000) / done };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {};
for (let run = 0; run < RUNS; run++) {
  for (const [who, spec] of Object.entries(SERVERS)) {
    for (const mode of ['cold', 'warm']) {
      const server = await startServer(spec, mode === 'cold');
      const pool = new Pool(server.origin, { connections: CONCURRENCY });
      const first = await fetchOnce(pool, true);
      const urls = gunzipSync(first).toString().match(/<url>/g)?.length;
      if (urls !== URLS) throw new Error(`${who} served ${urls} URLs, not ${URLS}`);
      const { rps, cpuMs } =
        mode === 'warm'
          ? await load(pool, server, { seconds: WARM_SECONDS })
          : await load(pool, server, { requests: COLD_REQUESTS });
      await pool.close();
      const rss = await server.stop();
      results[`${who}|${mode}`] ??= { rps: [], cpu: [], rss: [], bytes: first.length };
      const r = results[`${who}|${mode}`];
      r.rps.push(rps);
      r.cpu.push(cpuMs);
      r.rss.push(rss);
    }
  }
}

console.log(
  `\nServing a ${fmt.n(URLS)}-URL sitemap from a site store vs a plain SQLite table, in Express, gzip, ${CONCURRENCY} connections, median of ${RUNS}`,
);
const rows = [];
for (const mode of ['cold', 'warm']) {
  const ours = median(results[`sitemapkit, storeSource|${mode}`].rps);
  const oursCpu = median(results[`sitemapkit, storeSource|${mode}`].cpu);
  for (const who of Object.keys(SERVERS)) {
    const r = results[`${who}|${mode}`];
    rows.push({
      mode,
      server: who,
      'req/s': median(r.rps).toFixed(1),
      'storeSource ×': (ours / median(r.rps)).toFixed(2),
      'server CPU ms/req': median(r.cpu).toFixed(3),
      'CPU ÷ storeSource': (median(r.cpu) / oursCpu).toFixed(2),
      'gzip bytes': fmt.n(r.bytes),
      'peak RSS MiB': fmt.mb(median(r.rss)),
    });
  }
}
table(rows, [
  'mode',
  'server',
  'req/s',
  'storeSource ×',
  'server CPU ms/req',
  'CPU ÷ storeSource',
  'gzip bytes',
  'peak RSS MiB',
]);
for (const p of [dbPath, storePath, `${storePath}-wal`, `${storePath}-shm`]) rmSync(p, { force: true });
