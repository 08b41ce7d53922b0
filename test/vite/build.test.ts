/**
 * The plug-in in real Vite builds (Vite's programmatic `build()`, each fixture built once per
 * suite into a temp folder): a multi-page site read from its built HTML, and a single-page app
 * whose routes exist only in its client router. The sitemaps list exactly the expected URLs, by
 * name, and every file is valid against the protocol's XSDs.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { build, type InlineConfig, type Logger } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Route, SitemapkitViteOptions } from '../../src/vite/index.js';
import { sitemapkit } from '../../src/vite/index.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';

const MPA = fileURLToPath(new URL('../fixtures/vite-mpa/', import.meta.url));
const SPA = fileURLToPath(new URL('../fixtures/vite-spa/', import.meta.url));

/** Vite's logger, keeping what the plug-in says (it never writes to the console itself). */
function recordingLogger(): Logger & { lines: Array<[string, string]> } {
  const lines: Array<[string, string]> = [];
  const keep = (level: string) => (msg: string) => {
    lines.push([level, msg]);
  };
  return {
    lines,
    info: keep('info'),
    warn: keep('warn'),
    warnOnce: keep('warn'),
    error: keep('error'),
    clearScreen: () => {},
    hasErrorLogged: () => false,
    hasWarned: false,
  };
}

async function viteBuild(
  root: string,
  input: string[],
  options: SitemapkitViteOptions,
  extra: InlineConfig = {},
): Promise<{ out: string; log: Array<[string, string]> }> {
  const out = tempDir('sk-vite');
  const logger = recordingLogger();
  await build({
    root,
    configFile: false,
    customLogger: logger,
    ...extra,
    build: {
      outDir: out,
      emptyOutDir: true,
      // Imported images get their hashed names instead of being inlined as data: URLs.
      assetsInlineLimit: 0,
      rollupOptions: { input: Object.fromEntries(input.map((f) => [f.replace(/\W/g, '_'), join(root, f)])) },
    },
    plugins: [sitemapkit(options)],
  });
  return { out, log: logger.lines };
}

