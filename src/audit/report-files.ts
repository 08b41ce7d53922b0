/**
 * The audit's report files in a folder (the crawl report's, for `crawl --audit`): `audit.html`,
 * `audit.json` (the object `audit --json` prints), `audit.csv` and, when asked, `audit.junit.xml`.
 * Each is written to a temporary name and renamed: a crash never leaves half a report. With the
 * crawl's `report.html` beside them, that report gets a link to `audit.html` once it is written
 * (rewritten the same way), and `audit.html` one back.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { linkReport } from '../crawler/report-html.js';
import { ensureDir, writeFileAtomic } from '../writer/atomic.js';
import { type AuditReportInput, auditHtml, formatAudit } from './report.js';

/** The files {@link writeAuditFiles} wrote. */
export interface AuditReportFiles {
  html: string;
  json: string;
  csv: string;
  /** Only when JUnit was asked for. */
  junit?: string;
}

/** Writes the audit's reports into `dir` (created when missing). */
export async function writeAuditFiles(
  dir: string,
  input: AuditReportInput,
  junit: boolean,
): Promise<AuditReportFiles> {
  await ensureDir(dir, 'create the report folder');
  const files: AuditReportFiles = {
    html: join(dir, 'audit.html'),
    json: join(dir, 'audit.json'),
    csv: join(dir, 'audit.csv'),
  };
  const doing = { doing: 'write the audit report' };
  await writeFileAtomic(files.json, formatAudit(input, 'json'), doing);
  await writeFileAtomic(files.csv, formatAudit(input, 'csv'), doing);
  if (junit) {
    files.junit = join(dir, 'audit.junit.xml');
    await writeFileAtomic(files.junit, formatAudit(input, 'junit'), doing);
  }
  await writeFileAtomic(files.html, auditHtml(input), doing);
  if (input.crawlReport !== undefined) await linkCrawlReport(join(dir, input.crawlReport), input);
  return files;
}

/** Adds the link to `audit.html` under the crawl report's summary (a report with no place for it is left as it is). */
async function linkCrawlReport(path: string, input: AuditReportInput): Promise<void> {
  const c = input.counts;
  const html = linkReport(
    await readFile(path, 'utf8'),
    `The audit of the published sitemaps against this crawl: <a href="audit.html">audit.html</a> (${c.error} errors, ${c.warning} warnings, ${c.info} notes).`,
  );
  if (html !== undefined) await writeFileAtomic(path, html, { doing: 'link the crawl report to the audit' });
}
