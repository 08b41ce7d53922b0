#!/usr/bin/env node
// Recrawl benchmark (issue 12): PostgreSQL 15's HTML docs (Debian postgresql-doc-15, installed
// with apt-get when missing; or --synthetic N pages) served from loopback by bench/crawl-server.mjs
// in its own process, crawled by sitemapkit's CLI into a state, then recrawled with nothing
// changed, side by side in the same run:
//   first     a first crawl, as any crawl (every page 200, not fingerprinted);
//   first-recrawl  the first crawl of a cron job: `--recrawl` with no state yet (fingerprinted);
//   304       `--recrawl` while the server answers the validators: every page a 304, no body;
//   200-same  `--recrawl` while the server sends no validators: every page a 200 with the same
//             main text (fingerprinted and compared).
// Each contender runs in its own process; printed: seconds, peak RSS, body bytes the server sent,
// and the ratios to the first crawl (medians of --runs N). Last, the page
// reader alone over every page of the site, with and without the main-text fingerprint (in this
// process, best of 5), for what fingerprinting costs a normal crawl.
// With --baseline BIN (another build's dist/cli/bin.js, such as the previous release's), its
// first crawl runs in the same run too, without a recrawl: what this build costs a normal crawl.
// --quick: a synthetic site of 500 pages, one run (a smoke run of the script).
// Usage: node bench/recrawl.mjs [--runs 3] [--concurrency 8] [--synthetic N] [--baseline BIN] [--quick]
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  benchFlags,
  ensureAptPackages,
  fmt,
  load,
  median,
  OUT,
  ROOT,
  requireBuild,
  runNode,
  startCrawlServer,
  table,
} from './lib.mjs';

const flags = benchFlags({
  runs: 3,
  concurrency: 8,
  synthetic: { value: null, quick: '500' },
  baseline: null,
});
const RUNS = flags.runs;
const CONCURRENCY = flags.concurrency;
const SYNTHETIC = flags.synthetic;
const BASELINE = flags.baseline;
const BIN = requireBuild();
const PG = '/usr/share/doc/postgresql-doc-15/html';

if (SYNTHETIC === undefined) ensureAptPackages([{ root: PG, pkg: 'postgresql-doc-15' }]);

const server = await startCrawlServer(SYNTHETIC === undefined ? [PG, '/'] : ['--synthetic', SYNTHETIC]);
const control = async (path) => {
  const r = await fetch(`${server.origin}${path}`);
  return r.status === 200 ? r.json() : undefined;
};
const label = SYNTHETIC === undefined ? "PostgreSQL 15's docs" : `a synthetic site of ${SYNTHETIC} pages`;
const out = join(OUT, 'recrawl');
const state = join(out, 'state.db');

