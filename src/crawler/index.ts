/** The crawler: spider a site politely into a resumable state, then write its sitemaps and report. */

// The HTTP layer's host scheduler under the name the crawler exported it by.
export { type HostLimits, HostScheduler as Politeness } from '../http/scheduler.js';
export {
  canonicalFromLinkHeader,
  pageLastmod,
  parseXRobotsTag,
  robotsDirectives,
} from '../page/verdict.js';
export { type CrawlResult, crawl } from './crawl.js';
export { normalizeCrawlUrl, type ParamPolicy } from './normalize-url.js';
export {
  type CrawlOptions,
  type CrawlProgress,
  DEFAULT_META_AGENTS,
  DEFAULT_PRIORITY_MAP,
  type PageEvent,
} from './options.js';
export type { CrawlStats, UrlRecord, UrlSource, Verdict } from './records.js';
export type { CrawlReportFiles } from './report.js';
export { decideRetry, RETRY_STATUSES, type RetryDecision, type RetryPolicy } from './retry.js';
export { trapReason, urlPattern } from './scope.js';
export { priorityForDepth, rewriteOrigin } from './sitemap-entries.js';
