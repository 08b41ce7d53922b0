#!/usr/bin/env node
// Writer benchmark (issue 2): 1,000,000 URLs with lastmod, changefreq and priority read from JSONL,
// written into 50,000-URL files, plain and gzip, through each contender's real entry point, each in
// its own process: sitemapkit's CLI (full validation, dedupe, manifest, atomic commit), the npm
// `sitemap` package as its README shows, and a bare no-checks script (the floor). Then 10,000,000
// URLs through sitemapkit alone, for memory.
// Usage: node bench/generate.mjs [--urls N] [--big N] [--runs N] [--no-peer] [--quick]
// Times are the best of --runs; peak RSS is the worst.
import { createWriteStream, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchFlags, fmt, OUT, ROOT, requireBuild, runNode, table } from './lib.mjs';

const flags = benchFlags({
  urls: { value: 1_000_000, quick: 20_000 },
  big: { value: 10_000_000, quick: 40_000 },
  runs: 3,
  'no-peer': false,
});
const N = flags.urls;
const BIG = flags.big;
const withPeer = !flags.noPeer;
// Best of RUNS, contenders interleaved, so that a busy moment on the machine hits everyone alike.
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

const BIN = requireBuild();
const contenders = [
  {
    name: 'sitemapkit',
    args: (input, out, gz) => [
      BIN,
      'generate',
      input,
      '--base-url',
      'https://example.com/',
      '--out',
      out,
      ...(gz ? ['--gzip'] : []),
    ],
  },
  ...(withPeer
    ? [
        {
          name: 'sitemap (npm)',
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
    name: 'bare script (no checks)',
    args: (input, out, gz) => [join(ROOT, 'bench/peers/bare-write.mjs'), input, out, gz ? 'gzip' : 'plain'],
  },
];

const input = await makeInput(N);
const rows = [];
for (const gz of [false, true]) {
  const results = {};
  for (let run = 0; run < RUNS; run++) {
    for (const c of contenders) {
      const out = join(OUT, `gen-${c.name.replace(/\W+/g, '_')}-${gz ? 'gz' : 'plain'}`);
      rmSync(out, { recursive: true, force: true });
      const r = await runNode(c.args(input, out, gz));
      if (r.code !== 0) throw new Error(`${c.name} failed (${r.code}): ${r.stderr}`);
      const best = results[c.name];
      results[c.name] =
        best === undefined
          ? r
          : { secs: Math.min(best.secs, r.secs), rssMiB: Math.max(best.rssMiB, r.rssMiB) };
    }
  }
  const peer = results['sitemap (npm)'];
  for (const c of contenders) {
    const r = results[c.name];
    rows.push({
      mode: gz ? 'gzip' : 'plain',
      contender: c.name,
      urls: fmt.n(N),
      seconds: fmt.s(r.secs),
      'URLs/s': fmt.n(N / r.secs),
      'x vs sitemap': peer ? `${(peer.secs / r.secs).toFixed(2)}x` : 'n/a',
      'peak RSS MiB': fmt.mb(r.rssMiB),
    });
  }
}
console.log(
  `\nWriter: ${N.toLocaleString('en-US')} URLs from JSONL into 50,000-URL files, best of ${RUNS} (Node ${process.version})\n`,
);
table(rows, ['mode', 'contender', 'urls', 'seconds', 'URLs/s', 'x vs sitemap', 'peak RSS MiB']);

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
