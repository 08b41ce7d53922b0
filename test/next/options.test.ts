/**
 * next-sitemap's options in generateNextSitemaps, on a hand-made server build (the manifests and
 * prerendered HTML `next build` writes, no Next.js run): exclude read as next-sitemap reads it
 * (differential against its own matcher), transform, alternateRefs, additionalPaths, robots.txt,
 * the file names, and each wrong option as a sentence naming it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
// next-sitemap's own matcher, the reference its users' exclude patterns were written against.
// @ts-expect-error next-sitemap declares no types for its dist modules
import { matcher } from '../../node_modules/next-sitemap/dist/esm/utils/matcher.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { loadNextConfig } from '../../src/next/config-file.js';
import { pathExcluder } from '../../src/next/exclude.js';
import { generateNextSitemaps } from '../../src/next/generate.js';
import type { NextSitemapOptions } from '../../src/next/options.js';
import { runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const PAGES = ['/', '/about', '/admin/users', '/admin/public', '/blog/a', '/blog/b', '/secret'];

/** A server build of an app router site with PAGES prerendered, as `next build` leaves it. */
function fakeBuild(): string {
  const dir = tempDir('sk-next-fake');
  const put = (rel: string, text: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  const routes: Record<string, unknown> = {};
  const app: Record<string, string> = {};
  for (const p of PAGES) {
    routes[p] = { srcRoute: p.startsWith('/blog/') ? '/blog/[slug]' : p };
    app[`${p === '/' ? '' : p.startsWith('/blog/') ? '/blog/[slug]' : p}/page`] = p.startsWith('/blog/')
      ? '/blog/[slug]'
      : p;
    put(
      `.next/server/app${p === '/' ? '/index' : p}.html`,
      `<!doctype html><html><head><title>Page ${p}</title></head><body><img src="/img${p === '/' ? '/home' : p}.png"></body></html>`,
    );
  }
  put('.next/prerender-manifest.json', JSON.stringify({ version: 4, routes, notFoundRoutes: [] }));
  put('.next/routes-manifest.json', JSON.stringify({ version: 3, basePath: '' }));
  put('.next/app-path-routes-manifest.json', JSON.stringify(app));
  put('.next/export-marker.json', JSON.stringify({ exportTrailingSlash: false }));
  mkdirSync(join(dir, 'public'));
  return dir;
}

function locs(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
}

async function failure(options: NextSitemapOptions): Promise<string> {
  try {
    await generateNextSitemaps(options);
  } catch (e) {
    if (isSitemapkitError(e)) return `${e.code}: ${e.message}`;
    throw e;
  }
  throw new Error('no failure');
}

describe('exclude, as next-sitemap reads it', () => {
  it('matches what next-sitemap 4.2.3 matches, for any paths and patterns', () => {
    const seg = fc.constantFrom('a', 'b', 'admin', 'ADMIN', 'Blog', 'blog', 'x.y', '*', '(1)', '[id]', '-');
    const path = fc.array(seg, { maxLength: 4 }).map((s) => `/${s.join('/')}`);
    const pattern = fc.tuple(fc.boolean(), path).map(([neg, p]) => `${neg ? '!' : ''}${p}`);
    fc.assert(
      fc.property(
        fc.array(path, { maxLength: 8 }),
        fc.array(pattern, { maxLength: 4 }),
        (paths, patterns) => {
          const theirs = new Set(matcher(paths, patterns) as string[]);
          const ours = pathExcluder(patterns);
          for (const p of paths)
            expect(ours(p), `${p} against ${JSON.stringify(patterns)}`).toBe(theirs.has(p));
        },
      ),
    );
  });
});

describe('generateNextSitemaps with next-sitemap options', () => {
  it("keeps next-sitemap's names, excludes, and transforms; a null transform leaves the page out", async () => {
    const dir = fakeBuild();
    const result = await generateNextSitemaps({
      dir,
      siteUrl: 'https://example.com',
      exclude: ['/admin/*', '!/admin/public'],
      transform: async (config, path) =>
        path === '/secret'
          ? null
          : { loc: path, changefreq: config.changefreq, priority: path === '/' ? 1 : config.priority },
    });
    expect(result.build).toEqual({ kind: 'server', pages: PAGES.length });
    expect(result.outDir).toBe(join(dir, 'public'));
    expect(locs(join(dir, 'public/sitemap.xml'))).toEqual(['https://example.com/sitemap-0.xml']);
    const child = readFileSync(join(dir, 'public/sitemap-0.xml'), 'utf8');
    expect(locs(join(dir, 'public/sitemap-0.xml'))).toEqual([
      'https://example.com/',
      'https://example.com/about',
      'https://example.com/admin/public',
      'https://example.com/blog/a',
      'https://example.com/blog/b',
    ]);
    // The transform's config holds next-sitemap's defaults (daily, 0.7), as its users' code expects.
    // No lastmod unless asked for: one build dates every page alike.
    expect(child).toContain(
      '<loc>https://example.com/about</loc><changefreq>daily</changefreq><priority>0.7</priority>',
    );
    expect(child).toContain('<loc>https://example.com/</loc>');
    expect(child).toContain('<priority>1.0</priority>');
    // What the HTML shows stays: the page's own image.
    expect(child).toContain('<image:loc>https://example.com/img/about.png</image:loc>');
    expect(result.leftOut).toEqual([
      { path: '/admin/users', reason: 'exclude' },
      { path: '/secret', reason: 'transform' },
    ]);
  });

  it('alternateRefs give every page its other-domain versions, itself as x-default', async () => {
    const dir = fakeBuild();
    await generateNextSitemaps({
      dir,
      siteUrl: 'https://example.com',
      exclude: ['/admin/*', '/blog/*', '/secret'],
      alternateRefs: [
        { href: 'https://es.example.com', hreflang: 'es' },
        { href: 'https://fr.example.com/about-fr', hreflang: 'fr', hrefIsAbsolute: true },
      ],
    });
    const child = readFileSync(join(dir, 'public/sitemap-0.xml'), 'utf8');
    expect(child).toContain(
      '<url><loc>https://example.com/about</loc><xhtml:link rel="alternate" hreflang="es" href="https://es.example.com/about"/><xhtml:link rel="alternate" hreflang="fr" href="https://fr.example.com/about-fr"/><xhtml:link rel="alternate" hreflang="x-default" href="https://example.com/about"/>',
    );
    expect(child).not.toContain('<lastmod>');
  });

  it('additionalPaths add URLs and change the fields of a page they name; robots.txt lists the index and more', async () => {
    const dir = fakeBuild();
    const result = await generateNextSitemaps({
      dir,
      siteUrl: 'https://example.com',
      exclude: ['/admin/*', '/blog/*', '/secret'],
      additionalPaths: async () => [
        { loc: '/about', priority: 0.9 },
        { loc: '/landing', lastmod: '2026-01-02' },
      ],
      generateRobotsTxt: true,
      robotsTxtOptions: {
        policies: [
          { userAgent: '*', allow: '/', disallow: ['/admin', '/api'] },
          { userAgent: 'BadBot', disallow: '/', crawlDelay: 10 },
        ],
        additionalSitemaps: ['https://example.com/server-sitemap.xml'],
      },
    });
    expect(locs(join(dir, 'public/sitemap-0.xml'))).toEqual([
      'https://example.com/',
      'https://example.com/about',
      'https://example.com/landing',
    ]);
    const child = readFileSync(join(dir, 'public/sitemap-0.xml'), 'utf8');
    expect(child).toContain('<priority>0.9</priority>');
    expect(child).toContain('<loc>https://example.com/landing</loc><lastmod>2026-01-02</lastmod>');
    expect(result.robotsTxt).toBe(join(dir, 'public/robots.txt'));
    expect(readFileSync(join(dir, 'public/robots.txt'), 'utf8')).toBe(
      [
        '# *',
        'User-agent: *',
        'Allow: /',
        'Disallow: /admin',
        'Disallow: /api',
        '',
        '# BadBot',
        'User-agent: BadBot',
        'Disallow: /',
        'Crawl-delay: 10',
        '',
        '# Sitemaps',
        'Sitemap: https://example.com/sitemap.xml',
        'Sitemap: https://example.com/server-sitemap.xml',
        '',
      ].join('\n'),
    );
  });

  it('sitemapSize splits into sitemap-0.xml, sitemap-1.xml, …; generateIndexSitemap: false writes one file as sitemap.xml', async () => {
    const dir = fakeBuild();
    await generateNextSitemaps({ dir, siteUrl: 'https://example.com', sitemapSize: 3 });
    expect(locs(join(dir, 'public/sitemap.xml'))).toEqual([
      'https://example.com/sitemap-0.xml',
      'https://example.com/sitemap-1.xml',
      'https://example.com/sitemap-2.xml',
    ]);
    const single = fakeBuild();
    await generateNextSitemaps({ dir: single, siteUrl: 'https://example.com', generateIndexSitemap: false });
    expect(readFileSync(join(single, 'public/sitemap.xml'), 'utf8')).toContain('<urlset');
  });

  it('autoLastmod: true dates each page by its HTML, and the writer says one build dated them all', async () => {
    const dir = fakeBuild();
    const codes: string[] = [];
    await generateNextSitemaps({
      dir,
      siteUrl: 'https://example.com',
      autoLastmod: true,
      onDiagnostic: (d) => codes.push(d.code),
    });
    expect(readFileSync(join(dir, 'public/sitemap-0.xml'), 'utf8')).toMatch(
      /<loc>https:\/\/example\.com\/about<\/loc><lastmod>\d{4}-\d\d-\d\dT/,
    );
    // Seven pages are too few for the lastmod watch (twenty or more): no finding here.
    expect(codes).toEqual([]);
  });

  it('words every wrong option as a sentence naming it', async () => {
    const dir = fakeBuild();
    expect(await failure({ dir } as NextSitemapOptions)).toMatch(/^ERR_OPTIONS: siteUrl is missing/);
    expect(await failure({ dir, siteUrl: 'example.com' })).toMatch(/^ERR_OPTIONS: siteUrl/);
    expect(await failure({ dir, siteUrl: 'https://example.com', sitemapSize: 0 })).toMatch(/sitemapSize/);
    expect(await failure({ dir, siteUrl: 'https://example.com', priority: 2 })).toBe(
      'ERR_OPTIONS: priority must be a number from 0 to 1, not 2',
    );
    expect(
      await failure({ dir, siteUrl: 'https://example.com', alternateRefs: [{ hreflang: 'es' }] as never }),
    ).toMatch(/alternateRefs\[0\]\.href/);
    expect(
      await failure({ dir, siteUrl: 'https://example.com', robotsTxtOptions: { policies: [{}] as never } }),
    ).toMatch(/robotsTxtOptions\.policies\[0\] needs a userAgent/);
    expect(await failure({ dir, siteUrl: 'https://example.com', sitemapBaseFileName: 'a/b' })).toMatch(
      /sitemapBaseFileName must be a file name/,
    );
    expect(await failure({ dir: tempDir('sk-next-empty'), siteUrl: 'https://example.com' })).toMatch(
      /^ERR_INPUT: there is no Next.js build here/,
    );
    // A misspelt option is refused with the nearest names, not ignored; next-sitemap's own pass.
    expect(await failure({ dir, siteUrl: 'https://example.com', exlude: ['/a'] } as NextSitemapOptions)).toBe(
      'ERR_OPTIONS: exlude is not an option of sitemapkit next or next-sitemap: did you mean exclude?',
    );
    expect(
      await failure({
        dir,
        siteUrl: 'https://example.com',
        robotsTxtOptions: { policy: [] } as never,
      }),
    ).toBe(
      'ERR_OPTIONS: robotsTxtOptions.policy is not an option of sitemapkit next or next-sitemap: did you mean policies?',
    );
    expect(
      await failure({ dir, siteUrl: 'https://example.com', output: 'server' } as NextSitemapOptions),
    ).toBe('ERR_OPTIONS: output must be "export" or "standalone", not "server"');
    await expect(
      generateNextSitemaps({
        dir,
        siteUrl: 'https://example.com',
        output: 'standalone',
      } as NextSitemapOptions),
    ).resolves.toBeDefined();
  });
});

describe('a static export folder given alone', () => {
  it('reads its pages (trailingSlash folders as /path/), leaves 404 out, and writes into it', async () => {
    const out = tempDir('sk-next-out');
    for (const [rel, text] of [
      ['index.html', '<title>Home</title>'],
      ['about/index.html', '<title>About</title>'],
      ['blog/a/index.html', '<title>A</title>'],
      ['404.html', '<title>Not found</title>'],
      ['404/index.html', '<title>Not found</title>'],
      ['_next/static/chunks/x.html', 'not a page'],
    ] as const) {
      mkdirSync(dirname(join(out, rel)), { recursive: true });
      writeFileSync(join(out, rel), text);
    }
    const result = await generateNextSitemaps({ dir: out, siteUrl: 'https://example.com/' });
    expect(result.build).toEqual({ kind: 'export', pages: 3 });
    expect(result.outDir).toBe(out);
    expect(locs(join(out, 'sitemap-0.xml'))).toEqual([
      'https://example.com/',
      'https://example.com/about/',
      'https://example.com/blog/a/',
    ]);
    expect(result.leftOut).toEqual([{ path: '/404', reason: 'error-page' }]);
  });
});

describe('the config file', () => {
  it("loads next-sitemap.config.js (CommonJS, as next-sitemap's docs write it)", async () => {
    const dir = tempDir('sk-next-config');
    writeFileSync(
      join(dir, 'next-sitemap.config.js'),
      "module.exports = { siteUrl: 'https://example.com' };\n",
    );
    const got = await loadNextConfig(dir);
    expect(got?.path).toBe(join(dir, 'next-sitemap.config.js'));
    expect(got?.options).toEqual({ siteUrl: 'https://example.com' });
  });

  it('names the config file of a misspelt option, in one sentence', async () => {
    const dir = fakeBuild();
    writeFileSync(
      join(dir, 'next-sitemap.config.js'),
      "module.exports = { siteUrl: 'https://example.com', generateRobotTxt: true };\n",
    );
    const run = await runBin(['next', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${join(dir, 'next-sitemap.config.js')}: generateRobotTxt is not an option of sitemapkit next or next-sitemap: did you mean generateRobotsTxt?`,
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the file that cannot be loaded, and says what to do', async () => {
    const dir = tempDir('sk-next-config');
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(dir, 'next-sitemap.config.js'),
      "module.exports = { siteUrl: 'https://example.com' };\n",
    );
    const run = await runBin(['next', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(dir, 'next-sitemap.config.js')}: cannot load the config file`);
    expect(run.stderr).toContain('rename the file to .cjs, or use export default');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('the CLI: flags over the config file, and a missing build in one sentence', async () => {
    const dir = fakeBuild();
    writeFileSync(
      join(dir, 'next-sitemap.config.js'),
      "module.exports = { siteUrl: 'https://old.example.com' };\n",
    );
    const run = await runBin([
      'next',
      dir,
      '--site-url',
      'https://example.com',
      '--exclude',
      '/admin/*',
      '--robots',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('/admin/users: it matches exclude');
    expect(locs(join(dir, 'public/sitemap-0.xml'))[0]).toBe('https://example.com/');
    const priority = await runBin(['next', dir, '--priority', '1.5']);
    expect(priority.code).toBe(2);
    expect(priority.stderr).toContain('--priority needs a number from 0 to 1, not "1.5"');
    const none = await runBin(['next', tempDir('sk-next-none'), '--site-url', 'https://example.com']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(
      /there is no Next.js build here \(no .next folder\) \[ERR_INPUT\]\n {2}run next build first/,
    );
  });
});
