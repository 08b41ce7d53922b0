#!/usr/bin/env node
// Parser benchmark (issues 3 and 16): a 50,000-URL sitemap with one image per URL (about 14 MB),
// plain and gzip, file → JSON lines; and a tree of 20 such files behind an index over loopback.
// Contenders, each in its own process, taken in turn within every run: the CLI as a user runs it
// (`sitemapkit parse FILE --format jsonl > /dev/null`, the whole process: start-up, module
// loading, parsing, output), sitemapkit's library (importing the package root, as users do, and
// dist/parser alone), the floor (bench/parse-peers/floor.mjs: tokenise and write the same JSON
// lines by string concatenation, no checks), the npm `sitemap` package (XMLToSitemapItemStream)
// and `sitemapper` (which reads URLs only, so its "file" rows fetch the same file over loopback).
// Prints the median seconds of --runs (and median CPU seconds, which a loaded machine moves far
// less), URLs/s, MB/s of uncompressed XML, the speed-up over `sitemap`, the time over the floor,
// peak RSS (worst run) and the load average. Targets (issue 16): the CLI at least 8x `sitemap`,
// peak RSS under 100 MB.
// --baseline DIR adds, in the same runs, the CLI of another checkout or copy (DIR/dist/cli/bin.cjs,
// or bin.js for a build before it; built, with its node_modules): before/after figures of one
// change under the same load.
// Usage: node bench/parse.mjs [--urls N] [--files N] [--runs N] [--tree-runs N] [--no-peer]
//        [--baseline DIR] [--quick]
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  benchFlags,
  benchUrlset,
  fmt,
  load,
  median,
  OUT,
  ROOT,
  requireBuild,
  runNode,
  table,
} from './lib.mjs';

const flags = benchFlags({
  urls: { value: 50_000, quick: 5000 },
  files: { value: 20, quick: 3 },
  runs: 3,
  'tree-runs': 1,
  'no-peer': false,
  baseline: '',
});
const N = flags.urls;
const FILES = flags.files;
const RUNS = flags.runs;
const TREE_RUNS = flags.treeRuns;
const withPeers = !flags.noPeer;
const HOST = 'https://www.example.com';

function makeSitemap(n) {
  const path = join(OUT, `parse-${n}.xml`);
  if (!existsSync(path)) {
    writeFileSync(path, benchUrlset(n, HOST));
    writeFileSync(`${path}.gz`, gzipSync(readFileSync(path)));
  }
  return path;
}

const plain = makeSitemap(N);
const xml = readFileSync(plain, 'utf8');
const MB = statSync(plain).size / 1e6;

