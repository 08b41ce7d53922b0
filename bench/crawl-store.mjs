#!/usr/bin/env node
// crawl --store benchmark (issue 12): a synthetic site of N pages (bench/crawl-server.mjs, its own
// process, validators on) crawled by sitemapkit's CLI with 1,000 URLs a file, side by side in the
// same run, each contender in its own process:
//   plain first / plain recrawl   the crawl's own writer: every file written each time;
//   store first / store recrawl   `--store`: the crawl's entries synchronised into the site store
//                                 and built as one unit (a recrawl of an unchanged site: every page
//                                 a 304, every file kept).
// Printed: medians of --runs N of seconds and peak RSS, the ratio of each store run to its plain
// peer, and the files the publish wrote.
// Usage: node bench/crawl-store.mjs [--runs 3] [--pages 10000] [--concurrency 8] [--quick]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  benchFlags,
  fmt,
  load,
  median,
  OUT,
  requireBuild,
  runNode,
  startCrawlServer,
  table,
} from './lib.mjs';

const flags = benchFlags({ runs: 3, pages: { value: 10000, quick: 500 }, concurrency: 8 });
const RUNS = flags.runs;
const PAGES = flags.pages;
const CONCURRENCY = flags.concurrency;
const BIN = requireBuild();

const server = await startCrawlServer(['--synthetic', String(PAGES)]);
await fetch(`${server.origin}/__validators?on`);
const out = join(OUT, 'crawl-store');

async function crawl(mode, phase) {
  const dir = join(out, mode);
  if (phase === 'first') rmSync(dir, { recursive: true, force: true });
  const args = [BIN, 'crawl', `${server.origin}/`, '--out', join(dir, 'site'), '--no-report'];
  args.push('--state', join(dir, 'state.db'), '--recrawl', '--max-urls', '1000');
  args.push('--concurrency', String(CONCURRENCY), '--quiet', '--json');
  if (mode === 'store') args.push('--store', join(dir, 'store.db'));
  else args.push('--no-html');
  const r = await runNode(args);
  if (r.code !== 0) throw new Error(`crawl (${mode} ${phase}) exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  const result = JSON.parse(r.stdout);
  const written =
    mode === 'store'
      ? result.store.files.filter((f) => f.change !== 'kept').length
      : result.sitemaps.files.length;
  return { secs: r.secs, rssMiB: r.rssMiB, written, pages: result.stats.listed };
}

const KINDS = ['plain first', 'store first', 'plain recrawl', 'store recrawl'];
const runs = Object.fromEntries(KINDS.map((k) => [k, []]));
console.log(
  `crawl --store over a synthetic site of ${PAGES} pages, concurrency ${CONCURRENCY}, ${RUNS} run(s)`,
);
try {
  await crawl('plain', 'first'); // unmeasured: warm caches
  for (let run = 0; run < RUNS; run++) {
    const before = load();
    // Alternate which contender goes first: a drift in the machine's load favours neither.
    const order = run % 2 === 0 ? ['plain', 'store'] : ['store', 'plain'];
    const got = {};
    for (const phase of ['first', 'recrawl'])
      for (const mode of order) got[`${mode} ${phase}`] = await crawl(mode, phase);
    for (const k of KINDS) runs[k].push(got[k]);
    console.log(
      `  run ${run + 1}/${RUNS} (load ${before}): ${KINDS.map((k) => `${k} ${fmt.s(got[k].secs)} s`).join(', ')}`,
    );
  }
} finally {
  server.close();
}

const rows = KINDS.map((k) => {
  const secs = median(runs[k].map((r) => r.secs));
  const [mode, phase] = k.split(' ');
  const peer = mode === 'store' ? median(runs[`plain ${phase}`].map((r) => r.secs)) : undefined;
  return {
    crawl: k,
    pages: fmt.n(runs[k][0].pages),
    seconds: fmt.s(secs),
    'vs plain': peer === undefined ? '' : `${(secs / peer).toFixed(2)}x`,
    'peak RSS MiB': fmt.mb(median(runs[k].map((r) => r.rssMiB))),
    'files written': fmt.n(median(runs[k].map((r) => r.written))),
  };
});
console.log();
table(rows, ['crawl', 'pages', 'seconds', 'vs plain', 'peak RSS MiB', 'files written']);
