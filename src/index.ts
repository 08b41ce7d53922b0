/**
 * sitemapkit: the entry points of every concept and their types, about thirty names a person can
 * hold in their head. Helpers, policies and constants live in the subpath of their concept:
 * `sitemapkit/writer`, `/sources`, `/html`, `/page`, `/parser`, `/robots`, `/http`, `/validate`,
 * `/crawler`, `/submit`. Every name here is also exported by its concept's subpath.
 */

// Errors and findings.
export type { Diagnostic, DiagnosticHandler, Severity } from './core/diagnostics.js';
export { formatDiagnostic } from './core/diagnostics.js';
// The entry model.
export type {
  AlternateEntry,
  Changefreq,
  EntryInput,
  ImageEntry,
  NewsEntry,
  SitemapEntry,
  SitemapEntryInput,
  SitemapReference,
  VideoEntry,
} from './core/entry.js';
export { type ErrorCode, isSitemapkitError, SitemapkitError } from './core/errors.js';
export { MAX_BYTES, MAX_URLS } from './core/limits.js';
export {
  type EntryProblem,
  type NormalizeOptions,
  type NormalizeResult,
  normalizeEntry,
} from './core/normalize.js';
// Crawling a site.
export {
  type CrawlOptions,
  type CrawlProgress,
  type CrawlResult,
  type CrawlStats,
  crawl,
  type PageEvent,
} from './crawler/index.js';
// Serving from an app.
export {
  createSitemapHandler,
  type HandlerSource,
  type PagedSource,
  type SitemapHandler,
  type SitemapHandlerOptions,
} from './handler/index.js';
// The HTML site map and pages.
export { HtmlSitemapBuilder, type HtmlSitemapOptions } from './html/index.js';
// HTTP: one client for every request, and the address policy.
export {
  type AddressPolicy,
  type FetchLike,
  HttpClient,
  type HttpClientOptions,
  HttpError,
  type HttpFailureReason,
} from './http/index.js';
export { type PageMeta, readPageMeta } from './page/index.js';
// Reading sitemaps.
export {
  type DiscoveredSitemap,
  type DiscoverOptions,
  discoverSitemaps,
  type ParsedSitemap,
  type ParseOptions,
  parseSitemap,
  parseSitemapToArray,
  parseSitemapTree,
  type SitemapFormat,
  type SitemapInfo,
  type SitemapItem,
  SitemapParser,
  type SitemapParserOptions,
  type SitemapSource,
  type TreeEntry,
  type TreeOptions,
} from './parser/index.js';
// robots.txt.
export {
  fetchRobotsTxt,
  lintRobotsTxt,
  type ParseRobotsOptions,
  parseRobotsTxt,
  RobotsCache,
  type RobotsFetchOptions,
  type RobotsFetchResult,
  type RobotsLintOptions,
  RobotsTxt,
} from './robots/index.js';
// Writer inputs.
export { type InputFormat, readInput, readStaticSite, type StaticSiteOptions } from './sources/index.js';
// The site store.
export {
  type BuildOptions as StoreBuildOptions,
  type BuildResult as StoreBuildResult,
  openStore,
  type SiteStore,
  type StoreOptions,
} from './store/index.js';
// Submitting.
export {
  generateKey,
  type IndexNowOptions,
  type IndexNowReport,
  submitToIndexNow,
  writeKeyFile,
} from './submit/index.js';
// Validating.
export {
  formatValidation,
  type LiveOptions,
  type ReportFormat,
  RULES,
  type ValidateOptions,
  type ValidateSource,
  type ValidationResult,
  validateSitemap,
} from './validate/index.js';
// Writing sitemaps.
export {
  type EntrySource,
  type Sink,
  type WriterOutput,
  type WriteSitemapsOptions,
  type WriteSitemapsResult,
  type WrittenFile,
  writeSitemaps,
} from './writer/index.js';
