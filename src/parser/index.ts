/** Sitemap reading: parse one sitemap, walk index trees, discover a site's sitemaps. */
export { SitemapParser } from './core.js';
export { discoverSitemaps, looksLikeSitemap, WELL_KNOWN_PATHS } from './discover.js';
export { FetchFailure, type FetchFailureKind } from './http.js';
export { parseSitemap, parseSitemapToArray } from './parse-sitemap.js';
export { PARSER_RULES, type ParserRuleCode } from './rules.js';
export { parseSitemapTree } from './tree.js';
export type {
  DiscoveredSitemap,
  DiscoverOptions,
  ItemPosition,
  ParsedSitemap,
  ParseOptions,
  SitemapFormat,
  SitemapInfo,
  SitemapItem,
  SitemapParse,
  SitemapParserOptions,
  SitemapSource,
  TreeEntry,
  TreeOptions,
} from './types.js';
