/**
 * `audit()`: the I/O edge of the audit. It reads the site's published sitemaps (robots.txt
 * `Sitemap:` lines and the well-known paths, or the sitemaps given), crawls the site from its start
 * URL with the crawler (politeness, robots.txt, scope: the crawl's own options), then fetches the
 * listed URLs no link reached in a second crawl that follows no link (so an orphan's links do not
 * make other pages look reached), and hands both to the pure {@link auditFindings}.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import type { EntryInput } from '../core/entry.js';
import {
  type AuditCounts,
  type AuditEntry,
  type AuditFinding,
  type AuditRules,
  judgeLastmod,
} from './audit-core.js';
import { type AuditCrawlOptions, auditCrawled, crawlKept } from './crawled.js';
import { auditHttp, readPublished } from './published.js';

export type { AuditCrawlOptions } from './crawled.js';

/** Options of {@link audit}. Only `start` is required. */
export interface AuditOptions extends AuditRules {
  /** The site's start page, such as `https://example.com/`. */
  start: string;
  /**
   * The published sitemaps (or indexes) to hold against the site.
   * @default those robots.txt names and the well-known paths (`/sitemap.xml`, …) that answer with a sitemap
   */
  sitemaps?: readonly string[];
  /** How the site is crawled: politeness, robots.txt, scope, agents, the address policy, … */
  crawl?: AuditCrawlOptions;
  /**
   * Write a corrected sitemap set here: the crawl's verdicts (what is indexable, canonical and
   * reached), through the writer, with the crawl's sitemap options (`crawl.sitemaps`).
   */
  outDir?: string;
  signal?: AbortSignal;
  /** The crawl's and the sitemap reader's own diagnostics (a sitemap that cannot be read, …). */
  onDiagnostic?: DiagnosticHandler;
}

/** What {@link audit} returns. */
export interface AuditResult {
  findings: AuditFinding[];
  counts: AuditCounts;
  /** The sitemaps read (roots given or discovered). */
  sitemaps: string[];
  /** The corrected sitemaps' entry file, when `outDir` was given and a page could be listed. */
  out?: string;
}

/**
 * Audits a site's published sitemaps against the site itself. Throws `ERR_OPTIONS` for bad options,
 * `ERR_INPUT` when no sitemap is published (and none given), `ERR_ABORTED` when `signal` aborts, and
 * what {@link crawl} throws when the site cannot be crawled (robots.txt unreachable, …).
 */
export async function audit(options: AuditOptions): Promise<AuditResult> {
  const crawlOptions = options.crawl ?? {};
  const signal = options.signal ?? crawlOptions.signal;
  const http = auditHttp(crawlOptions, signal);
  const { roots, entries } = await readPublished({
    starts: [options.start],
    sitemaps: options.sitemaps,
    http,
    onDiagnostic: options.onDiagnostic,
  });
  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-audit-'));
  try {
    const site = await crawlKept({
      ...crawlOptions,
      start: options.start,
      outDir: join(dir, 'out'),
      report: false,
      state: join(dir, 'site.db'),
      ...(signal === undefined ? {} : { signal }),
      ...(options.onDiagnostic === undefined ? {} : { onDiagnostic: options.onDiagnostic }),
      ...(options.outDir === undefined
        ? {}
        : { outDir: options.outDir, adjustEntry: keepAgreeing(entries, options) }),
    });
    const { findings, counts } = await auditCrawled({
      start: options.start,
      state: join(dir, 'site.db'),
      entries,
      crawl: crawlOptions,
      rules: options,
      http,
      dir,
      signal,
      onDiagnostic: options.onDiagnostic,
    });
    const result: AuditResult = { findings, counts, sitemaps: roots };
    if (options.outDir !== undefined && site?.sitemaps !== undefined) result.out = site.sitemaps.entry.path;
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The corrected set keeps what the published sitemap says where the page agrees: its lastmod when
 * the page shows none or one within the margins (not stale, not inflated, not in the future), and
 * its image details for the images the page shows.
 */
function keepAgreeing(entries: readonly AuditEntry[], rules: AuditRules): (e: EntryInput) => EntryInput {
  const byUrl = new Map<string, AuditEntry>();
  for (const e of entries) if (!byUrl.has(e.url)) byUrl.set(e.url, e);
  return (entry) => {
    const listed = byUrl.get(entry.loc);
    if (listed === undefined) return entry;
    const out: EntryInput = { ...entry };
    if (listed.lastmod !== undefined) {
      const shown = typeof entry.lastmod === 'string' ? entry.lastmod : null;
      const j = judgeLastmod(listed.lastmod, shown, rules);
      if (j.kind === 'ok' || (j.kind === 'unknown' && shown === null)) out.lastmod = listed.lastmod;
    }
    if (listed.images !== undefined && entry.images !== undefined) {
      const details = new Map(listed.images.map((i) => [i.loc, i]));
      out.images = entry.images.map((i) => (typeof i === 'string' ? (details.get(i) ?? i) : i));
    }
    return out;
  };
}
