export * from './core/canonical.js';
export * from './core/diagnostics.js';
export * from './core/entry.js';
export * from './core/errors.js';
export * from './core/lastmod.js';
export * from './core/limits.js';
export * from './core/normalize.js';
export * from './core/url.js';
export {
  absoluteHttpUrl,
  isNoindex,
  PageMetaReader,
  type PageLink,
  type PageMeta,
  readPageMeta,
  resolvePageBase,
} from './page/page-meta.js';
export { readStaticSite, type StaticSiteOptions } from './sources/static-site.js';
export { readCsv, readInput, readJsonl, readTxt, formatFromName, type InputFormat } from './sources/url-lists.js';
export {
  MANIFEST_NAME,
  readManifestEntries,
  readManifestHeader,
  type ManifestEntry,
  type ManifestFile,
  type ManifestHeader,
} from './writer/manifest.js';
export type { WriteSitemapsOptions } from './writer/options.js';
export { updateRobotsText } from './writer/robots-line.js';
export type { Extension } from './writer/serialize.js';
export {
  ORIGIN,
  UnreadableRecord,
  writeSitemaps,
  type RecordOrigin,
  type WriteSitemapsResult,
  type WrittenFile,
} from './writer/write-sitemaps.js';
export * from './robots/index.js';
export * from './submit/index.js';
export {
  DEFAULT_LINKS_PER_PAGE,
  HtmlSitemapBuilder,
  type HtmlSitemapFile,
  type HtmlSitemapOptions,
} from './html/html-sitemap.js';
export * from './parser/index.js';
export * from './crawler/index.js';
export * from './validate/index.js';
