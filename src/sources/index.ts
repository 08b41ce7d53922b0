/**
 * Writer inputs: URL lists (txt, CSV, JSON Lines), static site folders, web server access logs
 * and a site's existing sitemaps, as async iterables of records.
 */
export {
  type AccessLogOptions,
  type LogFileSummary,
  type LogInput,
  type LogLastmod,
  readAccessLogs,
} from './access-log.js';
export type { CsvOptions } from './csv.js';
export {
  type ExistingSitemaps,
  type ExistingSitemapsOptions,
  type ExistingSitemapsResult,
  readSitemaps,
} from './existing-sitemaps.js';
export { LOG_EXCLUDED_EXTENSIONS, type LogFilterOptions } from './log-filter.js';
export { readSql, redactDatabaseUrl, type SqlOptions } from './sql.js';
export { readStaticSite, type StaticPage, type StaticSiteOptions } from './static-site.js';
export {
  formatFromName,
  type InputFormat,
  type InputOptions,
  readCsv,
  readInput,
  readJsonl,
  readTxt,
  type SourceRecord,
  type TextInputOptions,
} from './url-lists.js';
