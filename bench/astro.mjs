// Astro benchmark: the sitemap step of a 60,000-page Astro 5 build, sitemapkit/astro against
// @astrojs/sitemap. The site (one dynamic route, getStaticPaths) is built once for real with
// `astro build` and sitemapkit/astro in it (that run checks the exact split at 50,000); then each
// plug-in's hooks are called on that build as Astro calls them, each contender in its own process
// (bench/lib.mjs: wall and CPU seconds, peak RSS), three runs, medians.
// sitemapkit reads every built page (title, images, hreflang, robots meta, canonical);
// @astrojs/sitemap lists the route paths Astro hands it without reading a page.
//
//   npm run build && node bench/astro.mjs [PAGES]        (default 60,000)
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, OUT, ROOT, runNode, table } from './lib.mjs';

const SITE = 'https://example.com';
const RUNS = 3;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quiet = {
  info() {},
  warn: (m) => process.stderr.write(`${m}\n`),
  error: (m) => process.stderr.write(`${m}\n`),
};
const config = { site: SITE, base: '/', trailingSlash: 'ignore', build: { format: 'directory' } };

async function child(who, dist, pages, out) {
  const files = Array.from({ length: pages }, (_, i) => pathToFileURL(join(dist, `p/${i + 1}/index.html`)));
  const routes = [{ pattern: '/p/[n]', type: 'page', pathname: undefined, isPrerendered: true }];
  const t0 = process.hrtime.bigint();
  if (who.startsWith('sitemapkit')) {
    const { sitemap } = await import('../dist/astro/index.js');
    const i = sitemap({ validate: who === 'sitemapkit' });
    i.hooks['astro:config:done']({ config, buildOutput: 'static' });
    i.hooks['astro:routes:resolved']({ routes });
    await i.hooks['astro:build:done']({
      dir: pathToFileURL(`${dist}/`),
      assets: new Map([['/p/[n]', files]]),
      logger: quiet,
    });
  } else {
    const { default: astroSitemap } = await import('@astrojs/sitemap');
    const i = astroSitemap();
    await i.hooks['astro:config:done']({ config });
    i.hooks['astro:routes:resolved']({ routes });
    mkdirSync(out, { recursive: true });
    await i.hooks['astro:build:done']({
      dir: pathToFileURL(`${out}/`),
      pages: files.map((_, n) => ({ pathname: `p/${n + 1}/` })),
      logger: quiet,
    });
  }
  process.stdout.write(`${JSON.stringify({ secs: Number(process.hrtime.bigint() - t0) / 1e9 })}\n`);
}

/** The 60,000-page site, built once with sitemapkit/astro in it; reused while its page count holds. */
async function buildSite(pages) {
  const root = join(OUT, `astro-site-${pages}`);
  const dist = join(root, 'dist');
  const marker = join(root, 'built.json');
  if (existsSync(marker)) return { dist, ...JSON.parse(readFileSync(marker, 'utf8')) };
  rmSync(root, { recursive: true, force: true });
  mkdirSync(join(root, 'src/pages/p'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
  writeFileSync(
    join(root, 'src/pages/p/[n].astro'),
    `---
export function getStaticPaths() {
  return Array.from({ length: ${pages} }, (_, i) => ({ params: { n: String(i + 1) } }));
}
const { n } = Astro.params;
---
<html><head><title>Page {n}</title><link rel="canonical" href={\`${SITE}/p/\${n}/\`} /></head>
<body><img src={\`/img/\${n}.jpg\`} alt="" /><p>{n}</p></body></html>
`,
  );
  process.env.ASTRO_TELEMETRY_DISABLED = '1';
  const { build } = await import('astro');
  const { sitemap } = await import('../dist/astro/index.js');
  let hookStart = 0n;
  const timing = {
    name: 'timing',
    hooks: {
      'astro:build:done': () => {
        hookStart = process.hrtime.bigint();
      },
    },
  };
  const t0 = process.hrtime.bigint();
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    site: SITE,
    cacheDir: join(root, '.cache'),
    integrations: [timing, sitemap()],
  });
  const t1 = process.hrtime.bigint();
  const count = (f) => (readFileSync(join(dist, f), 'utf8').match(/<url>/g) ?? []).length;
  const split = readdirSync(dist)
    .filter((f) => /^sitemap-\d+\.xml$/.test(f))
    .sort()
    .map((f) => [f, count(f)]);
  const facts = {
    buildSecs: Number(t1 - t0) / 1e9,
    sitemapSecs: Number(t1 - hookStart) / 1e9,
    split,
  };
  writeFileSync(marker, JSON.stringify(facts));
  return { dist, ...facts };
}

if (process.argv[2] === '--child') {
  const [, , , who, dist, pages, out] = process.argv;
  await child(who, dist, Number(pages), out);
} else {
  const pages = Number(process.argv[2] ?? 60_000);
  const site = await buildSite(pages);
  console.log(
    `astro build of ${fmt.n(pages)} pages with sitemapkit/astro: ${fmt.s(site.buildSecs)} s, of which the sitemap step ${fmt.s(site.sitemapSecs)} s; files: ${site.split.map(([f, n]) => `${f} ${fmt.n(n)}`).join(', ')}`,
  );
  const rows = [];
  for (const who of ['sitemapkit', 'sitemapkit (validate: false)', '@astrojs/sitemap']) {
    const runs = [];
    for (let r = 0; r < RUNS; r++) {
      const out = join(OUT, 'astro-astrojs-out');
      const res = await runNode([
        new URL(import.meta.url).pathname,
        '--child',
        who,
        site.dist,
        String(pages),
        out,
      ]);
      if (res.code !== 0) throw new Error(`${who} failed: ${res.stderr}`);
      runs.push(res);
    }
    rows.push({
      contender: who,
      wall: median(runs.map((r) => r.secs)),
      cpu: median(runs.map((r) => r.cpuSecs)),
      rss: median(runs.map((r) => r.rssMiB)),
    });
  }
  const base = rows.find((r) => r.contender === '@astrojs/sitemap');
  table(
    rows.map((r) => ({
      contender: r.contender,
      'wall s': fmt.s(r.wall),
      'cpu s': fmt.s(r.cpu),
      'peak RSS MiB': fmt.mb(r.rss),
      'wall vs @astrojs/sitemap': `${(r.wall / base.wall).toFixed(2)}x`,
      'RSS vs @astrojs/sitemap': `${(r.rss / base.rss).toFixed(2)}x`,
    })),
    ['contender', 'wall s', 'cpu s', 'peak RSS MiB', 'wall vs @astrojs/sitemap', 'RSS vs @astrojs/sitemap'],
  );
}
