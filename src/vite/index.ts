/**
 * `sitemapkit/vite`: the Vite plug-in that writes a build's sitemaps into its output folder.
 * Vite is an optional peer dependency: only this subpath refers to it, and only to its types.
 */
export type { Route, RouteList, SitemapkitViteOptions } from './options.js';
export { sitemapkit } from './plugin.js';
