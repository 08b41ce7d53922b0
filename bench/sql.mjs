#!/usr/bin/env node
// --from-sql benchmark (issue 12): rows of a PostgreSQL table (loaded once with generate_series in a
// throwaway cluster, as the tests start one) into sitemaps, against the way a user does it today:
// `psql -c "\copy (SELECT …) TO STDOUT WITH CSV HEADER" | sitemapkit generate - --input-format csv`.
// Both in the same run, interleaved, each sitemapkit in its own process; then the same rows from a
// SQLite file. Peak RSS is sitemapkit's (psql streams \copy, its memory is not counted).
// Usage: node bench/sql.mjs [--rows N[,N…]] [--runs N]   (default 100000,1000000 rows, best of 2)
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startPostgres } from '../test/support/postgres-cluster.mjs';
import { fmt, OUT, ROOT, runNode, table } from './lib.mjs';

const argv = process.argv.slice(2);
const arg = (name, dflt) => {
  const i = argv.indexOf(name);
  return i === -1 ? dflt : argv[i + 1];
};
const SIZES = String(arg('--rows', '100000,1000000'))
  .split(',')
  .map((s) => Number(s.replace(/_/g, '')));
const RUNS = Number(arg('--runs', 2));
const BIN = join(ROOT, 'dist/cli/bin.js');
const BASE = 'https://example.com/';

// The same entries either way; through psql the timestamp must be formatted by hand, since the CSV
// input (rightly) refuses PostgreSQL's own "2024-03-01 00:00:00+00".
const COLUMNS = (n) => `url AS loc, updated_at AS lastmod, changefreq, priority FROM pages WHERE id <= ${n}`;
const COPY_COLUMNS = (n) =>
  `url AS loc, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS lastmod, changefreq, priority FROM pages WHERE id <= ${n}`;

/** `psql … | node sitemapkit …`: wall time of the pipeline, peak RSS of sitemapkit. */
function runPipeline(psqlArgs, env, nodeArgs) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const psql = spawn(psqlArgs[0], psqlArgs.slice(1), {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const node = spawn(
      process.execPath,
      ['--import', new URL('./rss-hook.mjs', import.meta.url).href, ...nodeArgs],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    psql.stdout.pipe(node.stdin);
    let stderr = '';
    psql.stderr.on('data', (d) => {
      stderr += d;
    });
    node.stderr.on('data', (d) => {
      stderr += d;
    });
    node.stdout.resume();
    psql.on('error', reject);
    node.on('error', reject);
    node.on('close', (code) => {
      const secs = Number(process.hrtime.bigint() - t0) / 1e9;
      const m = /SK_MAXRSS=(\d+)/.exec(stderr);
      resolve({ code, secs, rssMiB: m ? Number(m[1]) / 1024 : Number.NaN, stderr });
    });
  });
}

