/**
 * The audit's flags, shared by `audit` and `crawl --audit` so that both read and word them alike
 * (the sitemaps held against the site, the click depth, the inflated-lastmod margin), and the
 * lines `crawl --audit` adds to the crawl's summary.
 */
import { basename } from 'node:path';
import type { Command } from 'commander';
import type { AuditedCrawlResult, CrawlAuditSettings } from '../audit/crawl-audit.js';
import { num, shortPath } from './crawl-flags.js';
import { collect, wholeNumberArg } from './flags.js';

export interface AuditRuleFlags {
  sitemap: string[];
  maxClicks?: number;
  inflatedAfter?: number;
}

/** Adds `--sitemap`, `--max-clicks` and `--inflated-after`; `prefix` says when they apply ("with --audit: "). */
export function auditRuleFlags(cmd: Command, prefix = ''): Command {
  return cmd
    .option(
      '--sitemap <url>',
      `${prefix}a published sitemap or index to audit (repeatable; default: robots.txt Sitemap: lines and the well-known paths)`,
      collect,
      [],
    )
    .option(
      '--max-clicks <n>',
      `${prefix}report listed pages more clicks than this from the start page (default 5)`,
      wholeNumberArg('--max-clicks'),
    )
    .option(
      '--inflated-after <days>',
      `${prefix}a lastmod newer than anything the page or server shows by more than this many days is inflated (default 365)`,
      num('--inflated-after'),
    );
}

/** The audit's settings those flags set. */
export function auditRules(flags: AuditRuleFlags): CrawlAuditSettings {
  return {
    ...(flags.sitemap.length === 0 ? {} : { sitemaps: flags.sitemap }),
    ...(flags.maxClicks === undefined ? {} : { maxDepth: flags.maxClicks }),
    ...(flags.inflatedAfter === undefined ? {} : { inflatedAfterDays: flags.inflatedAfter }),
  };
}

/** The flags that mean nothing without `--audit`, as the user wrote them. */
export function auditOnlyFlags(flags: AuditRuleFlags & { auditJunit?: boolean }): string[] {
  return [
    ...(flags.sitemap.length > 0 ? ['--sitemap'] : []),
    ...(flags.maxClicks === undefined ? [] : ['--max-clicks']),
    ...(flags.inflatedAfter === undefined ? [] : ['--inflated-after']),
    ...(flags.auditJunit === true ? ['--audit-junit'] : []),
  ];
}

/** The audit's lines of the crawl's text summary. */
export function auditSummaryLines(
  result: Partial<Pick<AuditedCrawlResult, 'audit' | 'auditSkipped'>>,
): string[] {
  const audit = result.audit;
  if (audit === undefined) {
    return [
      result.auditSkipped === 'interrupted'
        ? '  audit: interrupted after the crawl wrote its output (run the same command with --resume: no page is fetched again, and the audit runs again)'
        : '  audit: not run, the crawl stopped at --max-pages (resume it with a larger --max-pages: the whole crawl is audited)',
    ];
  }
  const c = audit.counts;
  const codes = Object.entries(c.byCode)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  const lines = [
    `  audit of ${audit.sitemaps.join(', ')}: ${c.error} errors, ${c.warning} warnings, ${c.info} notes${codes === '' ? ' (the sitemaps and the site agree)' : `: ${codes}`}`,
  ];
  const f = audit.files;
  if (f !== undefined) {
    const more = [f.json, f.csv, ...(f.junit === undefined ? [] : [f.junit])].map((p) => basename(p));
    lines.push(`  audit report: ${shortPath(f.html)} (with ${more.join(', ')})`);
  }
  return lines;
}
