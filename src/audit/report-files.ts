/**
 * The audit's report files in a folder (the crawl report's, for `crawl --audit`): `audit.html`,
 * `audit.json` (the object `audit --json` prints), `audit.csv` and, when asked, `audit.junit.xml`.
 * Each is written to a temporary name and renamed: a crash never leaves half a report.
 */
import { join } from 'node:path';
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
  return files;
}
