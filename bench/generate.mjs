#!/usr/bin/env node
// Writer benchmark (issue 2): 1,000,000 URLs with lastmod, changefreq and priority read from JSONL,
// written into 50,000-URL files, plain and gzip, through each contender's real entry point, each in
// its own process: sitemapkit's CLI (full validation, dedupe, manifest, atomic commit), the npm
// `sitemap` package as its README shows, and a bare no-checks script (the floor). Then 10,000,000
// URLs through sitemapkit alone, for memory.
// Usage: node bench/generate.mjs [--urls N] [--big N] [--runs N] [--mode both|plain|gzip] [--no-peer] [--before DIR] [--quick]
// Times are the median of --runs (3 by default); CPU seconds (every thread of the process) the
// median too, and the main thread's alone (the thread that writes; Linux); peak RSS is the worst. Ratios: the peer's median time over sitemapkit's (how many
// times faster sitemapkit is), and each contender's median time over the floor's (1.00x is the
// floor). After the runs, sitemapkit's files are compared with the floor's byte for byte.
// `sitemapkit` reads and checks the JSONL input on a second thread where there are two CPUs (its
// default); `sitemapkit --threads 0` keeps everything on one thread.
// `--before DIR` adds another build's `dist` (a copy taken before a change: `cp -r dist DIR`) as
// two more contenders, `before` and `before --threads 0`, in the same interleaved runs.
import { createWriteStream, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { benchFlags, fmt, load, median, OUT, ROOT, requireBuild, runNode, table } from './lib.mjs';

const flags = benchFlags({
  urls: { value: 1_000_000, quick: 20_000 },
  big: { value: 10_000_000, quick: 40_000 },
  runs: 3,
  'no-peer': false,
  mode: 'both',
  before: null,
});
if (!['both', 'plain', 'gzip'].includes(flags.mode)) throw new Error('--mode takes both, plain or gzip');
const MODES = flags.mode === 'both' ? [false, true] : [flags.mode === 'gzip'];
const PEER = 'sitemap (npm)';
const FLOOR = 'bare script (no checks)';
const N = flags.urls;
const BIG = flags.big;
const withPeer = !flags.noPeer;
// RUNS of each, contenders interleaved, so that a busy moment on the machine hits everyone alike.
const RUNS = flags.runs;
const FREQS = ['daily', 'weekly', 'monthly'];

async function makeInput(n) {
  const path = join(OUT, `urls-${n}.jsonl`);
  if (existsSync(path)) return path;
  const ws = createWriteStream(path);
  let buf = '';
  for (let i = 0; i < n; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    buf += `{"loc":"https://example.com/products/item-${i}?ref=list&page=${i % 97}","lastmod":"2024-03-${day}","changefreq":"${FREQS[i % 3]}","priority":${((i % 10) / 10).toFixed(1)}}\n`;
    if (buf.length > 1 << 20) {
      if (!ws.write(buf)) await new Promise((r) => ws.once('drain', r));
      buf = '';
    }
  }
  ws.end(buf);
  await new Promise((r) => ws.on('close', r));
  return path;
}

/**
 * Whether the floor built sitemapkit's bytes: every file the floor wrote is compared with
 * sitemapkit's of the same name (the compressed bytes for gzip); in the index the lastmods (each
 * contender's own run time) are left out of the comparison. Returns one sentence.
 */
function sameBytes(skDir, floorDir, gz) {
  const names = readdirSync(floorDir).sort();
  const differ = [];
  let children = 0;
  for (const name of names) {
    let a = readFileSync(join(skDir, name));
    let b = readFileSync(join(floorDir, name));
    if (/^sitemap\.xml/.test(name)) {
      const strip = (buf) =>
        (gz ? gunzipSync(buf) : buf).toString().replace(/<lastmod>[^<]*<\/lastmod>/g, '');
      a = strip(a);
      b = strip(b);
      if (a !== b) differ.push(name);
    } else {
      children++;
      if (!a.equals(b)) differ.push(name);
    }
  }
  const extra = readdirSync(skDir).filter((n) => !names.includes(n));
  const only = extra.length === 0 ? '' : `; only sitemapkit wrote ${extra.join(', ')}`;
  return differ.length === 0
    ? `the floor's ${children} children are sitemapkit's bytes${gz ? ' (compressed bytes too)' : ''}, its index too but for the lastmods${only}`
    : `the floor's output DIFFERS from sitemapkit's in ${differ.join(', ')}${only}`;
}

const BIN = requireBuild();
const BEFORE = flags.before === undefined ? undefined : resolve(flags.before, 'cli/bin.js');
if (BEFORE !== undefined && !existsSync(BEFORE)) throw new Error(`--before: ${BEFORE} does not exist`);
const ONE_THREAD = 'sitemapkit --threads 0';
const sitemapkit =
  (extra, bin = BIN) =>
  (input, out, gz) => [
    bin,
    'generate',
    input,
    '--base-url',
    'https://example.com/',
    '--out',
    out,
    ...(gz ? ['--gzip'] : []),
    ...extra,
  ];
const contenders = [
  { name: 'sitemapkit', args: sitemapkit([]) },
  // The JSONL input read and checked on a second thread: what it buys.
  { name: ONE_THREAD, args: sitemapkit(['--threads', '0']) },
  ...(BEFORE === undefined
    ? []
    : [
        { name: 'before', args: sitemapkit([], BEFORE) },
        { name: 'before --threads 0', args: sitemapkit(['--threads', '0'], BEFORE) },
      ]),
  ...(withPeer
    ? [
        {
          name: PEER,
          args: (input, out, gz) => [
            join(ROOT, 'bench/peers/sitemap-write.mjs'),
            input,
            out,
            gz ? 'gzip' : 'plain',
          ],
        },
      ]
    : []),
  {
    name: FLOOR,
    args: (input, out, gz) => [join(ROOT, 'bench/peers/bare-write.mjs'), input, out, gz ? 'gzip' : 'plain'],
  },
];

const input = await makeInput(N);
const dirOf = (c, gz) => join(OUT, `gen-${c.name.replace(/\W+/g, '_')}-${gz ? 'gz' : 'plain'}`);
const rows = [];
const verdicts = [];
const startLoad = load();
for (const gz of MODES) {
  const runs = Object.fromEntries(contenders.map((c) => [c.name, []]));
  for (let run = 0; run < RUNS; run++) {
    for (const c of contenders) {
      const out = dirOf(c, gz);
      rmSync(out, { recursive: true, force: true });
      const r = await runNode(c.args(input, out, gz));
      if (r.code !== 0) throw new Error(`${c.name} failed (${r.code}): ${r.stderr}`);
      runs[c.name].push(r);
    }
  }
  const mode = gz ? 'gzip' : 'plain';
  const secs = (name) => median(runs[name].map((r) => r.secs));
  const peer = withPeer ? secs(PEER) : undefined;
  const floor = secs(FLOOR);
  for (const c of contenders) {
    const rs = runs[c.name];
    const s = secs(c.name);
    rows.push({
      mode,
      contender: c.name,
      'median s': fmt.s(s),
      'min-max s': `${fmt.s(Math.min(...rs.map((r) => r.secs)))}-${fmt.s(Math.max(...rs.map((r) => r.secs)))}`,
      'CPU s': fmt.s(median(rs.map((r) => r.cpuSecs))),
      'main thread CPU s': fmt.s(median(rs.map((r) => r.mainCpuSecs))),
      'URLs/s': fmt.n(N / s),
      'x sitemap': peer === undefined ? 'n/a' : `${(peer / s).toFixed(2)}x`,
      'x floor time': `${(s / floor).toFixed(2)}x`,
      'peak RSS MiB': fmt.mb(Math.max(...rs.map((r) => r.rssMiB))),
    });
  }
  const sk = secs('sitemapkit');
  const rss = Math.max(...runs.sitemapkit.map((r) => r.rssMiB));
  const [peerTarget, floorTarget] = gz ? [40, 1.2] : [3, 1.1];
  verdicts.push(
    `${mode}: ${peer === undefined ? 'x sitemap n/a' : `${(peer / sk).toFixed(2)}x sitemap (target >= ${peerTarget}x)`}, ` +
      `${(sk / floor).toFixed(2)}x the floor's time (target <= ${floorTarget}x)` +
      (gz ? '' : `, peak RSS ${fmt.mb(rss)} MiB (target < 150)`),
  );
  verdicts.push(
    `${mode}: the default against --threads 0: ${(secs(ONE_THREAD) / sk).toFixed(2)}x faster (CPU ${fmt.s(median(runs.sitemapkit.map((r) => r.cpuSecs)))} s against ${fmt.s(median(runs[ONE_THREAD].map((r) => r.cpuSecs)))} s; main thread CPU ${fmt.s(median(runs.sitemapkit.map((r) => r.mainCpuSecs)))} s against ${fmt.s(median(runs[ONE_THREAD].map((r) => r.mainCpuSecs)))} s; peak RSS ${fmt.mb(rss)} against ${fmt.mb(Math.max(...runs[ONE_THREAD].map((r) => r.rssMiB)))} MiB)`,
  );
  verdicts.push(`${mode}: ${sameBytes(dirOf(contenders[0], gz), dirOf(contenders.at(-1), gz), gz)}`);
}
console.log(
  `\nWriter: ${N.toLocaleString('en-US')} URLs from JSONL into 50,000-URL files, median of ${RUNS} runs, contenders interleaved (Node ${process.version}; load average ${startLoad} at the start, ${load()} at the end)\n`,
);
table(rows, [
  'mode',
  'contender',
  'median s',
  'min-max s',
  'CPU s',
  'main thread CPU s',
  'URLs/s',
  'x sitemap',
  'x floor time',
  'peak RSS MiB',
]);
console.log('');
for (const v of verdicts) console.log(v);

if (BIG > 0) {
  const big = await makeInput(BIG);
  const out = join(OUT, 'gen-big');
  const bigRows = [];
  for (const [label, extra] of [
    ['sitemapkit (duplicate detection on)', []],
    ['sitemapkit --no-dedupe', ['--no-dedupe']],
  ]) {
    rmSync(out, { recursive: true, force: true });
    const r = await runNode([
      BIN,
      'generate',
      big,
      '--base-url',
      'https://example.com/',
      '--out',
      out,
      '--gzip',
      ...extra,
    ]);
    if (r.code !== 0) throw new Error(`${label} failed: ${r.stderr}`);
    bigRows.push({
      contender: label,
      seconds: fmt.s(r.secs),
      'URLs/s': fmt.n(BIG / r.secs),
      'peak RSS MiB': fmt.mb(r.rssMiB),
    });
  }
  console.log(`\nMemory: ${BIG.toLocaleString('en-US')} URLs from JSONL, gzip, full checks`);
  table(bigRows, ['contender', 'seconds', 'URLs/s', 'peak RSS MiB']);
  rmSync(out, { recursive: true, force: true });
}
