#!/usr/bin/env node
// Tree benchmark (issue 16, item 4): a 1,000,000-URL tree, an index of twenty 50,000-URL gzip
// children (one image each, as bench/parse.mjs's file), on disk and served from there over
// loopback by this process (a tree's children are always URLs). Contenders, each in its own
// process and interleaved run by run: what a user runs, `sitemapkit parse URL --format jsonl >
// /dev/null`, with one thread (--threads 0: every child parsed on the main thread) and with parse
// workers (--threads N; by default two contenders, cores - 1 workers, the calling thread reading
// its share of the children, and as many workers as cores), concurrency 4 for all; with --library, the
// library instead (parseSitemapTree, JSON.stringify of each entry: bench/parse-peers/
// sitemapkit-tree.mjs). First, one run of each contender into a file: the same lines, byte for
// byte, or the bench stops. A last contender, the ceiling, is two one-thread processes at once,
// each on half of the children: what two cores give this work split with no cost at all. Prints the medians of --runs of wall seconds, CPU seconds (all
// threads, and the main thread's), the speed-up over one thread, and peak RSS (worst run), with
// the load average before and after; then each kind of thread's CPU, idle time and waits for a CPU
// (the main thread, the parse workers, the rest: bench/main-cpu-hook.mjs).
// Usage: node bench/parse-tree.mjs [--urls N] [--files N] [--runs N] [--threads N] [--baseline DIST] [--library] [--quick]
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  existsSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { benchFlags, benchUrlset, fmt, load, median, OUT, ROOT, runNode, table } from './lib.mjs';

const flags = benchFlags({
  urls: { value: 50_000, quick: 2000 },
  files: { value: 20, quick: 3 },
  runs: 3,
  threads: { value: 0, quick: 0 },
  // Another build's dist/ (absolute path), run with one thread and with the same workers: the
  // reading before a change.
  baseline: null,
  library: false,
});
const N = flags.urls;
const FILES = flags.files;
const DIR = join(OUT, `tree-${N}x${FILES}`);
mkdirSync(DIR, { recursive: true });

// The children on disk, served as they are; a file's URLs are written for the port of this run
// (inside their sitemap's location, so that no cross-submit check is made), hence written per run.
const server = createServer((req, res) => {
  const path = join(DIR, (req.url ?? '/').slice(1));
  if (!/^\/[\w.-]+$/.test(req.url ?? '') || !existsSync(path)) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': path.endsWith('.gz') ? 'application/gzip' : 'application/xml' });
  createReadStream(path).pipe(res);
});
// Idle keep-alive sockets are never closed under a request a loaded machine was slow to send.
server.keepAliveTimeout = 120_000;
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

