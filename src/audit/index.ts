/** The audit: a site's published sitemaps against the site itself (`sitemapkit/audit`). */
export {
  type AuditCode,
  type AuditCounts,
  type AuditEntry,
  type AuditFinding,
  type AuditPage,
  type AuditRules,
  auditFindings,
} from './audit-core.js';
export {
  type AuditedCrawlOptions,
  type AuditedCrawlResult,
  type CrawlAudit,
  type CrawlAuditSettings,
  crawlAndAudit,
} from './crawl-audit.js';
export { type AuditFormat, type AuditReportInput, auditHtml, formatAudit } from './report.js';
export type { AuditReportFiles } from './report-files.js';
export { type AuditCrawlOptions, type AuditOptions, type AuditResult, audit } from './run.js';
