#!/usr/bin/env node
// robots.txt benchmark (issue 4): sitemapkit's parser/matcher against robots-parser@3 (the most used
// npm parser), each contender in its own process so that peak RSS is its own. Three workloads:
//   parse  — a realistic 60 KB robots.txt (1,000 rules for *, 20 agent groups, wildcards), parsed 300 times
//   match  — 1,000,000 isAllowed() calls against that file, for varied URLs and agents
//   large  — a 500 KiB robots.txt (the RFC 9309 parse limit), parsed 20 times
// plus the agreement of each with Google's 545 conformance cases (test/fixtures/spec).
// Usage: npm run build && node bench/robots.mjs [--checks N]
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fmt, ROOT, runNode, table } from './lib.mjs';

const argv = process.argv.slice(2);
const CHECKS = (() => {
  const i = argv.indexOf('--checks');
  return i === -1 ? 1_000_000 : Number(argv[i + 1]);
})();

// A deterministic generator, so every run and contender sees the same input.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = [
  'shop',
  'cart',
  'search',
  'account',
  'blog',
  'tag',
  'img',
  'api',
  'admin',
  'tmp',
  'print',
  'user',
  'en',
  'de',
  'static',
];
const pick = (r, a) => a[Math.floor(r() * a.length)];

function makeRobots(rules, groups) {
  const r = rng(42);
  const rule = () => {
    const depth = 1 + Math.floor(r() * 3);
    let p = '';
    for (let d = 0; d < depth; d++) p += `/${pick(r, WORDS)}${r() < 0.3 ? `-${Math.floor(r() * 100)}` : ''}`;
    const x = r();
    if (x < 0.15) p = `/*${p}`;
    else if (x < 0.25) p += '*.php$';
    else if (x < 0.35) p += '?*sort=';
    return `${r() < 0.75 ? 'Disallow' : 'Allow'}: ${p}`;
  };
  const lines = ['# generated for the benchmark', 'User-agent: *'];
  for (let i = 0; i < rules; i++) lines.push(rule());
  for (let g = 0; g < groups; g++) {
    lines.push('', `User-agent: Bot${String.fromCharCode(65 + (g % 26))}${g}`, 'Crawl-delay: 2');
    for (let i = 0; i < 50; i++) lines.push(rule());
  }
  lines.push('', 'Sitemap: https://www.example.com/sitemap.xml');
  return `${lines.join('\n')}\n`;
}

function makeUrls(n) {
  const r = rng(7);
  const out = [];
  for (let i = 0; i < n; i++) {
    let p = '';
    const depth = 1 + Math.floor(r() * 4);
    for (let d = 0; d < depth; d++) p += `/${pick(r, WORDS)}${r() < 0.4 ? `-${Math.floor(r() * 100)}` : ''}`;
    if (r() < 0.2) p += '/index.php';
    if (r() < 0.3) p += `?id=${i}&sort=${pick(r, WORDS)}`;
    out.push(`https://www.example.com${p}`);
  }
  return out;
}

async function child(lib, task) {
  const text = task === 'large' ? makeRobots(12_000, 30) : makeRobots(1_000, 20);
  let parse;
  if (lib === 'sitemapkit') {
    const { parseRobotsTxt } = await import(new URL('../dist/index.js', import.meta.url).href);
    parse = (t) => parseRobotsTxt(t, { maxBytes: 1 << 20 });
  } else {
    const robotsParser = createRequire(import.meta.url)('robots-parser');
    parse = (t) => robotsParser('https://www.example.com/robots.txt', t);
  }
  let ops = 0;
  let sink = 0;
  let t0;
  if (task === 'match') {
    const urls = makeUrls(10_000);
    const agents = ['Googlebot', 'BotA0', 'BotC2', 'Other'];
    const robots = parse(text);
    t0 = process.hrtime.bigint();
    for (let i = 0; i < CHECKS; i++) if (robots.isAllowed(urls[i % urls.length], agents[i & 3])) sink++;
    ops = CHECKS;
  } else {
    const n = task === 'large' ? 20 : 300;
    t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink += parse(text) === undefined ? 0 : 1;
    ops = n;
  }
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(JSON.stringify({ secs, ops, bytes: Buffer.byteLength(text), sink }));
}

function conformance(lib) {
  const spec = new URL('../test/fixtures/spec/', import.meta.url);
  const cases = ['robots-cases.json', 'robots-spec-test-cases.json'].flatMap((f) =>
    JSON.parse(readFileSync(new URL(f, spec), 'utf8')),
  );
  return import(new URL('../dist/index.js', import.meta.url).href).then(({ parseRobotsTxt }) => {
    const robotsParser = createRequire(import.meta.url)('robots-parser');
    let ok = 0;
    for (const c of cases) {
      const body = c.robotstxt_base64 ? Buffer.from(c.robotstxt_base64, 'base64') : c.robotstxt;
      let got;
      if (lib === 'sitemapkit') got = parseRobotsTxt(body).isAllowed(c.url, c.useragent);
      else {
        const url = c.url === '' ? 'http://foo.bar/' : c.url;
        const origin = new URL(url.includes('://') ? url : `http://${url}`).origin;
        got =
          robotsParser(
            `${origin}/robots.txt`,
            Buffer.isBuffer(body) ? body.toString('latin1') : body,
          ).isAllowed(url, c.useragent) ?? true;
      }
      if (got === c.allowed) ok++;
    }
    return `${ok}/${cases.length}`;
  });
}

if (argv[0] === '--child') {
  await child(argv[1], argv[2]);
} else {
  const self = new URL(import.meta.url).pathname;
  const rows = [];
  for (const task of ['parse', 'match', 'large']) {
    const results = {};
    for (const lib of ['sitemapkit', 'robots-parser']) {
      const run = await runNode([self, '--child', lib, task, '--checks', String(CHECKS)], {
        env: { FORCE_COLOR: '0' },
      });
      if (run.code !== 0) throw new Error(`${lib} ${task} failed: ${run.stderr}`);
      const r = JSON.parse(run.stdout);
      results[lib] = r;
      rows.push({
        task,
        contender: lib,
        seconds: fmt.s(r.secs),
        rate: `${fmt.n(r.ops / r.secs)}/s`,
        input: task === 'match' ? `${fmt.n(r.ops)} checks` : `${fmt.n(r.ops)} × ${fmt.n(r.bytes / 1024)} KiB`,
        'peak RSS MiB': fmt.mb(run.rssMiB),
        ratio: '',
      });
    }
    rows.at(-1).ratio =
      `${(results['robots-parser'].secs / results.sitemapkit.secs).toFixed(2)}× sitemapkit's time`;
    rows.at(-2).ratio = '1.00×';
  }
  table(rows, ['task', 'contender', 'seconds', 'rate', 'input', 'peak RSS MiB', 'ratio']);
  console.log(
    `\nGoogle conformance (545 cases): sitemapkit ${await conformance('sitemapkit')}, robots-parser ${await conformance('robots-parser')}`,
  );
  console.log(`(node ${process.version}; root ${ROOT})`);
}