// Loopback server: the file (plain and gzip) and an index of FILES children, all at the root and
// listing URLs of the server's own origin, so every entry is inside its sitemap's location.
const server = createServer((req, res) => {
  const body = routes.get(req.url ?? '/');
  if (body === undefined) return void res.writeHead(404).end();
  res
    .writeHead(200, { 'content-type': req.url.endsWith('.gz') ? 'application/gzip' : 'application/xml' })
    .end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;
const served = Buffer.from(xml.replaceAll(HOST, origin));
const routes = new Map([
  ['/sitemap.xml', served],
  ['/sitemap.xml.gz', gzipSync(served)],
  [
    '/index.xml',
    Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${Array.from({ length: FILES }, (_, i) => `<sitemap><loc>${origin}/s-${i}.xml</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`,
    ),
  ],
  ...Array.from({ length: FILES }, (_, i) => [`/s-${i}.xml`, served]),
]);

const peer = (name) => join(ROOT, 'bench/parse-peers', name);
const BIN = requireBuild();
const contenders = [
  {
    name: 'sitemapkit parse (CLI)',
    // The command as a user types it; its output goes to /dev/null, as the other contenders' does.
    args: (s) => [BIN, 'parse', s.local ?? s.url, '--format', 'jsonl'],
    cli: true,
  },
  ...(flags.baseline === ''
    ? []
    : [
        {
          name: 'parse (CLI), --baseline',
          // The other build's command as npm runs it: its bin.cjs, or bin.js for a build before it.
          args: (s) => [
            existsSync(join(flags.baseline, 'dist/cli/bin.cjs'))
              ? join(flags.baseline, 'dist/cli/bin.cjs')
              : join(flags.baseline, 'dist/cli/bin.js'),
            'parse',
            s.local ?? s.url,
            '--format',
            'jsonl',
          ],
          cli: true,
        },
      ]),
  { name: 'sitemapkit (library)', script: peer('sitemapkit.mjs'), target: (s) => s.local ?? s.url },
  {
    name: 'sitemapkit, dist/parser only',
    script: peer('sitemapkit.mjs'),
    target: (s) => s.local ?? s.url,
    extra: ['parser'],
  },
  { name: 'floor (no checks)', script: peer('floor.mjs'), target: (s) => s.local, fileOnly: true },
  ...(withPeers
    ? [
        { name: 'sitemap (npm)', script: peer('sitemap.mjs'), target: (s) => s.local ?? s.url },
        { name: 'sitemapper', script: peer('sitemapper.mjs'), target: (s) => s.url },
      ]
    : []),
];
const scenarios = [
  {
    name: `file, ${N.toLocaleString('en-US')} URLs`,
    mode: 'file',
    local: plain,
    url: `${origin}/sitemap.xml`,
    urls: N,
    mb: MB,
    runs: RUNS,
  },
  {
    name: `file.gz, ${N.toLocaleString('en-US')} URLs`,
    mode: 'file',
    local: `${plain}.gz`,
    url: `${origin}/sitemap.xml.gz`,
    urls: N,
    mb: MB,
    runs: RUNS,
  },
  {
    name: `tree, ${FILES} files, loopback`,
    mode: 'tree',
    url: `${origin}/index.xml`,
    urls: N * FILES,
    mb: MB * FILES,
    runs: TREE_RUNS,
  },
];

console.log(
  `sitemap: ${N.toLocaleString('en-US')} URLs with one image each, ${MB.toFixed(1)} MB uncompressed (${plain})`,
);
const rows = [];
const imports = [];
const baselineNotes = [];
for (const sc of scenarios) {
  // --tree-runs 0 (or --runs 0) leaves a scenario out rather than printing a row of nothing.
  if (sc.runs === 0) continue;
  const runs = {};
  for (let run = 0; run < sc.runs; run++) {
    for (const c of contenders) {
      if (c.fileOnly && sc.mode !== 'file') continue;
      const r = c.cli
        ? await runNode(c.args(sc), { stdout: 'ignore' })
        : await runNode([c.script, sc.mode, c.target(sc), ...(c.extra ?? [])]);
      if (r.code !== 0) throw new Error(`${c.name} failed on ${sc.name}: ${r.stderr}`);
      // The CLI's lines go to /dev/null: its count is the pinned-output tests' business.
      const report = c.cli ? { urls: sc.urls } : JSON.parse(r.stdout.trim().split('\n').at(-1));
      if (report.urls !== sc.urls)
        console.warn(`note: ${c.name} read ${report.urls} URLs on "${sc.name}", expected ${sc.urls}`);
      runs[c.name] ??= { secs: [], cpu: [], rss: 0, urls: report.urls };
      const b = runs[c.name];
      b.secs.push(r.secs);
      b.cpu.push(r.cpuSecs);
      b.rss = Math.max(b.rss, r.rssMiB);
      if (report.importMs !== undefined && c.extra === undefined) imports.push(report.importMs);
    }
  }
  const secsOf = (name) => (runs[name] === undefined ? undefined : median(runs[name].secs));
  const base = secsOf('sitemap (npm)');
  const floor = secsOf('floor (no checks)');
  for (const c of contenders) {
    const b = runs[c.name];
    if (b === undefined) continue; // the scenario was given 0 runs, or is not for this contender
    const secs = median(b.secs);
    const before = runs['parse (CLI), --baseline'];
    if (c.name === 'sitemapkit parse (CLI)' && before !== undefined)
      baselineNotes.push(
        `${sc.name}: the CLI takes ${(secs / median(before.secs)).toFixed(2)}x the --baseline build's wall time, ${(median(b.cpu) / median(before.cpu)).toFixed(2)}x its CPU`,
      );
    rows.push({
      scenario: sc.name,
      contender: c.name,
      'URLs read': fmt.n(b.urls),
      seconds: fmt.s(secs),
      'CPU s': fmt.s(median(b.cpu)),
      'URLs/s': fmt.n(b.urls / secs),
      'MB/s': (sc.mb / secs).toFixed(1),
      'x sitemap': base === undefined ? '' : `${(base / secs).toFixed(1)}x`,
      'vs floor': floor === undefined ? '' : `${(secs / floor).toFixed(2)}x`,
      'peak RSS MiB': fmt.mb(b.rss),
    });
  }
}
server.close();
table(rows, [
  'scenario',
  'contender',
  'URLs read',
  'seconds',
  'CPU s',
  'URLs/s',
  'MB/s',
  'x sitemap',
  'vs floor',
  'peak RSS MiB',
]);
for (const note of baselineNotes) console.log(note);
console.log(
  `\nmedians of ${RUNS} run(s) (tree: ${TREE_RUNS}); load average at the end ${load()}; the library rows include importing the package root: median ${imports.length === 0 ? '-' : median(imports).toFixed(0)} ms`,
);
