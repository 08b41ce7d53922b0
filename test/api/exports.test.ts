import { describe, expect, it } from 'vitest';

// The package's public surface, through its own `exports` map (the built dist/, as users get it).
// A change here is a change of public API: update the snapshot only on purpose.
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
      'SitemapkitError',
      'isSitemapkitError',
      'normalizeEntry',
    ]) {
      expect(typeof (root as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('the root and every subpath keep their export names', async () => {
    const surface: Record<string, string[]> = {};
    for (const sub of ['', '/writer', '/parser', '/robots', '/submit', '/validate', '/crawler']) {
      surface[`sitemapkit${sub}`] = Object.keys(await import(`sitemapkit${sub}`)).sort();
    }
    expect(surface).toMatchSnapshot();
  });

  it('each subpath exports a subset of the root', async () => {
    const root = new Set(Object.keys(await import('sitemapkit')));
    for (const sub of ['/writer', '/parser', '/robots', '/submit', '/validate', '/crawler']) {
      for (const name of Object.keys(await import(`sitemapkit${sub}`)))
        expect(root.has(name), `${sub}: ${name}`).toBe(true);
    }
  });
});
