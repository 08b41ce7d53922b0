#!/usr/bin/env node
// The parser core and the JSON lines of `parse --format jsonl`, in one process, on the bytes of
// bench/parse.mjs's 50,000-URL file read beforehand (no start-up, no I/O): the first pass (cold,
// as the CLI runs it, hot functions still interpreted or being compiled) against the best of the
// later ones (warm). Shows how much of a short parse is the engine warming up (issue 16).
// --baseline DIR: the same measure of another build (DIR/dist, e.g. a copy of main's build in
// /tmp), each build in --procs fresh processes, interleaved, printing the medians of each and
// their ratios: the before/after figure of a change to the core under the same load.
// Usage: node bench/parse-core.mjs [--runs N] [--baseline DIR] [--procs N]
//        (passes in the process, default 12; processes per build with --baseline, default 5)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchFlags, load, OUT, ROOT, requireBuild } from './lib.mjs';

const flags = benchFlags({ runs: 12, baseline: '', procs: 5, dist: '' });
const file = join(OUT, 'parse-50000.xml');
if (!existsSync(file)) throw new Error('run node bench/parse.mjs once first: it writes the 50,000-URL file');

if (flags.baseline !== '') {
  requireBuild();
  const builds = [
    ['this build', join(ROOT, 'dist')],
    ['--baseline', join(resolve(flags.baseline), 'dist')],
  ];
  const got = new Map(builds.map(([name]) => [name, { cold: [], warm: [] }]));
  for (let p = 0; p < flags.procs; p++) {
    for (const [name, dist] of p % 2 === 0 ? builds : [...builds].reverse()) {
      const r = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--runs', String(flags.runs), '--dist', dist],
        { encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
      const m = /cold \(first pass\) ([\d.]+), warm \(best of \d+ later passes\) ([\d.]+)/.exec(r.stdout);
      got.get(name).cold.push(Number(m[1]));
      got.get(name).warm.push(Number(m[2]));
    }
  }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  for (const [name, { cold, warm }] of got)
    console.log(
      `${name.padEnd(10)}  cold ms: median ${med(cold).toFixed(1)} (${cold.map((c) => c.toFixed(0)).join(', ')})  warm ms: median ${med(warm).toFixed(1)}`,
    );
  const a = got.get('this build');
  const b = got.get('--baseline');
  console.log(
    `this build takes ${(med(a.cold) / med(b.cold)).toFixed(2)}x the --baseline's CPU cold, ${(med(a.warm) / med(b.warm)).toFixed(2)}x warm; ${flags.procs} processes each, interleaved; load average ${load()}`,
  );
  process.exit(0);
}

const dist = flags.dist === '' ? join(ROOT, 'dist') : flags.dist;
if (flags.dist === '') requireBuild();
const { SitemapParser } = await import(pathToFileURL(join(dist, 'parser/core.js')).href);
const { formatRow } = await import(pathToFileURL(join(dist, 'cli/commands/parse.js')).href);
const bytes = readFileSync(file);
const chunks = [];
for (let i = 0; i < bytes.length; i += 65_536) chunks.push(bytes.subarray(i, i + 65_536));

const times = [];
let lines = 0;
for (let r = 0; r < Math.max(3, flags.runs); r++) {
  const t0 = process.cpuUsage();
  const queue = [];
  let out = '';
  let bytesOut = 0;
  const parser = new SitemapParser({
    sitemap: file,
    onItem: (item) => queue.push(item),
    onDiagnostic: () => {},
  });
  let plainBefore = 0;
  for (const chunk of chunks) {
    parser.write(chunk);
    // As document.ts and the CLI do: a chunk's entries, all plain, written without escape tests
    // (builds before plainEntries: never).
    const plainNow = parser.plainEntries ?? 0;
    const plain = plainNow - plainBefore === queue.length;
    plainBefore = plainNow;
    for (const item of queue) out += formatRow(item, file, 'jsonl', plain);
    queue.length = 0;
    if (out.length >= 65_536) {
      bytesOut += Buffer.byteLength(out);
      out = '';
    }
  }
  parser.end();
  bytesOut += Buffer.byteLength(out);
  const t = process.cpuUsage(t0);
  lines = bytesOut;
  times.push((t.user + t.system) / 1000);
}
const warm = times.slice(1).sort((a, b) => a - b);
console.log(
  `parser core + JSON lines (${(lines / 1e6).toFixed(1)} MB), CPU ms: cold (first pass) ${times[0].toFixed(1)}, warm (best of ${warm.length} later passes) ${warm[0].toFixed(1)}, median warm ${warm[warm.length >> 1].toFixed(1)}; cold/warm ${(times[0] / warm[0]).toFixed(2)}x; load average ${load()}`,
);
