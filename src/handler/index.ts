/**
 * `sitemapkit/handler`: a sitemap set served from an app, as a web-standard handler. Imports
 * nothing from Node, so it runs in Deno, Bun and edge runtimes; the Node, Express and Fastify
 * adapters are in `sitemapkit/handler/node`.
 */
export { MemoryCache } from './cache.js';
export { createSitemapHandler } from './handler.js';
export type {
  Compressor,
  EntriesSource,
  EntryList,
  FileSource,
  HandlerCache,
  HandlerSource,
  PagedSource,
  SitemapHandler,
  SitemapHandlerOptions,
  SourceVersion,
} from './types.js';
