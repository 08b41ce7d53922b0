#!/usr/bin/env node
// The parser core and the JSON lines of `parse --format jsonl`, in one process, on the bytes of
// bench/parse.mjs's 50,000-URL file read beforehand (no start-up, no I/O): the first pass (cold,
// as the CLI runs it, hot functions still interpreted or being compiled) against the best of the
// later ones (warm). Shows how much of a short parse is the engine warming up (issue 16).
// Usage: node bench/parse-core.mjs [--runs N] (passes in the process; default 12)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchFlags, load, OUT, requireBuild } from './lib.mjs';

const flags = benchFlags({ runs: 12 });
requireBuild();
const file = join(OUT, 'parse-50000.xml');
if (!existsSync(file)) throw new Error('run node bench/parse.mjs once first: it writes the 50,000-URL file');
const { SitemapParser } = await import('../dist/parser/core.js');
const { formatRow } = await import('../dist/cli/commands/parse.js');
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
  for (const chunk of chunks) {
    parser.write(chunk);
    for (const item of queue) out += formatRow(item, file, 'jsonl');
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
