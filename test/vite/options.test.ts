/**
 * The plug-in's options and route paths, without a build: every wrong option stops the plug-in
 * when it is created, in one sentence naming it; paths resolve under the site's URL and Vite's
 * base; and Vite stays an optional peer that only `sitemapkit/vite` refers to, and only for types.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { siteUrl } from '../../src/vite/options.js';
import { sitemapkit } from '../../src/vite/plugin.js';
import { routeUrl } from '../../src/vite/routes.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path, ext);
    return ext.test(name) ? [path] : [];
  });
}

function thrown(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (e) {
    if (isSitemapkitError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('did not throw');
}

describe('sitemapkit() options', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['baseUrl', {}, 'sitemapkit({ baseUrl }): the public URL of the site is required'],
    [
      'baseUrl',
      { baseUrl: 'example.com' },
      'sitemapkit({ baseUrl }): "example.com" must be an absolute http(s) URL',
    ],
    ['baseUrl', { baseUrl: 'ftp://example.com/' }, 'sitemapkit({ baseUrl }): "ftp://example.com/" must be'],
    ['routes', { routes: '/about' }, 'sitemapkit({ routes }): must be an array of paths or entries'],
    ['routes', { routes: 42 }, 'sitemapkit({ routes }): must be an array'],
    ['pages', { pages: 'yes' }, 'sitemapkit({ pages }): must be true or false, not "yes"'],
    ['exclude', { exclude: 'drafts/**' }, 'sitemapkit({ exclude }): must be an array of globs'],
    ['filter', { filter: /x/ }, 'sitemapkit({ filter }): must be a function'],
    ['images', { images: { maxShare: 2 } }, 'sitemapkit({ images }): maxShare must be a number from 0 to 1'],
    ['images', { images: 'all' }, 'sitemapkit({ images }): must be true, false or { maxShare, exclude }'],
    ['format', { format: 'json' }, 'sitemapkit({ format }): must be xml, txt, not "json"'],
    [
      'maxUrlsPerFile',
      { maxUrlsPerFile: 50_001 },
      'sitemapkit({ maxUrlsPerFile }): must be a whole number from 1 to 50,000',
    ],
    ['xsl', { xsl: '' }, 'sitemapkit({ xsl }): must be true, false or the URL of a stylesheet'],
    ['html', { html: 'yes' }, 'sitemapkit({ html }): must be true, false or { siteName, linksPerPage }'],
    ['robots', { robots: 'robots.txt' }, 'sitemapkit({ robots }): must be true or false'],
    ['onInvalid', { onInvalid: 'ignore' }, 'sitemapkit({ onInvalid }): must be fail, skip, drop-field'],
    ['lastmodPolicy', { lastmodPolicy: 'trust' }, 'sitemapkit({ lastmodPolicy }): must be warn, drop, keep'],
    [
      'names',
      { names: { index: 'maps/sitemap' } },
      'sitemapkit({ names }): names.index must be a file name without extension',
    ],
    ['names', { names: { child: 'sitemap-{n}' } }, 'sitemapkit({ names }): names.child must be a function'],
    ['alwaysIndex', { alwaysIndex: 'yes' }, 'sitemapkit({ alwaysIndex }): must be true or false'],
  ])('a wrong %s is an ERR_OPTIONS sentence naming it (%j)', (_name, given, start) => {
    const base = 'baseUrl' in given || _name === 'baseUrl' ? {} : { baseUrl: 'https://example.com/' };
    const e = thrown(() => sitemapkit({ ...base, ...given } as never));
    expect(e.code).toBe('ERR_OPTIONS');
    expect(e.message.startsWith(start), e.message).toBe(true);
  });

  it('a good set of options makes a build-only plug-in, and the caller’s object is left as it was', () => {
    const options = { baseUrl: 'https://example.com/', routes: ['/'], images: { maxShare: 1 } };
    const copy = structuredClone(options);
    const plugin = sitemapkit(options);
    expect([plugin.name, plugin.apply]).toEqual(['sitemapkit', 'build']);
    expect(options).toEqual(copy);
  });
});

describe('where the pages are', () => {
  it('Vite’s base path goes under a baseUrl without a path; a relative or CDN base changes nothing', () => {
    const at = (base: string, viteBase: string): string => siteUrl(new URL(base), viteBase);
    expect(at('https://example.com', '/')).toBe('https://example.com/');
    expect(at('https://example.com/', '/app/')).toBe('https://example.com/app/');
    expect(at('https://example.com/', './')).toBe('https://example.com/');
    expect(at('https://example.com/', 'https://cdn.example.net/assets/')).toBe('https://example.com/');
    expect(at('https://example.com/', '//cdn.example.net/')).toBe('https://example.com/');
    expect(at('https://example.com/site', '/app/')).toBe('https://example.com/site/');
  });

  it('a route path made of plain segments lies under the site, with or without its leading slash; a full URL is kept', () => {
    const segment = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
    fc.assert(
      fc.property(
        fc.constantFrom('https://example.com/', 'https://example.com/app/'),
        fc.array(segment, { maxLength: 5 }),
        fc.boolean(),
        (site, segments, slash) => {
          const path = segments.join('/');
          const url = routeUrl(`${slash ? '/' : ''}${path}`, site);
          expect(url).toBe(site + path);
          expect(routeUrl(url, 'https://other.example/')).toBe(url);
        },
      ),
    );
  });
});

describe('Vite is an optional peer', () => {
  it('only src/vite refers to vite, and only through type imports', () => {
    const refs = files(SRC, /\.ts$/).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+'vite(?:\/[^']*)?'/gm)].map(
        (m) => `${relative(SRC, file)}: ${m[2] === undefined ? 'value' : 'type'}`,
      );
    });
    expect(refs).toEqual(['vite/plugin.ts: type']);
    expect(files(SRC, /\.ts$/).some((f) => /import\(\s*'vite'/.test(readFileSync(f, 'utf8')))).toBe(false);
  });

  it('the built sitemapkit/vite loads no vite module (npm run build first)', () => {
    const js = files(join(DIST, 'vite'), /\.js$/);
    expect(js.length).toBeGreaterThan(0);
    for (const file of js)
      expect(readFileSync(file, 'utf8'), file).not.toMatch(/from ['"]vite['"]|import\(['"]vite['"]\)/);
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.peerDependenciesMeta.vite.optional).toBe(true);
    expect(pkg.dependencies.vite).toBeUndefined();
    expect(pkg.exports['./vite'].default).toBe('./dist/vite/index.js');
  });
});
