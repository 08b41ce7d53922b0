#!/usr/bin/env node
// Issue 12's writer extras: what the lastmod watch, `--lastmod-policy drop` (the set read back and
// written again before the commit) and `--feed` (a heap of the newest N) cost over a plain
// `generate`, each contender in its own process on the same input, interleaved, with medians.
// Inputs: 1,000,000 JSONL URLs with lastmods spread over a month ("honest"), and the same URLs
// with one lastmod for all ("one value", which the watch flags and drop rewrites). Then
// --big URLs with drop, the feed and gzip together, for memory.
// Usage: node bench/extras.mjs [--urls N] [--big N] [--runs N] [--quick]
import { createWriteStream, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchFlags, fmt, median, OUT, requireBuild, runNode, table } from './lib.mjs';

const flags = benchFlags({
  urls: { value: 1_000_000, quick: 20_000 },
  big: { value: 10_000_000, quick: 40_000 },
  runs: 3,
});
const N = flags.urls;
const BIG = flags.big;
const RUNS = flags.runs;

async function makeInput(n, kind) {
  const path = join(OUT, `extras-${kind}-${n}.jsonl`);
  if (existsSync(path)) return path;
  const ws = createWriteStream(path);
  let buf = '';
  for (let i = 0; i < n; i++) {
    const lastmod =
      kind === 'same'
        ? '2024-03-01T10:00:00Z'
        : `2024-03-${String(1 + (i % 28)).padStart(2, '0')}T${String(i % 24).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00Z`;
    buf += `{"loc":"https://example.com/products/item-${i}","lastmod":"${lastmod}","title":"Item ${i}"}\n`;
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
const generate = (input, out, extra) => [
  BIN,
  'generate',
  input,
  '--base-url',
  'https://example.com/',
  '--out',
  out,
  ...extra,
];

const honest = await makeInput(N, 'honest');
const same = await makeInput(N, 'same');
// [label, input, flags, baseline label]
const contenders = [
  ['honest: --lastmod-policy keep (baseline)', honest, ['--lastmod-policy', 'keep'], null],
  ['honest: warn (default: the watch)', honest, [], 'honest: --lastmod-policy keep (baseline)'],
  ['honest: --feed atom (100)', honest, ['--feed', 'atom'], 'honest: --lastmod-policy keep (baseline)'],
  [
    'honest: --feed rss --feed-size 10000',
    honest,
    ['--feed', 'rss', '--feed-size', '10000'],
    'honest: --lastmod-policy keep (baseline)',
  ],
  ['one value: warn (baseline)', same, [], null],
  ['one value: --lastmod-policy drop', same, ['--lastmod-policy', 'drop'], 'one value: warn (baseline)'],
  ['one value, gzip: warn (baseline)', same, ['--gzip'], null],
  [
    'one value, gzip: --lastmod-policy drop',
    same,
    ['--gzip', '--lastmod-policy', 'drop'],
    'one value, gzip: warn (baseline)',
  ],
];

const results = new Map();
for (let run = 0; run < RUNS; run++) {
  for (const [label, input, flags] of contenders) {
    const out = join(OUT, `extras-${label.replace(/\W+/g, '_')}`);
    rmSync(out, { recursive: true, force: true });
    const r = await runNode(generate(input, out, flags));
    if (r.code !== 0) throw new Error(`${label} failed (${r.code}): ${r.stderr}`);
    const seen = results.get(label) ?? { secs: [], rss: [] };
    seen.secs.push(r.secs);
    seen.rss.push(r.rssMiB);
    results.set(label, seen);
  }
}
const rows = contenders.map(([label, , , base]) => {
  const r = results.get(label);
  const secs = median(r.secs);
  return {
    contender: label,
    'median s': fmt.s(secs),
    'URLs/s': fmt.n(N / secs),
    'x baseline': base === null ? '1.00x' : `${(secs / median(results.get(base).secs)).toFixed(2)}x`,
    'peak RSS MiB': fmt.mb(Math.max(...r.rss)),
  };
});
console.log(
  `\nWriter extras: ${N.toLocaleString('en-US')} URLs from JSONL, median of ${RUNS} (Node ${process.version}); x baseline = time / the baseline's time\n`,
);
table(rows, ['contender', 'median s', 'URLs/s', 'x baseline', 'peak RSS MiB']);

if (BIG > 0) {
  const big = await makeInput(BIG, 'same');
  const out = join(OUT, 'extras-big');
  const bigRows = [];
  for (const [label, flags] of [
    ['warn, gzip, --no-dedupe', ['--gzip', '--no-dedupe']],
    [
      'drop + --feed atom, gzip, --no-dedupe',
      ['--gzip', '--no-dedupe', '--lastmod-policy', 'drop', '--feed', 'atom'],
    ],
  ]) {
    rmSync(out, { recursive: true, force: true });
    const r = await runNode(generate(big, out, flags));
    if (r.code !== 0) throw new Error(`${label} failed: ${r.stderr}`);
    bigRows.push({
      contender: label,
      seconds: fmt.s(r.secs),
      'URLs/s': fmt.n(BIG / r.secs),
      'peak RSS MiB': fmt.mb(r.rssMiB),
    });
  }
  rmSync(out, { recursive: true, force: true });
  console.log(`\nMemory: ${BIG.toLocaleString('en-US')} URLs with one lastmod, one run each`);
  table(bigRows, ['contender', 'seconds', 'URLs/s', 'peak RSS MiB']);
}
for (const [label] of contenders)
  rmSync(join(OUT, `extras-${label.replace(/\W+/g, '_')}`), { recursive: true, force: true });
