// The Vite plug-in's cost, two ways, each contender in its own process (bench/lib.mjs: wall
// seconds, CPU seconds, peak RSS), alternating, medians of --runs:
//
// 1. After the build: the plug-in's closeBundle over a built output of --pages pages (default
//    20,000: English/French pairs with a title, a shared logo, an image of their own and hreflang
//    links), against what vite-plugin-sitemap does at that point (its sitemap-ts lists the built
//    .html files by name and writes them with the `sitemap` package; it reads no page). That peer
//    is not a dev dependency, so a script doing the same with `sitemap` 9 stands in for it.
// 2. A whole `vite build` of a multi-page site of --build-pages HTML entry points (default 300),
//    with the plug-in and without any sitemap plug-in: what a user's build gains in time.
//
//   npm run build && node bench/vite.mjs [--pages N] [--build-pages M] [--runs R]
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, runNode, table } from './lib.mjs';

const SELF = fileURLToPath(import.meta.url);
const BASE = 'https://example.com/';

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
}

function page(lang, i, withScript) {
  const other = lang === 'en' ? 'fr' : 'en';
  const words = Array.from({ length: 120 }, (_, k) => `word${(i * 7 + k) % 997}`).join(' ');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<title>Page ${i} (${lang})</title>
<link rel="alternate" hreflang="${lang}" href="${BASE}${lang}/page-${i}.html">
<link rel="alternate" hreflang="${other}" href="${BASE}${other}/page-${i}.html">
${withScript ? '<script type="module" src="/main.js"></script>' : ''}
</head>
<body>
<header><img src="/logo.png" alt="logo"></header>
<main><h1>Page ${i}</h1><img src="/photos/${i}.jpg" alt="photo ${i}"><p>${words}</p></main>
</body>
</html>
`;
}

/** pages/2 English/French pairs: en/page-N.html and fr/page-N.html. */
function writeSite(dir, pages, withScript) {
  for (const lang of ['en', 'fr']) mkdirSync(join(dir, lang), { recursive: true });
  for (let i = 0; i < pages / 2; i++)
    for (const lang of ['en', 'fr'])
      writeFileSync(join(dir, lang, `page-${i}.html`), page(lang, i, withScript));
}

function htmlFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.html'))
    .sort();
}

const quiet = {
  info() {},
  warn() {},
  warnOnce() {},
  error() {},
  clearScreen() {},
  hasErrorLogged: () => false,
  hasWarned: false,
};

/** The plug-in's work after a build, as Vite calls it: configResolved, then closeBundle. */
async function childPlugin(dir) {
  const { sitemapkit } = await import('../dist/vite/index.js');
  const plugin = sitemapkit({ baseUrl: BASE });
  plugin.configResolved({ root: dir, base: '/', logger: quiet, build: { outDir: dir, ssr: false } });
  await plugin.closeBundle.handler.call({});
  const xml = readFileSync(join(dir, 'sitemap.xml'), 'utf8');
  const files = xml.includes('<sitemapindex')
    ? [...xml.matchAll(/<loc>[^<]*\/([^/<]+)<\/loc>/g)].map((m) => readFileSync(join(dir, m[1]), 'utf8'))
    : [xml];
  return files.reduce((n, f) => n + (f.match(/<url>/g)?.length ?? 0), 0);
}

/** vite-plugin-sitemap's step, as sitemap-ts does it: the .html files by name, through `sitemap`. */
async function childPeer(dir, out) {
  const { SitemapStream, streamToPromise } = await import('sitemap');
  const stream = new SitemapStream({ hostname: BASE });
  const routes = htmlFiles(dir).map((f) => `/${f.replace(/index\.html$/, '').replace(/\.html$/, '')}`);
  for (const url of routes) stream.write({ url, changefreq: 'daily', priority: 1, lastmod: new Date() });
  stream.end();
  writeFileSync(join(out, 'sitemap.xml'), await streamToPromise(stream));
  return routes.length;
}

async function childBuild(root, out, withPlugin) {
  const { build } = await import('vite');
  const input = Object.fromEntries(htmlFiles(root).map((f) => [f.replace(/\W/g, '_'), join(root, f)]));
  const plugins = [];
  if (withPlugin) {
    const { sitemapkit } = await import('../dist/vite/index.js');
    plugins.push(sitemapkit({ baseUrl: BASE }));
  }
  await build({
    root,
    configFile: false,
    logLevel: 'silent',
    build: { outDir: out, emptyOutDir: true, rollupOptions: { input } },
    plugins,
  });
  return htmlFiles(out).length;
}

if (process.argv[2] === '--child') {
  const [, , , who, a, b] = process.argv;
  const urls =
    who === 'plugin'
      ? await childPlugin(a)
      : who === 'peer'
        ? await childPeer(a, b)
        : await childBuild(a, b, who === 'build-with');
  process.stdout.write(`${JSON.stringify({ urls })}\n`);
} else {
  const PAGES = arg('--pages', 20_000);
  const BUILD_PAGES = arg('--build-pages', 300);
  const RUNS = arg('--runs', 3);
  const work = mkdtempSync(join(tmpdir(), 'sitemapkit-bench-vite-'));
  const median = (xs) => {
    const s = [...xs].sort((x, y) => x - y);
    const m = s.length >> 1;
    return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  try {
    const built = join(work, 'dist');
    writeSite(built, PAGES, false);
    const peerOut = join(work, 'peer-out');
    mkdirSync(peerOut);
    const source = join(work, 'site');
    writeSite(source, BUILD_PAGES, true);
    writeFileSync(join(source, 'main.js'), 'document.documentElement.dataset.ready = "yes";\n');
    const buildOut = join(work, 'build-out');
    const contenders = {
      plugin: ['plugin', built],
      peer: ['peer', built, peerOut],
      'build-with': ['build-with', source, buildOut],
      'build-without': ['build-without', source, buildOut],
    };
    const runs = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
    console.log(
      `Vite plug-in: ${PAGES.toLocaleString('en-US')} built pages after the build; a vite build of ${BUILD_PAGES} HTML entry points; ${RUNS} run(s)`,
    );
    for (let run = 0; run < RUNS; run++) {
      const load = loadavg()
        .map((x) => x.toFixed(1))
        .join(' ');
      const line = [];
      for (const [name, args] of Object.entries(contenders)) {
        const r = await runNode([SELF, '--child', ...args]);
        if (r.code !== 0) throw new Error(`${name} exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
        runs[name].push({ ...r, urls: JSON.parse(r.stdout).urls });
        line.push(`${name} ${fmt.s(r.secs)} s`);
      }
      console.log(`  run ${run + 1}/${RUNS} (load ${load}): ${line.join(', ')}`);
    }
    const row = (name, label, base) => {
      const secs = median(runs[name].map((r) => r.secs));
      return {
        contender: label,
        urls: fmt.n(runs[name][0].urls),
        seconds: fmt.s(secs),
        'CPU s': fmt.s(median(runs[name].map((r) => r.cpuSecs))),
        ratio: (secs / median(runs[base].map((r) => r.secs))).toFixed(2),
        'peak RSS MiB': fmt.mb(median(runs[name].map((r) => r.rssMiB))),
      };
    };
    const columns = ['contender', 'urls', 'seconds', 'CPU s', 'ratio', 'peak RSS MiB'];
    console.log('\nAfter the build (ratio: against the file-name lister)');
    table(
      [
        row('plugin', 'sitemapkit/vite closeBundle (reads every page)', 'peer'),
        row('peer', 'file names + sitemap 9 (vite-plugin-sitemap’s way)', 'peer'),
      ],
      columns,
    );
    console.log(
      '\nA whole vite build (ratio: against the build without a sitemap plug-in; urls: HTML files built)',
    );
    table(
      [
        row('build-with', 'vite build + sitemapkit/vite', 'build-without'),
        row('build-without', 'vite build alone', 'build-without'),
      ],
      columns,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
