#!/usr/bin/env node
// What issue 12's build-time rules cost a store build (bench/store.mjs measures the store itself).
// A store of N URLs (default 1,000,000; every other one with an input lastmod), then builds from
// the store that each publish one added URL (one child rewritten): with lastmodPolicy keep (no
// judgement: what a store build cost before), warn (the default: one aggregate query over the
// input lastmods), and warn with --feed atom (the newest 100 of every live URL, chosen in SQL).
// Each contender in its own process; medians of --runs (default 3), ratios to keep, peak RSS.
// Usage: node bench/store-extras.mjs [--urls N] [--runs N]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, OUT, ROOT, runNode, table } from './lib.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i === -1 ? dflt : Number(argv[i + 1]);
};
const N = opt('--urls', 1_000_000);
const RUNS = opt('--runs', 3);
const CHILD = join(ROOT, 'bench/store/extras-child.mjs');
const dir = join(OUT, 'store-extras');
const env = { SOURCE_DATE_EPOCH: '1780000000' };

async function run(args) {
  const r = await runNode([CHILD, ...args], { env });
  if (r.code !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return r;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

rmSync(dir, { recursive: true, force: true });
const db = join(dir, 'site.db');
const out = join(dir, 'out');
const imported = await run(['import', String(N), db]);
await run(['build', db, out, 'first', 'keep']);
const rows = { keep: [], warn: [], feed: [] };
let k = 0;
for (let i = 0; i < RUNS; i++) {
  // Interleaved, so a busy moment of the machine does not fall on one contender only.
  for (const how of ['keep', 'warn', 'feed']) rows[how].push(await run(['build', db, out, String(k++), how]));
}
const keep = median(rows.keep.map((r) => r.secs));
console.log(
  `${fmt.n(N)} URLs imported in ${fmt.s(imported.secs)} s (peak RSS ${fmt.mb(imported.rssMiB)} MB)\n`,
);
const label = {
  keep: 'one URL added, build, lastmodPolicy keep (before)',
  warn: 'the same, lastmodPolicy warn (default)',
  feed: 'the same, warn and --feed atom (100)',
};
table(
  Object.entries(rows).map(([how, rs]) => ({
    run: label[how],
    seconds: fmt.s(median(rs.map((r) => r.secs))),
    'vs keep': `${(median(rs.map((r) => r.secs)) / keep).toFixed(2)}x`,
    'files rewritten': JSON.parse(rs[0].stdout).rewritten,
    'peak RSS MB': fmt.mb(Math.max(...rs.map((r) => r.rssMiB))),
  })),
  ['run', 'seconds', 'vs keep', 'files rewritten', 'peak RSS MB'],
);
