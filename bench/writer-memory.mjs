#!/usr/bin/env node
// The writer's memory against the number of distinct values (issue 12): N entries with a lastmod
// each, made in memory so that no reader is counted, into writeSitemaps with a folder: every
// lastmod its own (a timestamp a row, as databases keep them) against 28 dates, with and without
// the duplicate set, and a floor that only makes the entries. Each in its own process, contenders
// interleaved; prints the median time, the worst peak RSS and the worst peak V8 heap.
// Usage: node bench/writer-memory.mjs [--urls N] [--runs N] [--quick]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchFlags, fmt, OUT, ROOT, runNode, table } from './lib.mjs';

const flags = benchFlags({ urls: { value: 1_000_000, quick: 20_000 }, runs: 3 });
const N = flags.urls;
const RUNS = flags.runs;
const SCRIPT = join(ROOT, 'bench/peers/writer-memory.mjs');

const contenders = [
  { name: 'writeSitemaps, a lastmod per URL', args: ['unique', 'write'] },
  { name: 'writeSitemaps, 28 dates', args: ['few', 'write'] },
  { name: 'writeSitemaps, a lastmod per URL, dedupe: false', args: ['unique', 'write', 'no-dedupe'] },
  { name: 'floor: the entries only', args: ['unique', 'floor'] },
];

const results = new Map(contenders.map((c) => [c.name, []]));
for (let run = 0; run < RUNS; run++) {
  for (const c of contenders) {
    const out = join(OUT, 'writer-memory');
    rmSync(out, { recursive: true, force: true });
    const [dates, mode, ...rest] = c.args;
    const r = await runNode([SCRIPT, String(N), dates, mode, out, ...rest]);
    if (r.code !== 0) throw new Error(`${c.name} failed (${r.code}): ${r.stderr}`);
    results.get(c.name).push({ ...r, heap: Number(/HEAP=(\d+)/.exec(r.stderr)?.[1]) });
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = contenders.map((c) => {
  const rs = results.get(c.name);
  const secs = median(rs.map((r) => r.secs));
  return {
    contender: c.name,
    seconds: fmt.s(secs),
    'URLs/s': fmt.n(N / secs),
    'peak RSS MiB': fmt.mb(Math.max(...rs.map((r) => r.rssMiB))),
    'peak heap MiB': fmt.mb(Math.max(...rs.map((r) => r.heap))),
  };
});
console.log(
  `\nWriter memory: ${N.toLocaleString('en-US')} entries from memory into a folder, median of ${RUNS} (worst peaks; Node ${process.version})\n`,
);
table(rows, ['contender', 'seconds', 'URLs/s', 'peak RSS MiB', 'peak heap MiB']);
