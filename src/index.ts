export * from './core/canonical.js';
export * from './core/diagnostics.js';
export * from './core/entry.js';
export * from './core/errors.js';
export * from './core/lastmod.js';
export * from './core/limits.js';
export * from './core/normalize.js';
export * from './core/url.js';
export * from './crawler/index.js';
export {
  DEFAULT_LINKS_PER_PAGE,
  HtmlSitemapBuilder,
  type HtmlSitemapFile,
  type HtmlSitemapOptions,
} from './html/html-sitemap.js';
export {
  type AddressPolicy,
  HttpClient,
  type HttpClientOptions,
  HttpError,
  type HttpFailureReason,
} from './http/index.js';
export {
  absoluteHttpUrl,
  isNoindex,
  type PageLink,
  type PageMeta,
  PageMetaReader,
  readPageMeta,
  resolvePageBase,
} from './page/page-meta.js';
export * from './parser/index.js';
export * from './robots/index.js';
export { readStaticSite, type StaticSiteOptions } from './sources/static-site.js';
export {
  formatFromName,
  type InputFormat,
  readCsv,
  readInput,
  readJsonl,
  readTxt,
} from './sources/url-lists.js';
export * from './submit/index.js';
export * from './validate/index.js';
export * from './writer/index.js';