function child(n) {
  return gzipSync(benchUrlset(n, origin));
}
const gz = child(N);
for (let i = 0; i < FILES; i++) writeFileSync(join(DIR, `sitemap-${i}.xml.gz`), gz);
writeFileSync(
  join(DIR, 'index.xml'),
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from({ length: FILES }, (_, i) => `  <sitemap><loc>${origin}/sitemap-${i}.xml.gz</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`,
);
// The two halves of the index, for the ceiling contender (below).
const half = Math.ceil(FILES / 2);
for (const [name, from, to] of [
  ['index-a.xml', 0, half],
  ['index-b.xml', half, FILES],
]) {
  writeFileSync(
    join(DIR, name),
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from({ length: to - from }, (_, i) => `  <sitemap><loc>${origin}/sitemap-${from + i}.xml.gz</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`,
  );
}
const total = N * FILES;
const cores = Math.min(4, availableParallelism());
const workers = flags.threads > 0 ? [flags.threads] : [...new Set([Math.max(1, cores - 1), cores])];

const script = join(ROOT, 'bench/parse-peers/sitemapkit-tree.mjs');
const mainCpuHook = new URL('./main-cpu-hook.mjs', import.meta.url).href;
/** The command line of contender `c`: the CLI (from its dist), or the library's script. */
function argsOf(c, index = 'index.xml') {
  if (flags.library) return [script, `${origin}/${index}`, String(c.threads)];
  const bin = join(c.dist ?? join(ROOT, 'dist'), 'cli/bin.js');
  return [
    '--import',
    mainCpuHook,
    bin,
    'parse',
    `${origin}/${index}`,
    '--format',
    'jsonl',
    '--threads',
    String(c.threads),
    '--concurrency',
    '4',
    '--allow-private-addresses',
  ];
}
const contenders = [
  { name: 'one thread (--threads 0)', threads: 0 },
  ...workers.map((n) => ({ name: `parse workers (--threads ${n})`, threads: n })),
  // The ceiling of any split of the work on this machine: two one-thread processes at once, each
  // reading half of the children, sharing nothing (no hand-over, no merge, no order to keep).
  // No design of one process with threads can beat it; its speed-up over one thread is what the
  // cores give when the work is split perfectly (each process pays its own start, as a worker
  // thread pays its isolate's). Its two outputs, one after the other, are the tree's lines.
  ...(flags.library ? [] : [{ name: 'ceiling: 2 processes, half each', threads: 0, split: true }]),
  // The build before a change, with one thread and with the same workers.
  ...(flags.baseline === undefined
    ? []
    : [0, ...workers].map((n) => ({ name: `baseline, --threads ${n}`, threads: n, dist: flags.baseline }))),
];
console.log(
  `tree: ${FILES} gzip children of ${N.toLocaleString('en-US')} URLs (${(statSync(join(DIR, 'sitemap-0.xml.gz')).size / 1e6).toFixed(1)} MB each, ${(gunzipSize(gz) / 1e6).toFixed(1)} MB inflated) in ${DIR}; ${availableParallelism()} cores; load ${load()}`,
);
/** One run of `c`: its output to `stdout` (a file descriptor, or 'ignore': /dev/null). */
async function runOnce(c, stdout) {
  if (c.split) {
    const t0 = process.hrtime.bigint();
    // Into one file, the halves must not interleave: the byte check runs them one after the other.
    const halves =
      stdout === 'ignore'
        ? await Promise.all(['index-a.xml', 'index-b.xml'].map((i) => runHalf(c, i, stdout)))
        : [await runHalf(c, 'index-a.xml', stdout), await runHalf(c, 'index-b.xml', stdout)];
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    const sum = (f) => halves.reduce((a, h) => a + f(h), 0);
    return {
      secs,
      cpuSecs: sum((h) => h.cpuSecs),
      mainCpu: sum((h) => h.mainCpu ?? 0),
      rssMiB: Math.max(...halves.map((h) => h.rssMiB)),
    };
  }
  return runHalf(c, 'index.xml', stdout);
}
/** One process of contender `c` on the index `index`. */
async function runHalf(c, index, stdout) {
  const r = await runNode(argsOf(c, index), {
    env: c.dist === undefined ? {} : { SK_DIST: c.dist },
    stdout: flags.library ? 'pipe' : stdout,
  });
  if (r.code !== 0) throw new Error(`${c.name} failed (exit code ${r.code}): ${r.stderr}`);
  if (flags.library) {
    const report = JSON.parse(r.stdout.trim().split('\n').at(-1));
    if (report.urls !== total || report.errors !== 0)
      throw new Error(
        `${c.name} read ${report.urls} URLs with ${report.errors} error(s), expected ${total} and none`,
      );
    r.mainCpu = report.mainCpu;
  } else {
    if (!Number.isNaN(r.mainCpuSecs)) r.mainCpu = r.mainCpuSecs;
    const t = /SK_THREADS=(.*)/.exec(r.stderr);
    if (t !== null) r.threads = JSON.parse(t[1]);
  }
  return r;
}

// The same lines from every contender (the CLI's output, written to a file once each).
if (!flags.library) {
  let first;
  for (const c of contenders) {
    const file = join(OUT, `tree-lines-${process.pid}.jsonl`);
    const fd = openSync(file, 'w');
    try {
      await runOnce(c, fd);
    } finally {
      closeSync(fd);
    }
    const hash = createHash('sha256');
    let lines = 0;
    for await (const chunk of createReadStream(file)) {
      hash.update(chunk);
      for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
    }
    rmSync(file);
    const digest = hash.digest('hex');
    if (lines !== total) throw new Error(`${c.name} wrote ${lines} lines, expected ${total}`);
    if (first !== undefined && digest !== first.digest)
      throw new Error(
        `${c.name} wrote other bytes than ${first.name} (sha256 ${digest} against ${first.digest})`,
      );
    first ??= { name: c.name, digest };
  }
  console.log(
    `output: ${total.toLocaleString('en-US')} lines, the same bytes from every contender (sha256 ${first.digest.slice(0, 16)}…)`,
  );
}

const results = new Map(
  contenders.map((c) => [c.name, { secs: [], cpu: [], main: [], threads: [], rss: 0 }]),
);
for (let run = 0; run < flags.runs; run++) {
  for (const c of contenders) {
    const r = await runOnce(c, 'ignore');
    const b = results.get(c.name);
    b.secs.push(r.secs);
    b.cpu.push(r.cpuSecs);
    if (r.mainCpu !== undefined) b.main.push(r.mainCpu);
    if (r.threads !== undefined) b.threads.push(r.threads);
    b.rss = Math.max(b.rss, r.rssMiB);
  }
}
server.close();
const base = median(results.get(contenders[0].name).secs);
table(
  contenders.map((c) => {
    const b = results.get(c.name);
    const secs = median(b.secs);
    return {
      contender: c.name,
      's (median)': fmt.s(secs),
      runs: b.secs.map(fmt.s).join(' '),
      'URLs/s': fmt.n(total / secs),
      'CPU s': fmt.s(median(b.cpu)),
      'main-thread CPU s': b.main.length > 0 ? fmt.s(median(b.main)) : '',
      'speed-up': `${(base / secs).toFixed(2)}x`,
      'peak RSS MiB': fmt.mb(b.rss),
    };
  }),
  ['contender', 's (median)', 'runs', 'URLs/s', 'CPU s', 'main-thread CPU s', 'speed-up', 'peak RSS MiB'],
);
// Each kind of thread, from the scheduler (bench/main-cpu-hook.mjs): CPU, waits for a CPU (the
// machine's load), and idle (blocked: waiting for input or for the other thread). Medians.
if (results.get(contenders[0].name).threads.length > 0) {
  const med = (b, f) => fmt.s(median(b.threads.map(f)));
  console.log('\nthreads (medians; idle = alive, less on a CPU, less waiting for one):');
  table(
    contenders
      .filter((c) => results.get(c.name).threads.length > 0)
      .map((c) => {
        const b = results.get(c.name);
        return {
          contender: c.name,
          'main CPU': med(b, (t) => t.main.cpu),
          'main idle': med(b, (t) => t.main.idle),
          'main waits': med(b, (t) => t.main.wait),
          'workers CPU': med(b, (t) => t.workers.cpu),
          'workers idle': med(b, (t) => t.workers.idle),
          'helpers CPU': med(b, (t) => t.helpers.cpu),
          'all CPU / 2': med(b, (t) => (t.main.cpu + t.workers.cpu + t.helpers.cpu) / 2),
        };
      }),
    [
      'contender',
      'main CPU',
      'main idle',
      'main waits',
      'workers CPU',
      'workers idle',
      'helpers CPU',
      'all CPU / 2',
    ],
  );
}
console.log(
  `load after: ${load()}; ${flags.library ? 'the library (parseSitemapTree)' : 'the CLI (sitemapkit parse URL --format jsonl)'}`,
);

function gunzipSize(buf) {
  // ISIZE: the last four bytes of a gzip member, little-endian.
  return buf.readUInt32LE(buf.length - 4);
}
