/** The crawler: spider a site politely into a resumable state, then write its sitemaps and report. */
export { type CrawlResult, crawl } from './crawl.js';
export type { SharedCrawlWorker } from './frontier-postgres-options.js';
export {
  type CrawlWorkerStatus,
  openPostgresCrawl,
  type PostgresCrawl,
  type SharedCrawlStatus,
} from './frontier-postgres-read.js';
export { normalizeCrawlUrl, type ParamPolicy } from './normalize-url.js';
export {
  type CrawlOptions,
  type CrawlProgress,
  DEFAULT_META_AGENTS,
  DEFAULT_PRIORITY_MAP,
  type PageEvent,
  type PgStep,
  type SharedCrawlOptions,
} from './options.js';
export type { Change, ChangeCounts, CrawlStats, UrlRecord, UrlSource, Verdict } from './records.js';
export type { CrawlReportFiles } from './report.js';
export { priorityForDepth } from './sitemap-entries.js';
