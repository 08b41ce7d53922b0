import { describe, expect, it } from 'vitest';

// The package's public surface, through its own `exports` map (the built dist/, as users get it).
// A change here is a change of public API: update the snapshot only on purpose.
const SUBPATHS = [
  '/writer',
  '/sources',
  '/html',
  '/page',
  '/parser',
  '/robots',
  '/http',
  '/submit',
  '/validate',
  '/crawler',
  '/store',
  '/handler',
  '/handler/node',
  '/audit',
  '/next',
  '/vite',
  '/astro',
] as const;

/** The errors and findings belong to every concept: the root is their home. */
const ROOT_ONLY = new Set(['SitemapkitError', 'isSitemapkitError', 'formatDiagnostic']);

describe('the public API', () => {
  it('the package root exports the entry points the issues promise', async () => {
    const root = await import('sitemapkit');
    for (const name of [
      'writeSitemaps',
      'parseSitemap',
      'parseSitemapTree',
      'discoverSitemaps',
      'parseRobotsTxt',
      'validateSitemap',
      'crawl',
      'submitToIndexNow',
      'SitemapkitError',
      'isSitemapkitError',
      'normalizeEntry',
      'openStore',
    ]) {
      expect(typeof (root as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('the root is small enough to hold in one’s head (about thirty names)', async () => {
    expect(Object.keys(await import('sitemapkit')).length).toBeLessThanOrEqual(32);
  });

  it('the root and every subpath keep their export names', async () => {
    const surface: Record<string, string[]> = {};
    for (const sub of ['', ...SUBPATHS]) {
      surface[`sitemapkit${sub}`] = Object.keys(await import(`sitemapkit${sub}`)).sort();
    }
    expect(surface).toMatchSnapshot();
  });

  it('every name of the root is also exported by the subpath of its concept, as the same object', async () => {
    const root = (await import('sitemapkit')) as Record<string, unknown>;
    const subs = await Promise.all(
      SUBPATHS.map(async (s) => (await import(`sitemapkit${s}`)) as Record<string, unknown>),
    );
    const homeless = Object.keys(root).filter(
      (name) => !ROOT_ONLY.has(name) && !subs.some((m) => name in m && m[name] === root[name]),
    );
    expect(homeless).toEqual([]);
  });

  it('internals stay internal', async () => {
    const all = new Set<string>();
    for (const sub of ['', ...SUBPATHS])
      for (const k of Object.keys(await import(`sitemapkit${sub}`))) all.add(k);
    for (const name of [
      'Politeness',
      'RETRY_STATUSES',
      'rewriteOrigin',
      'urlPattern',
      'toByteString',
      'fromByteString',
      'normalizeEntryFully',
      'AddressGuard',
      'webChunks',
      'renderRulesMarkdown',
    ]) {
      expect(all.has(name), name).toBe(false);
    }
  });
});
