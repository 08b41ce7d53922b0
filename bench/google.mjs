#!/usr/bin/env node
// Google Search Console submit benchmark (issue 13): what one deploy's submission costs in requests
// and time. A local stand-in for Google (token endpoint and sitemaps API on 127.0.0.1) answers
// each request after LATENCY ms, as a remote API would; two contenders submit the same build (an
// index and its CHILDREN children), each in its own process:
//   sitemapkit — `sitemapkit submit --engine google --sitemap dist/` (the token cached for the run)
//   per-call   — a hand-written script as often seen: for each sitemap, sign a JWT, fetch a token,
//                PUT the sitemap (node:crypto and fetch, nothing cached)
// It prints the median wall time of RUNS runs, the requests each made, and peak RSS.
// Usage: npm run build && node bench/google.mjs [--children N] [--latency MS] [--runs N] [--quick]
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { benchFlags, fmt, OUT, ROOT, runNode, table } from './lib.mjs';

const flags = benchFlags({
  children: { value: 100, quick: 10 },
  latency: { value: 20, quick: 1 },
  runs: 3,
});
const CHILDREN = flags.children;
const LATENCY = flags.latency;
const RUNS = flags.runs;
const SITE = 'https://www.example.com/';

let requests = 0;
let tokens = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    requests++;
    setTimeout(() => {
      if (req.url === '/token') {
        tokens++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: `t${tokens}`, expires_in: 3599, token_type: 'Bearer' }));
        return;
      }
      const ok = req.method === 'PUT' && /^Bearer t\d+$/.test(req.headers.authorization ?? '');
      res.writeHead(ok ? 200 : 401).end();
    }, LATENCY);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const root = `http://127.0.0.1:${server.address().port}/`;

const work = join(OUT, 'google');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = join(work, 'key.json');
writeFileSync(
  key,
  JSON.stringify({
    type: 'service_account',
    client_email: 'bench@bench.iam.gserviceaccount.com',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    token_uri: `${root}token`,
  }),
);
// A build of CHILDREN children (2 URLs each), all new: the entry point and every child are submitted.
const { writeSitemaps } = await import(join(ROOT, 'dist/writer/write-sitemaps.js'));
const dist = join(work, 'dist');
await writeSitemaps(
  Array.from({ length: CHILDREN * 2 }, (_, i) => ({ loc: `${SITE}p${i}` })),
  { outDir: dist, baseUrl: SITE, maxUrlsPerFile: 2 },
);
const sitemaps = [
  `${SITE}sitemap.xml`,
  ...Array.from({ length: CHILDREN }, (_, i) => `${SITE}sitemap-${String(i + 1).padStart(5, '0')}.xml`),
];
const list = join(work, 'sitemaps.json');
writeFileSync(list, JSON.stringify(sitemaps));

const perCall = join(work, 'per-call.mjs');
writeFileSync(
  perCall,
  `import { readFileSync } from 'node:fs';
import { createPrivateKey, sign } from 'node:crypto';
const [keyFile, listFile, root, site] = process.argv.slice(2);
const k = JSON.parse(readFileSync(keyFile, 'utf8'));
const pk = createPrivateKey(k.private_key);
const b64 = (x) => Buffer.from(x).toString('base64url');
for (const s of JSON.parse(readFileSync(listFile, 'utf8'))) {
  const iat = Math.floor(Date.now() / 1000);
  const h = b64(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const c = b64(JSON.stringify({ iss: k.client_email, scope: 'https://www.googleapis.com/auth/webmasters', aud: k.token_uri, iat, exp: iat + 3600 }));
  const jwt = h + '.' + c + '.' + b64(sign('sha256', Buffer.from(h + '.' + c), pk));
  const t = await (await fetch(k.token_uri, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: jwt }) })).json();
  const r = await fetch(root + 'webmasters/v3/sites/' + encodeURIComponent(site) + '/sitemaps/' + encodeURIComponent(s), { method: 'PUT', headers: { authorization: 'Bearer ' + t.access_token }, body: '' });
  if (r.status !== 200) process.exit(1);
}
`,
);

const contenders = {
  sitemapkit: [
    join(ROOT, 'dist/cli/bin.js'),
    'submit',
    '--engine',
    'google',
    '--site',
    SITE,
    '--credentials',
    key,
    '--google-api-root',
    root,
    '--sitemap',
    dist,
  ],
  'per-call': [perCall, key, list, root, SITE],
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
for (const [name, args] of Object.entries(contenders)) {
  const secs = [];
  const rss = [];
  let made = 0;
  for (let i = 0; i < RUNS; i++) {
    requests = 0;
    const r = await runNode(args);
    if (r.code !== 0) throw new Error(`${name} failed: ${r.stderr}`);
    secs.push(r.secs);
    rss.push(r.rssMiB);
    made = requests;
  }
  rows.push({ name, secs: median(secs), rss: median(rss), made });
}
server.close();
const base = rows.find((r) => r.name === 'per-call');
console.log(
  `Submitting ${sitemaps.length} sitemaps (an index and ${CHILDREN} children), ${LATENCY} ms per answer, median of ${RUNS} runs:\n`,
);
table(
  rows.map((r) => ({
    contender: r.name,
    seconds: fmt.s(r.secs),
    'vs per-call': `${(base.secs / r.secs).toFixed(2)}x`,
    requests: fmt.n(r.made),
    'peak RSS MiB': fmt.mb(r.rss),
  })),
  ['contender', 'seconds', 'vs per-call', 'requests', 'peak RSS MiB'],
);
