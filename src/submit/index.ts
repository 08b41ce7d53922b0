/**
 * Submitting: IndexNow keys and submissions, change sets between builds, the sitemaps of a build,
 * Google Search Console (submit, status, URL Inspection), Bing Webmaster Tools, the submission
 * journal, the legacy ping.
 */
export {
  BING_API_ROOT,
  BING_MAX_BATCH,
  BingError,
  type BingFailureReason,
  type BingFeed,
  type BingQuota,
  type BingRequest,
  bingDate,
} from './bing/api.js';
export { BingClient, type BingOptions } from './bing/client.js';
export {
  type BingBatchResult,
  type BingBatchStatus,
  type BingReport,
  type BingSubmitOptions,
  getBingFeeds,
  submitSitemapsToBing,
  submitUrlsToBing,
} from './bing/submit.js';
export { type BuildSitemap, buildSitemaps, isSitemapUrl } from './build-sitemaps.js';
export { type ChangeCounts, type ChangeKind, diffUrls, type UrlChange } from './changes.js';
export {
  checkSite,
  GOOGLE_API_ROOT,
  GOOGLE_INSPECTION_ROOT,
  GOOGLE_TOKEN_URI,
  GoogleApiError,
  type GoogleFailureKind,
  type GoogleIndexStatus,
  type GoogleInspection,
  type GoogleOptions,
  type GoogleRequest,
  type GoogleSitemap,
  type GoogleSitemapContent,
  type GoogleSubmitResult,
  type GoogleSubmitStatus,
  openSearchConsole,
  SearchConsoleClient,
  type ServiceAccountKey,
  WEBMASTERS_SCOPE,
} from './google/index.js';
export {
  INDEXNOW_MAX_URLS,
  type IndexNowBatchResult,
  type IndexNowBatchStatus,
  type IndexNowInvalidUrl,
  type IndexNowKey,
  type IndexNowOptions,
  type IndexNowReport,
  indexNowEndpoint,
  submitToIndexNow,
} from './indexnow.js';
export {
  type JournalReport,
  type JournalState,
  journalPath,
  openSubmissionJournal,
  SubmissionJournal,
  type SubmissionJournalOptions,
} from './journal.js';
export {
  assertValidKey,
  generateKey,
  isValidKey,
  KEY_MAX_LENGTH,
  KEY_MIN_LENGTH,
  writeKeyFile,
} from './key.js';
export { PING_NOTE, type PingResult, pingSitemap } from './ping.js';
export {
  readSourceUrls,
  readUrlList,
  type SourceUrl,
  sourceKind,
  type UrlSourceKind,
  type UrlSourceOptions,
} from './url-source.js';