const locs = (xml: string): string[] => [...xml.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

function urlBlock(xml: string, loc: string): string {
  return (
    xml.match(new RegExp(`<url><loc>${loc.replace(/[.?*+^$()[\]{}|\\/]/g, '\\$&')}</loc>.*?</url>`))?.[0] ??
    ''
  );
}

describe('a multi-page Vite build', () => {
  let out: string;
  let log: Array<[string, string]>;
  let all: string;

  beforeAll(async () => {
    assertXmllint();
    ({ out, log } = await viteBuild(
      MPA,
      [
        'index.html',
        'fr/index.html',
        'about.html',
        'blog/post.html',
        'private.html',
        'drafts/wip.html',
        '404.html',
      ],
      {
        baseUrl: 'https://example.com/',
        exclude: ['drafts/**'],
        // A route to a built page adds its fields to the page's; one to the noindex page is refused.
        routes: ['/private.html', { loc: '/about.html', lastmod: '2024-03-01' }],
        maxUrlsPerFile: 3,
        xsl: true,
        html: true,
        robots: true,
      },
    ));
    all = ['sitemap-00001.xml', 'sitemap-00002.xml'].map((f) => readFileSync(join(out, f), 'utf8')).join('');
  });

  it('lists every built page by URL, leaving out the noindex page (said in Vite’s log), the excluded draft and the 404 page', () => {
    expect(existsSync(join(out, '404.html'))).toBe(true);
    expect(locs(all).sort()).toEqual(
      [
        'https://example.com/',
        'https://example.com/about.html',
        'https://example.com/blog/post.html',
        'https://example.com/fr/',
      ].sort(),
    );
    expect(log).toContainEqual(['info', expect.stringMatching(/private\.html: info page-noindex: left out/)]);
    expect(log).toContainEqual([
      'warn',
      expect.stringMatching(/page-noindex: the route is left out: the page has a robots noindex meta tag/),
    ]);
    expect(log).toContainEqual([
      'info',
      expect.stringMatching(/^sitemapkit: 4 URLs in .*sitemap\.xml and 2 more files, robots\.txt updated$/),
    ]);
  });

  it('splits at maxUrlsPerFile under an index, and every file is valid against the XSDs', () => {
    const index = readFileSync(join(out, 'sitemap.xml'), 'utf8');
    expect(index).toContain('<sitemapindex');
    expect([...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      'https://example.com/sitemap-00001.xml',
      'https://example.com/sitemap-00002.xml',
    ]);
    for (const f of ['sitemap.xml', 'sitemap-00001.xml', 'sitemap-00002.xml']) {
      const r = xmllint(join(out, f));
      expect(r.output, f).toBe(r.ok ? r.output : '');
      expect(r.ok, f).toBe(true);
    }
  });

  it('reads images and hreflang from the built HTML, the imported image under its hashed name', () => {
    const home = urlBlock(all, 'https://example.com/');
    expect(home).toContain('<image:loc>https://example.com/images/hero.png</image:loc>');
    for (const page of [home, urlBlock(all, 'https://example.com/fr/')]) {
      expect(page).toContain('<xhtml:link rel="alternate" hreflang="en" href="https://example.com/"/>');
      expect(page).toContain('<xhtml:link rel="alternate" hreflang="fr" href="https://example.com/fr/"/>');
    }
    const about = urlBlock(all, 'https://example.com/about.html');
    expect(about).toContain('<lastmod>2024-03-01</lastmod>');
    expect(about).toContain('<image:loc>https://example.com/images/team.png</image:loc>');
    const hashed = readdirSync(join(out, 'assets')).find((f) => /^chart-[\w-]+\.png$/.test(f));
    expect(hashed).toBeDefined();
    expect(about).toContain(`<image:loc>https://example.com/assets/${hashed}</image:loc>`);
  });

  it('writes the stylesheet, the HTML site map with the pages’ titles, and the Sitemap line into public/robots.txt’s copy', () => {
    expect(readFileSync(join(out, 'sitemap-00001.xml'), 'utf8')).toContain(
      '<?xml-stylesheet type="text/xsl" href="sitemap.xsl"?>',
    );
    expect(existsSync(join(out, 'sitemap.xsl'))).toBe(true);
    const html = readFileSync(join(out, 'sitemap.html'), 'utf8');
    expect(html).toContain('About us');
    expect(html).toContain('A blog post');
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toBe(
      'User-agent: *\nDisallow: /private.html\n\nSitemap: https://example.com/sitemap.xml\n',
    );
  });
});

const ROUTES = async (): Promise<Route[]> => [
  '/',
  'about',
  { loc: '/blog/hello', lastmod: '2024-05-01', images: ['/img/hello.png'] },
  {
    loc: '/en/pricing',
    alternates: [
      { hreflang: 'en', href: '/en/pricing' },
      { hreflang: 'de', href: '/de/pricing' },
    ],
  },
  {
    loc: '/de/pricing',
    alternates: [
      { hreflang: 'en', href: '/en/pricing' },
      { hreflang: 'de', href: '/de/pricing' },
    ],
  },
];

describe('a single-page Vite app with a route list', () => {
  let out: string;
  let xml: string;

  beforeAll(async () => {
    assertXmllint();
    ({ out } = await viteBuild(
      SPA,
      ['index.html'],
      { baseUrl: 'https://example.com/', routes: ROUTES, gzip: true },
      { base: '/app/' },
    ));
    xml = gunzipSync(readFileSync(join(out, 'sitemap.xml.gz'))).toString('utf8');
  });

  it('lists exactly the routes, under Vite’s base, the built index.html and the route "/" once', () => {
    expect(locs(xml)).toEqual([
      'https://example.com/app/',
      'https://example.com/app/about',
      'https://example.com/app/blog/hello',
      'https://example.com/app/en/pricing',
      'https://example.com/app/de/pricing',
    ]);
  });

  it('keeps the entries’ lastmod, images and hreflang, their paths resolved under the site, and is valid against the XSDs', () => {
    const hello = urlBlock(xml, 'https://example.com/app/blog/hello');
    expect(hello).toContain('<lastmod>2024-05-01</lastmod>');
    expect(hello).toContain('<image:loc>https://example.com/app/img/hello.png</image:loc>');
    expect(urlBlock(xml, 'https://example.com/app/de/pricing')).toContain(
      '<xhtml:link rel="alternate" hreflang="en" href="https://example.com/app/en/pricing"/>',
    );
    const r = xmllint(join(out, 'sitemap.xml.gz'));
    expect(r.ok, r.output).toBe(true);
  });

  it('keeps another plug-in’s file names: an index over one child, named as @astrojs/sitemap names them', async () => {
    const { out: named } = await viteBuild(SPA, ['index.html'], {
      baseUrl: 'https://example.com/',
      routes: ['/', '/about'],
      names: { index: 'sitemap-index', child: (n) => `sitemap-${n}` },
      alwaysIndex: true,
    });
    expect(
      readdirSync(named)
        .filter((f) => f.startsWith('sitemap'))
        .sort(),
    ).toEqual(['sitemap-0.xml', 'sitemap-index.xml']);
    expect(readFileSync(join(named, 'sitemap-index.xml'), 'utf8')).toContain(
      '<loc>https://example.com/sitemap-0.xml</loc>',
    );
    expect(locs(readFileSync(join(named, 'sitemap-0.xml'), 'utf8'))).toEqual([
      'https://example.com/',
      'https://example.com/about',
    ]);
  });

  it('a route list that throws fails the build with one sentence naming the option, and writes no sitemap', async () => {
    const failed = viteBuild(SPA, ['index.html'], {
      baseUrl: 'https://example.com/',
      routes: () => {
        throw new Error('the database is down');
      },
    });
    await expect(failed).rejects.toThrow(
      'sitemapkit({ routes }): the route list failed: the database is down; no sitemap was written',
    );
  });

  it('a route that is neither a path nor an entry fails the build naming the route', async () => {
    const out2 = tempDir('sk-vite');
    const failed = build({
      root: SPA,
      configFile: false,
      customLogger: recordingLogger(),
      build: { outDir: out2, emptyOutDir: true },
      plugins: [sitemapkit({ baseUrl: 'https://example.com/', routes: ['/', 42 as unknown as string] })],
    });
    await expect(failed).rejects.toThrow(
      'sitemapkit({ routes }): route 2 is 42, not a path, a URL or an entry with a loc',
    );
    expect(readdirSync(out2)).not.toContain('sitemap.xml');
  });
});

describe('builds the plug-in leaves alone or refuses', () => {
  async function attempt(options: SitemapkitViteOptions, extra: InlineConfig['build'] = {}) {
    const out = tempDir('sk-vite');
    const run = build({
      root: SPA,
      configFile: false,
      customLogger: recordingLogger(),
      build: { outDir: out, emptyOutDir: true, ...extra },
      plugins: [sitemapkit(options)],
    });
    const error = await run.then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    return { out, error };
  }

  it('an SSR build (the server bundle) gets no sitemap', async () => {
    const { out, error } = await attempt(
      { baseUrl: 'https://example.com/', routes: ['/'] },
      { ssr: 'src/main.js' },
    );
    expect(error).toBeUndefined();
    expect(readdirSync(out).filter((f) => f.startsWith('sitemap'))).toEqual([]);
  });

  it('a build that writes nothing (build.write: false) gets no sitemap and no error', async () => {
    const { out, error } = await attempt(
      { baseUrl: 'https://example.com/', routes: ['/'] },
      { write: false },
    );
    expect(error).toBeUndefined();
    expect(readdirSync(out)).toEqual([]);
  });

  it('a build with no URL at all fails, saying where URLs come from', async () => {
    const { out, error } = await attempt({ baseUrl: 'https://example.com/', pages: false });
    expect(error?.message).toMatch(/^sitemapkit: /);
    expect(error?.stack).toContain('give the routes of a single-page app with sitemapkit({ routes })');
    expect(readdirSync(out)).not.toContain('sitemap.xml');
  });

  it('a filter keeps the URLs it returns true for; one that throws fails the build naming the option and the URL', async () => {
    const kept = await attempt({
      baseUrl: 'https://example.com/',
      routes: ['/', '/admin', '/shop'],
      filter: (url) => !url.includes('/admin'),
    });
    expect(locs(readFileSync(join(kept.out, 'sitemap.xml'), 'utf8'))).toEqual([
      'https://example.com/',
      'https://example.com/shop',
    ]);
    const { out, error } = await attempt({
      baseUrl: 'https://example.com/',
      routes: ['/', '/shop'],
      filter: (url) => {
        if (url.endsWith('/shop')) throw new TypeError('no shop yet');
        return true;
      },
    });
    expect(error?.message).toBe(
      'sitemapkit({ filter }): the filter threw for https://example.com/shop: no shop yet; no sitemap was written',
    );
    expect(readdirSync(out)).not.toContain('sitemap.xml');
  });

  it('a route on another host fails the build, naming the route', async () => {
    const { out, error } = await attempt({
      baseUrl: 'https://example.com/',
      routes: ['/', 'https://elsewhere.example/x'],
    });
    expect(error?.message).toMatch(/^sitemapkit: .*https:\/\/elsewhere\.example\/x/);
    expect(readdirSync(out)).not.toContain('sitemap.xml');
  });
});