const pg = await startPostgres();
try {
  const max = Math.max(...SIZES);
  let t = process.hrtime.bigint();
  await pg.query(`CREATE TABLE pages AS
    SELECT n AS id, 'https://example.com/products/item-' || n || '?ref=list&page=' || (n % 97) AS url,
           timestamptz '2024-03-01 00:00:00+00' + (n % 28) * interval '1 day' + (n % 86400) * interval '1 second' AS updated_at,
           (ARRAY['daily', 'weekly', 'monthly'])[n % 3 + 1] AS changefreq,
           ((n % 10) / 10.0)::numeric(2, 1) AS priority
    FROM generate_series(1, ${max}) AS n;
    CREATE INDEX ON pages (id); ANALYZE pages;`);
  const loadSecs = Number(process.hrtime.bigint() - t) / 1e9;

  const sqliteFile = join(OUT, 'sql-pages.db');
  rmSync(sqliteFile, { force: true });
  t = process.hrtime.bigint();
  const lite = new Database(sqliteFile);
  lite.exec(
    'CREATE TABLE pages (id INTEGER PRIMARY KEY, url TEXT, updated_at TEXT, changefreq TEXT, priority REAL)',
  );
  const insert = lite.prepare('INSERT INTO pages VALUES (?, ?, ?, ?, ?)');
  lite.transaction(() => {
    for (let n = 1; n <= max; n++) {
      // The same instants as the PostgreSQL table: one a second, so nearly every lastmod is new.
      const at = new Date(Date.UTC(2024, 2, 1) + (n % 28) * 86_400_000 + (n % 86_400) * 1000);
      const text = at.toISOString().slice(0, 19).replace('T', ' ');
      insert.run(
        n,
        `https://example.com/products/item-${n}?ref=list&page=${n % 97}`,
        text,
        ['daily', 'weekly', 'monthly'][n % 3],
        (n % 10) / 10,
      );
    }
  })();
  lite.close();
  const liteSecs = Number(process.hrtime.bigint() - t) / 1e9;
  console.log(
    `\nLoaded ${max.toLocaleString('en-US')} rows: PostgreSQL ${pg.bin('postgres').split('/').at(-3)} in ${loadSecs.toFixed(1)} s, SQLite in ${liteSecs.toFixed(1)} s`,
  );

  const contenders = [
    {
      name: 'sitemapkit --from-sql (PostgreSQL)',
      run: (n, out) =>
        runNode([
          BIN,
          'generate',
          '--from-sql',
          `SELECT ${COLUMNS(n)}`,
          '--db',
          pg.url,
          '--base-url',
          BASE,
          '--out',
          out,
        ]),
    },
    {
      name: 'psql \\copy CSV | sitemapkit generate -',
      run: (n, out) =>
        runPipeline(
          [pg.bin('psql'), '-X', '-q', '-c', `\\copy (SELECT ${COPY_COLUMNS(n)}) TO STDOUT WITH CSV HEADER`],
          pg.env,
          [BIN, 'generate', '-', '--input-format', 'csv', '--base-url', BASE, '--out', out],
        ),
    },
    {
      // The duplicate check holds about 8 bytes a URL; without it the writer's memory is flatter.
      name: 'sitemapkit --from-sql --no-dedupe (PostgreSQL)',
      run: (n, out) =>
        runNode([
          BIN,
          'generate',
          '--from-sql',
          `SELECT ${COLUMNS(n)}`,
          '--db',
          pg.url,
          '--no-dedupe',
          '--base-url',
          BASE,
          '--out',
          out,
        ]),
    },
    {
      name: 'sitemapkit --from-sql (SQLite)',
      run: (n, out) =>
        runNode([
          BIN,
          'generate',
          '--from-sql',
          `SELECT ${COLUMNS(n)}`,
          '--db',
          `sqlite:${sqliteFile}`,
          '--base-url',
          BASE,
          '--out',
          out,
        ]),
    },
  ];

  const rows = [];
  for (const n of SIZES) {
    const results = {};
    for (let run = 0; run < RUNS; run++) {
      for (const c of contenders) {
        const out = join(OUT, `sql-${c.name.replace(/\W+/g, '_')}`);
        rmSync(out, { recursive: true, force: true });
        const r = await c.run(n, out);
        if (r.code !== 0) {
          throw new Error(`${c.name} failed (${r.code}): ${r.stderr}`);
        }
        const best = results[c.name];
        results[c.name] =
          best === undefined
            ? r
            : { secs: Math.min(best.secs, r.secs), rssMiB: Math.max(best.rssMiB, r.rssMiB) };
        rmSync(out, { recursive: true, force: true });
      }
    }
    const today = results[contenders[1].name];
    for (const c of contenders) {
      const r = results[c.name];
      rows.push({
        rows: fmt.n(n),
        contender: c.name,
        seconds: fmt.s(r.secs),
        'rows/s': fmt.n(n / r.secs),
        'x vs psql|csv': `${(today.secs / r.secs).toFixed(2)}x`,
        'peak RSS MiB': fmt.mb(r.rssMiB),
      });
    }
  }
  console.log(
    `\n--from-sql: rows into 50,000-URL sitemaps, best of ${RUNS} (peak RSS: the worst run; Node ${process.version})\n`,
  );
  table(rows, ['rows', 'contender', 'seconds', 'rows/s', 'x vs psql|csv', 'peak RSS MiB']);
  rmSync(sqliteFile, { force: true });
} finally {
  await pg.stop();
}
