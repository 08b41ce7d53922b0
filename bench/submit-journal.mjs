#!/usr/bin/env node
// Submission journal benchmark (issue 13): what keeping the journal costs a submission, side by
// side in the same run. The CLI submits N URLs (a text list) to local endpoints served by this
// process on 127.0.0.1, each contender in its own process:
//   indexnow --no-journal   today's IndexNow submission (the baseline): batches of 10,000
//   indexnow                the same with the journal (plan written and fsynced first, one
//                           fsynced log line per batch, the plan removed at the end)
//   bing --no-journal       Bing Webmaster Tools, SubmitUrlBatch of 500 (quota read first)
//   bing                    the same with the journal
// Printed: medians of --runs N (seconds, peak RSS), and each journal run's ratio to its baseline.
// Usage: node bench/submit-journal.mjs [--urls 200000] [--runs 3] [--quick]
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { benchFlags, fmt, OUT, requireBuild, runNode, table } from './lib.mjs';

const flags = benchFlags({ urls: { value: 200_000, quick: 5000 }, runs: 3 });
const N = flags.urls;
const RUNS = flags.runs;
const BIN = requireBuild();
const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const SITE = 'https://www.example.com/';

let received = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (d) => chunks.push(d));
  req.on('end', () => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received += body.urlList?.length ?? 0;
    }
    if (path === '/indexnow') return res.writeHead(200).end();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    if (path.endsWith('/GetUrlSubmissionQuota'))
      return res.end(JSON.stringify({ d: { DailyQuota: 1e9, MonthlyQuota: 1e9 } }));
    res.end('{"d":null}');
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const dir = join(OUT, 'submit-journal');
const { mkdirSync } = await import('node:fs');
mkdirSync(dir, { recursive: true });
const list = join(dir, 'urls.txt');
writeFileSync(list, Array.from({ length: N }, (_, i) => `${SITE}section-${i % 97}/page-${i}\n`).join(''));

const contenders = {
  'indexnow --no-journal': [
    'submit',
    '--indexnow',
    `${origin}/indexnow`,
    '--key',
    KEY,
    '--no-verify-key',
    '--urls',
    list,
    '--no-journal',
  ],
  indexnow: ['submit', '--indexnow', `${origin}/indexnow`, '--key', KEY, '--no-verify-key', '--urls', list],
  'bing --no-journal': [
    'submit',
    '--engine',
    'bing',
    '--site',
    SITE,
    '--bing-api-root',
    `${origin}/webmaster/api.svc/json/`,
    '--urls',
    list,
    '--no-journal',
  ],
  bing: [
    'submit',
    '--engine',
    'bing',
    '--site',
    SITE,
    '--bing-api-root',
    `${origin}/webmaster/api.svc/json/`,
    '--urls',
    list,
  ],
};

const results = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
for (let run = 0; run < RUNS; run++) {
  for (const [name, args] of Object.entries(contenders)) {
    received = 0;
    const r = await runNode([BIN, ...args], { env: { BING_WEBMASTER_API_KEY: KEY } });
    if (r.code !== 0 || received !== N)
      throw new Error(`${name}: exit ${r.code}, ${received} of ${N} URLs received\n${r.stderr}`);
    results[name].push(r);
  }
}
server.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = Object.entries(results).map(([name, rs]) => {
  const secs = median(rs.map((r) => r.secs));
  const base = name.endsWith('--no-journal')
    ? undefined
    : median(results[`${name} --no-journal`].map((r) => r.secs));
  return {
    contender: name,
    URLs: fmt.n(N),
    's (median)': fmt.s(secs),
    'URLs/s': fmt.n(N / secs),
    'peak RSS MiB': fmt.mb(median(rs.map((r) => r.rssMiB))),
    'vs no journal': base === undefined ? '' : `${(secs / base).toFixed(2)}x`,
  };
});
console.log(`submit ${fmt.n(N)} URLs from a text list to local endpoints, ${RUNS} run(s) each, medians`);
table(rows, ['contender', 'URLs', 's (median)', 'URLs/s', 'peak RSS MiB', 'vs no journal']);
