/**
 * `crawlAndAudit()`: a crawl (its sitemaps, state and report, as `crawl()` writes them) and, from
 * the same run, the audit of the site's published sitemaps against it (`crawl --audit`). The
 * published sitemaps are read once, before the crawl: with `seedSitemaps` their URLs seed it too.
 * The audit judges the crawl's state once the crawl is finished, so a resumed crawl is audited
 * whole; a crawl stopped by `maxPages` is not audited (every URL it did not reach would look like
 * an orphan).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { isSitemapkitError } from '../core/errors.js';
import { type CrawlResult, crawl } from '../crawler/crawl.js';
import { normalizeCrawlUrl } from '../crawler/normalize-url.js';
import { type CrawlOptions, resolveCrawlOptions } from '../crawler/options.js';
import { rewriteOrigin } from '../crawler/sitemap-entries.js';
import type { AuditCounts, AuditFinding, AuditRules } from './audit-core.js';
import { type AuditCrawlOptions, auditCrawled } from './crawled.js';
import { auditHttp, readPublished } from './published.js';
import { type AuditReportFiles, writeAuditFiles } from './report-files.js';

/** What the audit of a crawl holds the site against, and how it reports. */
export interface CrawlAuditSettings extends AuditRules {
  /**
   * The published sitemaps (or indexes) to hold against the crawl.
   * @default those each start's robots.txt names and the well-known paths that answer with a sitemap
   */
  sitemaps?: readonly string[];
  /** Also write `audit.junit.xml` into the report folder (for CI). @default false */
  junit?: boolean;
}

/** Options of {@link crawlAndAudit}: the crawl's, and the audit's under `audit`. */
export interface AuditedCrawlOptions extends CrawlOptions {
  audit?: CrawlAuditSettings;
}

/** The audit of a crawl: what `audit --json` prints, the sitemaps read, and the files written. */
export interface CrawlAudit {
  findings: AuditFinding[];
  counts: AuditCounts;
  /** The sitemaps read (given or discovered). */
  sitemaps: string[];
  /** `audit.html`, `audit.json`, `audit.csv` (and `audit.junit.xml`) in the crawl's report folder, unless `report: false`. */
  files?: AuditReportFiles;
}

/** What {@link crawlAndAudit} returns: the crawl's result and its audit. */
export interface AuditedCrawlResult extends CrawlResult {
  /** Undefined when the audit did not run: `auditSkipped` says why. */
  audit: CrawlAudit | undefined;
  /**
   * Why there is no audit: `incomplete`, the crawl stopped at `maxPages` (resume it to the end: the
   * whole crawl is audited); `interrupted`, `signal` aborted the audit after the crawl had written
   * its output (resume it: no page is fetched again, and the audit runs again).
   */
  auditSkipped?: 'incomplete' | 'interrupted';
}

/**
 * Crawls a site as {@link crawl} does and audits its published sitemaps against the crawl. Throws
 * what `crawl()` throws, and `ERR_INPUT` (before any page is fetched) when the site publishes no
 * sitemap and none is given.
 */
export async function crawlAndAudit(options: AuditedCrawlOptions): Promise<AuditedCrawlResult> {
  const { audit: settings = {}, ...crawlOptions } = options;
  const o = resolveCrawlOptions(crawlOptions);
  const http = auditHttp(crawlOptions, o.signal);
  // The published site's URLs name the crawled copy, as its links do (`publicOrigin`).
  const crawlUrl = (raw: string): string | undefined => {
    const url = normalizeCrawlUrl(raw);
    if (url === undefined || o.publicOrigin === undefined) return url;
    const back = rewriteOrigin(url, o.publicOrigin, o.origins[0]);
    return back === url ? url : normalizeCrawlUrl(back);
  };
  const published = await readPublished({
    starts: o.starts,
    sitemaps: settings.sitemaps,
    http,
    onDiagnostic: o.onDiagnostic,
    crawlUrl,
  });
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-crawl-audit-'));
  try {
    // Without a state of the caller's, one in the temporary folder: the audit reads it back.
    const state = o.state ?? join(dir, 'site.db');
    const crawled = await crawl({
      ...crawlOptions,
      state,
      ...(o.seedSitemaps ? { seedUrls: published.entries.map((e) => e.url) } : {}),
    });
    const result = { ...crawled, state: o.state === undefined ? undefined : crawled.state };
    if (!crawled.complete) return { ...result, audit: undefined, auditSkipped: 'incomplete' };
    let judged: Awaited<ReturnType<typeof auditCrawled>>;
    try {
      judged = await auditCrawled({
        start: o.starts,
        state,
        entries: published.entries,
        crawl: orphanCrawl(crawlOptions),
        rules: settings,
        http,
        dir,
        signal: o.signal,
        onDiagnostic: o.onDiagnostic,
      });
    } catch (error) {
      // The crawl's output is written by now: its result stands, only the audit is missing.
      if (isSitemapkitError(error, 'ERR_ABORTED'))
        return { ...result, audit: undefined, auditSkipped: 'interrupted' };
      throw error;
    }
    const { findings, counts } = judged;
    const audit: CrawlAudit = { findings, counts, sitemaps: published.roots };
    if (o.report !== undefined) {
      audit.files = await writeAuditFiles(
        o.report,
        {
          start: o.starts.join(', '),
          sitemaps: published.roots,
          findings,
          counts,
          generatedAt: new Date(o.now()),
          ...(crawled.report === undefined ? {} : { crawlReport: basename(crawled.report.html) }),
        },
        settings.junit === true,
      );
    }
    return { ...result, audit };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** How the listed URLs no link reached are fetched: as the crawl fetched, writing nothing of the user's. */
function orphanCrawl(options: CrawlOptions): AuditCrawlOptions {
  const {
    start: _start,
    outDir: _outDir,
    state: _state,
    resume: _resume,
    fresh: _fresh,
    recrawl: _recrawl,
    changes: _changes,
    store: _store,
    report: _report,
    seedSitemaps: _seedSitemaps,
    seedUrls: _seedUrls,
    baseUrl: _baseUrl,
    publicOrigin: _publicOrigin,
    adjustEntry: _adjustEntry,
    sitemaps: _sitemaps,
    ...rest
  } = options;
  return rest;
}
