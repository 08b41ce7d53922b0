#!/usr/bin/env node
// The PostgreSQL frontier against the SQLite one (issue 17), at the library level: one worker's
// `crawl()` with `state: 'postgres://…'` against the SQLite crawl of one process, on a synthetic
// loopback site (bench/crawl-server.mjs --synthetic N, its own process), each crawl in its own
// process (peak RSS from bench/rss-hook.mjs), alternating, medians of --runs. The PostgreSQL is a
// throwaway cluster (test/support/postgres-cluster.mjs). For the PostgreSQL runs it also reads the
// database's committed transactions and rows written per page (pg_stat_database), the per-page
// cost that says how many workers one server can feed. Same-run ratios; the load average is printed.
// Usage: node bench/frontier-postgres.mjs [--pages N] [--concurrency 8] [--runs 3] [--quick]
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { startPostgres } from '../test/support/postgres-cluster.mjs';
import { benchFlags, fmt, load, median, OUT, ROOT, runNode, startCrawlServer, table } from './lib.mjs';

const flags = benchFlags({ pages: { value: 20_000, quick: 500 }, concurrency: 8, runs: 3 });
const CRAWLER = join(ROOT, 'dist/crawler/index.js');

function script(options) {
  return `import { crawl } from ${JSON.stringify(CRAWLER)};
const r = await crawl(${JSON.stringify(options)});
console.log(JSON.stringify({ fetched: r.stats.fetched, listed: r.stats.listed }));`;
}

async function dbStats(pg) {
  const r = await pg.query(
    'SELECT xact_commit::float8 AS commits, (tup_inserted + tup_updated)::float8 AS rows FROM pg_stat_database WHERE datname = $1',
    [pg.database],
  );
  return r.rows[0];
}

const server = await startCrawlServer(['--synthetic', String(flags.pages)]);
const pg = await startPostgres();
const out = { sqlite: [], postgres: [] };
let perPage;
try {
  for (let run = 0; run < flags.runs; run++) {
    for (const kind of run % 2 === 0 ? ['sqlite', 'postgres'] : ['postgres', 'sqlite']) {
      const dir = join(OUT, `frontier-postgres-${kind}`);
      rmSync(dir, { recursive: true, force: true });
      const options = {
        start: `${server.origin}/`,
        outDir: join(dir, 'out'),
        concurrency: flags.concurrency,
        report: false,
        ...(kind === 'postgres'
          ? { state: pg.url, crawlId: `bench${run}` }
          : { state: join(dir, 'state.db') }),
      };
      const before = kind === 'postgres' ? await dbStats(pg) : undefined;
      const r = await runNode(['--input-type=module', '-e', script(options)]);
      if (r.code !== 0) throw new Error(`${kind} failed: ${r.stderr}`);
      const { fetched } = JSON.parse(r.stdout.trim().split('\n').pop());
      out[kind].push({ pps: fetched / r.secs, rss: r.rssMiB, cpu: r.cpuSecs / fetched });
      if (before !== undefined) {
        const after = await dbStats(pg);
        perPage = {
          commits: (after.commits - before.commits) / fetched,
          rows: (after.rows - before.rows) / fetched,
        };
      }
    }
  }
} finally {
  server.close();
  await pg.stop();
}
const m = (kind, k) => median(out[kind].map((x) => x[k]));
console.log(
  `frontier-postgres: ${flags.pages} pages, concurrency ${flags.concurrency}, ${flags.runs} runs, load ${load()}`,
);
table(
  ['sqlite', 'postgres'].map((kind) => ({
    frontier: kind,
    'pages/s': fmt.n(m(kind, 'pps')),
    'worker CPU ms/page': (m(kind, 'cpu') * 1000).toFixed(3),
    'peak RSS MiB': fmt.mb(m(kind, 'rss')),
  })),
  ['frontier', 'pages/s', 'worker CPU ms/page', 'peak RSS MiB'],
);
console.log(`postgres / sqlite pages per second: ${(m('postgres', 'pps') / m('sqlite', 'pps')).toFixed(2)}x`);
console.log(
  `database work per page (one worker): ${perPage.commits.toFixed(3)} transactions, ${perPage.rows.toFixed(1)} rows inserted or updated`,
);