async function crawl(kind) {
  await control(`/__validators?${kind === '200-same' ? 'off' : 'on'}`);
  await control('/__stats?reset');
  const args = [
    kind === 'baseline' ? BASELINE : BIN,
    'crawl',
    `${server.origin}/`,
    '--out',
    join(out, 'site'),
    '--report',
    join(out, 'report'),
  ];
  args.push('--state', state, '--concurrency', String(CONCURRENCY), '--quiet', '--json');
  if (kind === 'first' || kind === 'baseline' || kind === 'first-recrawl')
    rmSync(out, { recursive: true, force: true });
  if (kind !== 'first' && kind !== 'baseline') args.push('--recrawl');
  const r = await runNode(args);
  if (r.code !== 0) throw new Error(`crawl (${kind}) exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
  const result = JSON.parse(r.stdout);
  const served = await control('/__stats');
  return { kind, secs: r.secs, rssMiB: r.rssMiB, result, served };
}

console.log(`Recrawl of ${label} from ${server.origin}, concurrency ${CONCURRENCY}, ${RUNS} run(s)`);
const KINDS = [...(BASELINE === undefined ? [] : ['baseline']), 'first', 'first-recrawl', '304', '200-same'];
const runs = Object.fromEntries(KINDS.map((k) => [k, []]));
try {
  // One unmeasured crawl first: the server's file cache and the machine's are warm for every run.
  await crawl('first');
  for (let run = 0; run < RUNS; run++) {
    const before = load();
    // The baseline's first crawl alternates with ours (a drift in the machine's load favours neither).
    const baseline = BASELINE !== undefined && run % 2 === 1 ? await crawl('baseline') : undefined;
    const first = await crawl('first');
    const firstRecrawl = await crawl('first-recrawl');
    // 304 before 200-same: a 200 without validators makes the state forget them (as it should:
    // the server stopped sending them), so the other order would send no conditional request.
    const got = { first, 'first-recrawl': firstRecrawl };
    for (const kind of ['304', '200-same']) got[kind] = await crawl(kind);
    if (BASELINE !== undefined) got.baseline = baseline ?? (await crawl('baseline'));
    for (const kind of KINDS) runs[kind].push(got[kind]);
    const c304 = got['304'].result.stats.changes;
    const c200 = got['200-same'].result.stats.changes;
    console.log(
      `  run ${run + 1}/${RUNS} (load ${before}): ${BASELINE === undefined ? '' : `baseline first ${fmt.s(got.baseline.secs)} s, `}first ${fmt.s(first.secs)} s, first-recrawl ${fmt.s(firstRecrawl.secs)} s, 304 ${fmt.s(got['304'].secs)} s, 200-same ${fmt.s(got['200-same'].secs)} s;` +
        ` 304: ${c304.notModified}/${c304.unchanged} unchanged answered 304, ${c304.changed} changed; 200-same: ${c200.unchanged} unchanged, ${c200.changed} changed`,
    );
    if (c304.changed + c200.changed + c304.added + c200.added + c304.removed + c200.removed > 0)
      throw new Error('a recrawl of an unchanged site observed changes');
  }
} finally {
  server.close();
}

const base = median(runs.first.map((r) => r.secs));
const rows = KINDS.map((kind) => {
  const rs = runs[kind];
  const secs = median(rs.map((r) => r.secs));
  return {
    crawl: kind,
    pages: fmt.n(rs[0].result.stats.requests),
    seconds: fmt.s(secs),
    'vs first': kind === 'first' ? '' : `${(secs / base).toFixed(2)}x`,
    'peak RSS MiB': fmt.mb(median(rs.map((r) => r.rssMiB))),
    'body bytes sent': fmt.n(median(rs.map((r) => r.served.bytes))),
    '304s': fmt.n(median(rs.map((r) => r.served.notModified))),
  };
});
console.log();
table(rows, ['crawl', 'pages', 'seconds', 'vs first', 'peak RSS MiB', 'body bytes sent', '304s']);

// The page reader alone: what fingerprinting costs a normal crawl's parsing.
if (SYNTHETIC === undefined) {
  const { PageMetaReader } = await import(join(ROOT, 'dist/page/page-meta.js'));
  const pages = readdirSync(PG)
    .filter((f) => f.endsWith('.html'))
    .map((f) => readFileSync(join(PG, f), 'utf8'));
  const mb = pages.reduce((n, p) => n + Buffer.byteLength(p), 0) / 1e6;
  const time = (fingerprint) => {
    let best = Number.POSITIVE_INFINITY;
    for (let k = 0; k < 5; k++) {
      const t = performance.now();
      for (const p of pages) {
        const r = new PageMetaReader({ fingerprint });
        r.write(p);
        r.end();
        r.fingerprint();
      }
      best = Math.min(best, performance.now() - t);
    }
    return best;
  };
  time(true);
  const lean = time(false);
  const fp = time(true);
  console.log(
    `\nPage reader over ${pages.length} pages (${mb.toFixed(1)} MB): ${lean.toFixed(0)} ms without the fingerprint, ${fp.toFixed(0)} ms with it (${(fp / lean).toFixed(2)}x, best of 5)`,
  );
}
