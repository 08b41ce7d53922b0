#!/usr/bin/env node
// What the progress line of `crawl --workers N` costs the database on a big shared crawl (issue
// 17): the count over every URL that it made every 3 seconds before (the status `crawl-status`
// reads, `openPostgresCrawl().status()`, a connection each time), against the queue size read
// through the queue's indexes (`openPostgresQueue().size()`, one connection kept), on a crawl of
// --urls URLs of which 1% are queued, the rest finished. Alternating, medians of --runs; the load
// average is printed. The PostgreSQL is a throwaway cluster (test/support/postgres-cluster.mjs).
// Usage: node bench/pg-progress.mjs [--urls 2000000] [--runs 5] [--quick]
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startPostgres } from '../test/support/postgres-cluster.mjs';
import { benchFlags, fmt, load, median, ROOT, requireBuild, table } from './lib.mjs';

const flags = benchFlags({ urls: { value: 2_000_000, quick: 20_000 }, runs: { value: 5, quick: 1 } });
requireBuild();
const mod = (f) => import(pathToFileURL(join(ROOT, 'dist/crawler', f)).href);
const { openPgDb, pgTarget } = await mod('frontier-postgres-db.js');
const { ensureCrawlSchema } = await mod('frontier-postgres-schema.js');
const { openPostgresCrawl } = await mod('frontier-postgres-read.js');
const { openPostgresQueue } = await mod('frontier-postgres-queue.js');

const pg = await startPostgres();
const ms = { status: [], size: [] };
let shown;
try {
  const db = await openPgDb(pgTarget(pg.url, 'big'), {
    size: 1,
    retryMs: 0,
    sleep: async () => {},
    name: 'bench',
  });
  await ensureCrawlSchema(db);
  await db.close();
  await pg.query(
    `INSERT INTO "crawl_big".urls (id, h, url, depth, source, state, verdict)
     SELECT i, md5(i::text)::uuid, 'https://shop.test/p/' || i, 3, 'link',
       CASE WHEN i % 100 = 0 THEN 0 ELSE 2 END, CASE WHEN i % 100 = 0 THEN NULL ELSE 'listed' END
     FROM generate_series(1, $1::int) AS i`,
    [flags.urls],
  );
  await pg.query('VACUUM ANALYZE "crawl_big".urls');
  const queue = await openPostgresQueue(pg.url, 'big');
  try {
    for (let run = 0; run < flags.runs; run++) {
      for (const kind of run % 2 === 0 ? ['status', 'size'] : ['size', 'status']) {
        const t0 = performance.now();
        if (kind === 'status') {
          const c = await openPostgresCrawl(pg.url, 'big');
          await c.status();
          await c.close();
        } else shown = await queue.size();
        ms[kind].push(performance.now() - t0);
      }
    }
  } finally {
    await queue.close();
  }
} finally {
  await pg.stop();
}
console.log(`pg-progress: ${fmt.n(flags.urls)} URLs (1% queued), ${flags.runs} runs, load ${load()}`);
table(
  [
    { read: 'count over urls (before)', 'ms per poll': fmt.s(median(ms.status)) },
    { read: 'queue through its indexes', 'ms per poll': fmt.s(median(ms.size)) },
  ],
  ['read', 'ms per poll'],
);
console.log(
  `queue size read: ${fmt.n(shown.size)}${shown.estimated ? ' (estimated)' : ''}; count / index read: ${(median(ms.status) / median(ms.size)).toFixed(1)}x`,
);
