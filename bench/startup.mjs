#!/usr/bin/env node
// Start-up (issue 16, item 6): `sitemapkit --version`, `parse` of a one-URL file, and (fifth pass)
// `validate` of a one-URL text file, `generate` of it into a folder and `robots --help`, against a
// bare `node -e ''`, each a fresh process, the contenders taken in turn (so that a load on the
// machine falls on all of them alike), medians of --runs (default 10) of the wall time and of the
// CPU time (user + system, which a loaded machine moves far less), and the load average. Every contender,
// bare node included, carries bench/cpu-hook.cjs (`node -r`), which reports the CPU time and
// loads nothing a bare start does not. Target: both within 1.5x bare.
// The CLI is run as npm runs it, from package.json's "bin" (dist/cli/bin.cjs); `node
// dist/cli/bin.js` (the same command through Node's ES module loader) has a row of its own, and so
// has a parse under a V8 flag (--max-old-space-size), with which V8 rejects the parse script's
// code cache (scripts/bundle-cli.mjs).
// --baseline DIR adds, in the same runs, the one-URL parse, validate and generate of another build
// (DIR/dist/cli/bin.cjs, or bin.js for a build before it; built, with its node_modules):
// before/after figures of one change under the same load.
// Usage: node bench/startup.mjs [--runs N] [--baseline DIR]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load, OUT, ROOT, table } from './lib.mjs';

const argv = process.argv.slice(2);
const i = argv.indexOf('--runs');
const RUNS = i === -1 ? 10 : Number(argv[i + 1]);
const b = argv.indexOf('--baseline');
const entry = (dir) =>
  existsSync(join(dir, 'dist/cli/bin.cjs')) ? join(dir, 'dist/cli/bin.cjs') : join(dir, 'dist/cli/bin.js');
const BASELINE = b === -1 ? undefined : entry(argv[b + 1]);
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.sitemapkit);
const ESM_BIN = join(ROOT, 'dist/cli/bin.js');
const dir = join(OUT, 'startup');
mkdirSync(dir, { recursive: true });
const one = join(dir, 'one.xml');
writeFileSync(
  one,
  '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>\n',
);

const txt = join(dir, 'one.txt');
writeFileSync(txt, 'https://example.com/\n');
const out = join(dir, 'out');
const generate = (bin, folder) => [
  bin,
  'generate',
  txt,
  '--base-url',
  'https://example.com/',
  '--out',
  folder,
];
const contenders = [
  { name: "bare node -e ''", args: ['-e', ''] },
  { name: 'sitemapkit --version', args: [BIN, '--version'] },
  { name: 'sitemapkit parse (one URL)', args: [BIN, 'parse', one] },
  { name: 'sitemapkit parse --format jsonl', args: [BIN, 'parse', one, '--format', 'jsonl'] },
  { name: 'the same, node dist/cli/bin.js', args: [ESM_BIN, 'parse', one, '--format', 'jsonl'] },
  {
    name: 'the same, --max-old-space-size',
    args: ['--max-old-space-size=4096', BIN, 'parse', one, '--format', 'jsonl'],
  },
  { name: 'sitemapkit validate ONE.txt', args: [BIN, 'validate', txt] },
  { name: 'sitemapkit generate ONE.txt', args: generate(BIN, out) },
  { name: 'sitemapkit robots --help', args: [BIN, 'robots', '--help'] },
  ...(BASELINE === undefined
    ? []
    : [
        { name: '--version, --baseline', args: [BASELINE, '--version'] },
        { name: 'parse --format jsonl, --baseline', args: [BASELINE, 'parse', one, '--format', 'jsonl'] },
        {
          name: 'the same, --baseline, --max-old-space-size',
          args: ['--max-old-space-size=4096', BASELINE, 'parse', one, '--format', 'jsonl'],
        },
        { name: 'validate ONE.txt, --baseline', args: [BASELINE, 'validate', txt] },
        { name: 'generate ONE.txt, --baseline', args: generate(BASELINE, join(dir, 'out-baseline')) },
        { name: 'robots --help, --baseline', args: [BASELINE, 'robots', '--help'] },
      ]),
];
const HOOK = join(ROOT, 'bench/cpu-hook.cjs');
const times = contenders.map(() => []);
const cpus = contenders.map(() => []);
for (let r = 0; r < RUNS + 1; r++) {
  contenders.forEach((c, k) => {
    const t0 = process.hrtime.bigint();
    const res = spawnSync(process.execPath, ['-r', HOOK, ...c.args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const secs = Number(process.hrtime.bigint() - t0) / 1e9;
    if (res.status !== 0) throw new Error(`${c.name} exited ${res.status}: ${res.stderr}`);
    // The first round warms the disk cache for everyone and is not counted.
    if (r > 0) {
      times[k].push(secs);
      cpus[k].push(Number(/SK_CPU=(\d+)/.exec(String(res.stderr))[1]) / 1e6);
    }
  });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bare = median(times[0]);
const bareCpu = median(cpus[0]);
table(
  contenders.map((c, k) => ({
    run: c.name,
    'median s': median(times[k]).toFixed(3),
    'vs bare': `${(median(times[k]) / bare).toFixed(2)}x`,
    'CPU s': median(cpus[k]).toFixed(3),
    'CPU vs bare': `${(median(cpus[k]) / bareCpu).toFixed(2)}x`,
  })),
  ['run', 'median s', 'vs bare', 'CPU s', 'CPU vs bare'],
);
console.log(
  `\nmedians of ${RUNS}; load average ${load()}; target (issue 16): --version and a one-URL parse at most 1.5x bare`,
);
