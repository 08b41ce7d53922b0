#!/usr/bin/env node
// The crawl state's writes on their own (issue 16): the synthetic site's pattern (bench/crawl-server.mjs
// --synthetic: each page names home, 20 menu pages, its parent and 10 new children) replayed
// through the SQLite frontier of a build, with a commit every two pages as the loop makes on a
// fast local site, into a state file; no network, no HTML. With --before DIR, another build (its
// dist/, say main's kept aside) replays the same pages in the same run, the order alternating over
// --runs: microseconds of wall time a page (medians), the same-run ratios and peak RSS.
// Usage: node bench/crawl-state.mjs [--pages 20000] [--runs 3] [--before DIR] [--quick]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { benchFlags, fmt, load, median, OUT, ROOT, requireBuild, runNode, table } from './lib.mjs';

const flags = benchFlags({ pages: { value: 20_000, quick: 500 }, before: null, child: null });

if (flags.child !== undefined) {
  // One replay, in its own process: prints the µs a page.
  const dist = pathToFileURL(`${flags.child}/`).href;
  const { CrawlState } = await import(new URL('crawler/state.js', dist).href);
  const { SqliteFrontier } = await import(new URL('crawler/frontier-sqlite.js', dist).href);
  const dir = join(OUT, `crawl-state-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  const state = await CrawlState.open(join(dir, 'state.db'), 'new');
  const frontier = new SqliteFrontier(state, { maxDepth: 100 });
  const o = 'http://127.0.0.1:8080';
  const page = (i) => `${o}/s/${i}/page.html`;
  const queue = () => ({ kind: 'queued' });
  frontier.add([{ url: `${o}/`, depth: 0, source: 'start' }], queue);
  await frontier.commit();
  const t0 = performance.now();
  let n = 0;
  while (n < flags.pages) {
    const leases = await frontier.lease(8);
    if (leases.length === 0) break;
    for (const l of leases) {
      const i = l.url === `${o}/` ? 0 : Number(/\/s\/(\d+)\//.exec(l.url)[1]);
      const names = [`${o}/`, ...Array.from({ length: 20 }, (_, k) => page(k))];
      if (i > 0) names.push(page(Math.floor((i - 1) / 10)));
      for (let c = 10 * i + 1; c <= 10 * i + 10; c++) names.push(page(c));
      const found = names.map((url) => ({ url, depth: l.depth + 1, source: 'link' }));
      const outcome = {
        verdict: 'listed',
        status: 200,
        title: `Synthetic page ${i}`,
        bytes: 3000,
        ms: 1,
        attempts: 1,
      };
      frontier.finish(l, outcome, found, queue);
      if (++n % 2 === 0) await frontier.commit();
    }
  }
  await frontier.commit();
  const ms = performance.now() - t0;
  state.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(JSON.stringify({ pages: n, usPerPage: (ms / n) * 1000 }));
  process.exit(0);
}

const BUILD = join(ROOT, 'dist');
requireBuild();
const contenders = [{ name: 'sitemapkit', dist: BUILD, runs: [] }];
if (flags.before !== undefined) contenders.push({ name: 'sitemapkit before', dist: flags.before, runs: [] });
const ratios = [];
for (let run = 0; run < flags.runs; run++) {
  const before = load();
  const order = run % 2 === 0 ? contenders : [...contenders].reverse();
  const got = new Map();
  for (const c of order) {
    const r = await runNode([
      join(ROOT, 'bench/crawl-state.mjs'),
      '--child',
      c.dist,
      '--pages',
      String(flags.pages),
    ]);
    if (r.code !== 0) throw new Error(`${c.name} exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
    const res = { ...JSON.parse(r.stdout), rssMiB: r.rssMiB };
    c.runs.push(res);
    got.set(c, res);
  }
  if (contenders.length === 2)
    ratios.push(got.get(contenders[1]).usPerPage / got.get(contenders[0]).usPerPage);
  console.log(
    `run ${run + 1}/${flags.runs} (load ${before}): ${contenders.map((c) => `${c.name} ${got.get(c).usPerPage.toFixed(0)} µs a page`).join('; ')}`,
  );
}
const rows = contenders.map((c) => ({
  contender: c.name,
  pages: fmt.n(c.runs[0].pages),
  'µs a page': median(c.runs.map((r) => r.usPerPage)).toFixed(0),
  'peak RSS MiB': fmt.mb(Math.max(...c.runs.map((r) => r.rssMiB))),
}));
if (ratios.length > 0)
  rows.push({
    contender: `median ratio of ${ratios.length} (before ÷ this)`,
    'µs a page': `${median(ratios).toFixed(2)}x`,
  });
table(rows, ['contender', 'pages', 'µs a page', 'peak RSS MiB']);
console.log(
  `Same-run ratios: ${ratios.map((r) => `${r.toFixed(2)}x`).join(', ')}. Load average at the end: ${load()}.`,
);
