/**
 * `sitemapkit/astro`: the Astro integration (Astro is an optional peer dependency, imported for
 * its types only). See docs/astro.md.
 */

export { sitemap } from './integration.js';
export type { AstroSitemapOptions, ChangeFreq, ItemHook, LinkItem, SitemapItem } from './options.js';
