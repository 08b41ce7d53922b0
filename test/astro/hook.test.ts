/**
 * `astro:build:done`'s work on hand-made build folders, without running Astro: every option of
 * `@astrojs/sitemap` and sitemapkit's extras, the URL rules of `build.format` and
 * `trailingSlash`, server builds, errors naming the option, and the exact 50,000 split.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { type AstroBuild, type BuildRoute, writeAstroSitemaps } from '../../src/astro/build.js';
import { sitemap } from '../../src/astro/index.js';
import { type AstroSitemapOptions, resolveAstroOptions } from '../../src/astro/options.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';
import { locsOf, sitemapFiles } from './astro-site.js';

const SITE = 'https://example.com';
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

interface Page {
  /** The built file, relative to the output folder. */
  file: string;
  route: string;
  html?: string;
}

const page = (title: string, head = '', body = ''): string =>
  `<html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;

/** A build folder holding `pages`, and what Astro would tell the hook about it. */
function fakeBuild(
  pages: readonly Page[],
  extra: Omit<Partial<AstroBuild>, 'config'> & { config?: Partial<AstroBuild['config']> } = {},
): { build: AstroBuild; dir: string; log: string[] } {
  const dir = tempDir('sk-astro');
  made.push(dir);
  const assets = new Map<string, URL[]>();
  const routes: BuildRoute[] = [];
  for (const p of pages) {
    const path = join(dir, p.file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, p.html ?? page(p.file));
    if (!assets.has(p.route)) {
      assets.set(p.route, []);
      routes.push({ pattern: p.route, type: 'page', isPrerendered: true });
    }
    assets.get(p.route)!.push(pathToFileURL(path));
  }
  const log: string[] = [];
  const build: AstroBuild = {
    buildOutput: 'static',
    routes,
    dir: pathToFileURL(`${dir}/`),
    assets,
    logger: {
      info: (m) => log.push(`info ${m}`),
      warn: (m) => log.push(`warn ${m}`),
      error: (m) => log.push(`error ${m}`),
    },
    ...extra,
    config: {
      site: SITE,
      base: '/',
      trailingSlash: 'ignore',
      build: { format: 'directory' },
      ...extra.config,
    },
  };
  return { build, dir, log };
}

const run = (b: AstroBuild, options: AstroSitemapOptions = {}): Promise<void> =>
  writeAstroSitemaps(b, resolveAstroOptions({ validate: false, ...options }));

const read = (dir: string, file: string): string => {
  const data = readFileSync(join(dir, file));
  return (file.endsWith('.gz') ? gunzipSync(data) : data).toString('utf8');
};
const locs = (dir: string): string[] =>
  locsOf(
    dir,
    sitemapFiles(dir).filter((f) => !f.endsWith('.gz')),
  );

const SIMPLE: Page[] = [
  { file: 'index.html', route: '/' },
  { file: 'about/index.html', route: '/about' },
  { file: 'blog/2/index.html', route: '/blog/[n]' },
  { file: 'blog/10/index.html', route: '/blog/[n]' },
  { file: '404.html', route: '/404' },
];

async function thrown(p: Promise<unknown>): Promise<Error & { code?: string; hint?: string }> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('no error');
}

describe('the options of @astrojs/sitemap', () => {
  it('lists the pages in its order (numbers as numbers), without the 404 page', async () => {
    const { build, dir } = fakeBuild(SIMPLE);
    await run(build);
    expect(locs(dir)).toEqual([`${SITE}/`, `${SITE}/about/`, `${SITE}/blog/2/`, `${SITE}/blog/10/`]);
  });

  it('without site in astro.config, fails with a sentence naming it', async () => {
    const { build } = fakeBuild(SIMPLE, { config: { site: undefined } });
    const e = await thrown(run(build));
    expect(isSitemapkitError(e, 'ERR_OPTIONS')).toBe(true);
    expect(e.message).toBe(
      'sitemap() needs `site` in astro.config (the public URL of the site) to write the full URLs a sitemap must hold',
    );
    expect(e.hint).toContain("site: 'https://");
  });

  it('a wrong option fails when the integration is created, naming it', () => {
    const cases: Array<[AstroSitemapOptions, string]> = [
      [{ entryLimit: 0 }, 'sitemap({ entryLimit }) must be a whole number from 1 to 50,000, not 0'],
      [{ entryLimit: 60_000 }, 'sitemap({ entryLimit }) must be a whole number from 1 to 50,000, not 60000'],
      [{ priority: 2 }, 'sitemap({ priority }) must be a number from 0 to 1, not 2'],
      [{ changefreq: 'sometimes' as never }, 'sitemap({ changefreq }) must be'],
      [{ customPages: ['/about'] }, 'sitemap({ customPages }) must hold full http(s) URLs, not "/about"'],
      [{ i18n: { defaultLocale: 'de', locales: { en: 'en-US' } } }, 'sitemap({ i18n }) defaultLocale "de"'],
      [{ canonicalURL: 'https://x.test' } as never, 'sitemap({ canonicalURL }) is not an option'],
      [{ xsl: true, xslURL: '/s.xsl' }, 'sitemap({ xsl }) and xslURL both name a stylesheet'],
    ];
    for (const [options, message] of cases) {
      let error: unknown;
      try {
        sitemap(options);
      } catch (e) {
        error = e;
      }
      expect(isSitemapkitError(error, 'ERR_OPTIONS'), message).toBe(true);
      expect((error as Error).message.startsWith(message), (error as Error).message).toBe(true);
    }
  });

  it('filter, customPages, changefreq, priority and lastmod', async () => {
    const { build, dir } = fakeBuild(SIMPLE);
    await run(build, {
      filter: (p) => !p.endsWith('/about/'),
      customPages: [`${SITE}/on-demand`, `${SITE}/about/`],
      changefreq: 'weekly',
      priority: 0.7,
      lastmod: new Date('2026-01-02T03:04:05Z'),
    });
    const xml = read(dir, 'sitemap-0.xml');
    expect(locs(dir)).toEqual([`${SITE}/`, `${SITE}/blog/2/`, `${SITE}/blog/10/`, `${SITE}/on-demand`]);
    expect(xml).toContain(
      `<url><loc>${SITE}/on-demand</loc><lastmod>2026-01-02T03:04:05Z</lastmod><changefreq>weekly</changefreq><priority>0.7</priority></url>`,
    );
  });

  it('serialize changes an entry or drops it, and may be async', async () => {
    const { build, dir, log } = fakeBuild(SIMPLE);
    await run(build, {
      serialize: async (item) => {
        await new Promise((r) => setImmediate(r));
        if (item.url.includes('/blog/2/')) return undefined;
        if (item.url.endsWith('/about/'))
          return { ...item, priority: 0.9, links: [{ url: item.url, lang: 'en' }] };
        return item;
      },
    });
    // (pages with alternates are written last, once their group is known to hold)
    expect(locs(dir).sort()).toEqual([`${SITE}/`, `${SITE}/about/`, `${SITE}/blog/10/`]);
    expect(read(dir, 'sitemap-0.xml')).toContain(
      `<url><loc>${SITE}/about/</loc><priority>0.9</priority><xhtml:link rel="alternate" hreflang="en" href="${SITE}/about/"/></url>`,
    );
    expect(log.at(-1)).toBe('info sitemap-index.xml and 1 sitemap written: 3 URLs; 1 dropped by serialize');
  });

  it('a serialize that throws fails the build naming it and the URL', async () => {
    const { build } = fakeBuild(SIMPLE);
    const e = await thrown(
      run(build, {
        serialize: () => {
          throw new Error('no date');
        },
      }),
    );
    expect(e.message).toBe(`sitemap({ serialize }) threw for ${SITE}/: no date`);
  });

  it('a serialize result the protocol refuses loses the bad field, with a warning naming it', async () => {
    const { build, dir, log } = fakeBuild(SIMPLE);
    await run(build, { serialize: (item) => ({ ...item, priority: 7 }) });
    expect(locs(dir)).toHaveLength(4);
    expect(read(dir, 'sitemap-0.xml')).not.toContain('<priority>');
    expect(log.some((l) => l.startsWith('warn ') && l.includes('[priority]'))).toBe(true);
  });

  it('entryLimit splits exactly, under the names of @astrojs/sitemap', async () => {
    const pages = Array.from({ length: 7 }, (_, i) => ({ file: `p/${i + 1}/index.html`, route: '/p/[n]' }));
    const { build, dir } = fakeBuild(pages);
    await run(build, { entryLimit: 3 });
    expect(sitemapFiles(dir)).toEqual([
      'sitemap-0.xml',
      'sitemap-1.xml',
      'sitemap-2.xml',
      'sitemap-index.xml',
    ]);
    expect(['sitemap-0.xml', 'sitemap-1.xml', 'sitemap-2.xml'].map((f) => locsOf(dir, [f]).length)).toEqual([
      3, 3, 1,
    ]);
    expect(read(dir, 'sitemap-index.xml')).toContain(`<loc>${SITE}/sitemap-2.xml</loc>`);
  });

  it('chunks give each group its own files, the rest in pages', async () => {
    const { build, dir } = fakeBuild(SIMPLE);
    await run(build, { chunks: { blog: (item) => (item.url.includes('/blog/') ? item : undefined) } });
    expect(sitemapFiles(dir)).toEqual(['sitemap-blog-0.xml', 'sitemap-index.xml', 'sitemap-pages-0.xml']);
    expect(locsOf(dir, ['sitemap-blog-0.xml'])).toEqual([`${SITE}/blog/2/`, `${SITE}/blog/10/`]);
  });

  it('customSitemaps are listed in the index; filenameBase names the files; xslURL is referenced', async () => {
    const { build, dir } = fakeBuild(SIMPLE);
    await run(build, {
      customSitemaps: [`${SITE}/products-sitemap.xml`],
      filenameBase: 'map',
      xslURL: '/map.xsl',
    });
    expect(sitemapFiles(dir)).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.startsWith('map'))).toEqual(['map-0.xml', 'map-index.xml']);
    const index = read(dir, 'map-index.xml');
    expect(index).toContain(`<sitemap><loc>${SITE}/products-sitemap.xml</loc></sitemap>`);
    expect(index).toContain(`href="${SITE}/map.xsl"`);
    assertXmllint();
    expect(xmllint(join(dir, 'map-index.xml')).ok).toBe(true);
  });

  it('namespaces: image false leaves images out, xhtml false hreflang', async () => {
    const html = page(
      'A',
      `<link rel="alternate" hreflang="en" href="${SITE}/a/"><link rel="alternate" hreflang="fr" href="${SITE}/fr/a/">`,
      '<img src="/a.png">',
    );
    const pages = [
      { file: 'a/index.html', route: '/a', html },
      { file: 'fr/a/index.html', route: '/fr/a', html },
    ];
    const on = fakeBuild(pages);
    await run(on.build);
    expect(read(on.dir, 'sitemap-0.xml')).toContain('<image:loc>');
    expect(read(on.dir, 'sitemap-0.xml')).toContain('<xhtml:link');
    const off = fakeBuild(pages);
    await run(off.build, { namespaces: { image: false, xhtml: false } });
    expect(read(off.dir, 'sitemap-0.xml')).not.toMatch(/image:loc|xhtml:link/);
  });
});

describe("Astro's URLs", () => {
  it('build.format file and trailingSlash never: the URLs Astro serves, and canonicals judged against them', async () => {
    const canonical = (path: string): string => page('x', `<link rel="canonical" href="${SITE}${path}">`);
    const pages = [
      { file: 'index.html', route: '/', html: canonical('/') },
      { file: 'about.html', route: '/about', html: canonical('/about') },
    ];
    const { build, dir } = fakeBuild(pages, {
      config: { build: { format: 'file' }, trailingSlash: 'never' },
    });
    await run(build);
    expect(locs(dir)).toEqual([`${SITE}/`, `${SITE}/about`]);
    const dirs = fakeBuild(
      [
        { file: 'index.html', route: '/' },
        { file: 'about/index.html', route: '/about', html: canonical('/about') },
      ],
      { config: { trailingSlash: 'never' } },
    );
    await run(dirs.build);
    expect(locs(dirs.dir)).toEqual([`${SITE}/`, `${SITE}/about`]);
  });

  it('a route that names its file (legacy.html.astro) keeps the name in its URL', async () => {
    const { build, dir } = fakeBuild([
      { file: 'index.html', route: '/' },
      { file: 'legacy.html', route: '/legacy.html' },
      { file: 'about.html', route: '/about' },
    ]);
    await run(build);
    expect(locs(dir).sort()).toEqual([`${SITE}/`, `${SITE}/about`, `${SITE}/legacy.html`]);
  });

  it('base: the pages and the sitemaps live under it', async () => {
    const { build, dir } = fakeBuild(SIMPLE.slice(0, 2), { config: { base: '/docs' } });
    await run(build);
    expect(locs(dir)).toEqual([`${SITE}/docs/`, `${SITE}/docs/about/`]);
    expect(read(dir, 'sitemap-index.xml')).toContain(`<loc>${SITE}/docs/sitemap-0.xml</loc>`);
  });

  it('a server build: the prerendered pages are read, pages rendered on demand at a fixed path listed bare', async () => {
    const { build, dir } = fakeBuild(SIMPLE.slice(0, 2), { buildOutput: 'server' });
    const routes: BuildRoute[] = [
      ...build.routes!,
      { pattern: '/account', type: 'page', pathname: '/account', isPrerendered: false },
      { pattern: '/item/[id]', type: 'page', isPrerendered: false },
      { pattern: '/api/data', type: 'endpoint', pathname: '/api/data', isPrerendered: false },
      { pattern: '/500', type: 'page', pathname: '/500', isPrerendered: false },
    ];
    await run({ ...build, routes });
    expect(locs(dir)).toEqual([`${SITE}/`, `${SITE}/about/`, `${SITE}/account/`]);
  });
});

describe("sitemapkit's extras", () => {
  it("names: 'sitemapkit', gzip, and robots.txt created on request", async () => {
    const { build, dir } = fakeBuild(SIMPLE);
    await run(build, { names: 'sitemapkit', gzip: true, robotsTxt: 'create' });
    expect(sitemapFiles(dir)).toEqual(['sitemap.xml.gz']);
    expect(readFileSync(join(dir, 'robots.txt'), 'utf8')).toBe(`Sitemap: ${SITE}/sitemap.xml.gz\n`);
  });

  it('html: the HTML site map for people, with the titles read from the pages', async () => {
    const pages = [
      { file: 'index.html', route: '/', html: page('Home') },
      { file: 'about/index.html', route: '/about', html: page('About us') },
    ];
    const { build, dir } = fakeBuild(pages);
    await run(build, { html: true });
    const html = readFileSync(join(dir, 'sitemap.html'), 'utf8');
    expect(html).toMatch(/<a href="[^"]*about\/" dir="auto">About us<\/a>/);
    // sitemap.html is no page of the build, so the sitemap does not list it.
    expect(locs(dir)).toEqual([`${SITE}/`, `${SITE}/about/`]);
  });

  it('serialize may set hreflang on a link, as the sitemap package reads it', async () => {
    const { build, dir } = fakeBuild(SIMPLE.slice(0, 1));
    await run(build, {
      serialize: (item) => ({ ...item, links: [{ url: item.url, lang: 'en', hreflang: 'x-default' }] }),
    });
    expect(read(dir, 'sitemap-0.xml')).toContain(`hreflang="x-default" href="${SITE}/"`);
  });

  it('robots.txt is left alone when there is none (the default) or when robotsTxt is false', async () => {
    const none = fakeBuild(SIMPLE);
    await run(none.build);
    expect(readdirSync(none.dir)).not.toContain('robots.txt');
    const off = fakeBuild(SIMPLE);
    writeFileSync(join(off.dir, 'robots.txt'), 'User-agent: *\n');
    await run(off.build, { robotsTxt: false });
    expect(readFileSync(join(off.dir, 'robots.txt'), 'utf8')).toBe('User-agent: *\n');
  });

  it('validate: the written files are checked and the result logged', async () => {
    const { build, log } = fakeBuild(SIMPLE);
    await writeAstroSitemaps(build, resolveAstroOptions({}));
    expect(log.at(-1)).toBe('info validated 2 sitemap files: no findings');
  });

  it('no pages: a warning, no files, and the build goes on', async () => {
    const { build, dir, log } = fakeBuild([{ file: '404.html', route: '/404' }]);
    await run(build);
    expect(sitemapFiles(dir)).toEqual([]);
    expect(log).toContain('warn no pages to list: no sitemap was written');
  });
});

describe('60,000 URLs', () => {
  it('split exactly at 50,000: two children of 50,000 and 10,000, both valid', async () => {
    const { build, dir } = fakeBuild([{ file: 'index.html', route: '/' }]);
    const customPages = Array.from({ length: 59_999 }, (_, i) => `${SITE}/p/${i + 1}/`);
    await run(build, { customPages });
    expect(sitemapFiles(dir)).toEqual(['sitemap-0.xml', 'sitemap-1.xml', 'sitemap-index.xml']);
    const first = locsOf(dir, ['sitemap-0.xml']);
    const second = locsOf(dir, ['sitemap-1.xml']);
    expect([first.length, second.length]).toEqual([50_000, 10_000]);
    expect(second.at(-1)).toBe(`${SITE}/p/59999/`);
    assertXmllint();
    for (const f of sitemapFiles(dir)) expect(xmllint(join(dir, f)).ok, f).toBe(true);
  });
});
