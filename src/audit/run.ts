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
import { isSitemapkitError, SitemapkitError } from '../core/errors.js';
import { type CrawlResult, crawl } from '../crawler/crawl.js';
import { normalizeCrawlUrl } from '../crawler/normalize-url.js';
import { type CrawlOptions, resolveCrawlOptions } from '../crawler/options.js';
import { CrawlState } from '../crawler/state.js';
import { discoverSitemaps } from '../parser/discover.js';
import { parseSitemapTree } from '../parser/tree.js';
import { fetchRobotsTxt, type RobotsFetchOptions } from '../robots/fetch.js';
import type { RobotsTxt } from '../robots/robots-txt.js';
import {
  type AuditCounts,
  type AuditEntry,
  type AuditFinding,
  type AuditPage,
  type AuditRules,
  auditFindings,
  judgeLastmod,
} from './audit-core.js';

/** The crawl options an audit passes on (where the crawl writes is the audit's own business). */
export type AuditCrawlOptions = Omit<
  CrawlOptions,
  | 'start'
  | 'outDir'
  | 'state'
  | 'resume'
  | 'fresh'
  | 'recrawl'
  | 'changes'
  | 'store'
  | 'report'
  | 'seedSitemaps'
>;

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
  const http = {
    ...(crawlOptions.timeoutMs === undefined ? {} : { timeoutMs: crawlOptions.timeoutMs }),
    ...(crawlOptions.headers === undefined ? {} : { headers: crawlOptions.headers }),
    ...(crawlOptions.userAgent === undefined ? {} : { userAgent: crawlOptions.userAgent }),
    ...(crawlOptions.addressPolicy === undefined ? {} : { addressPolicy: crawlOptions.addressPolicy }),
    ...(crawlOptions.fetch === undefined ? {} : { fetch: crawlOptions.fetch }),
    ...(crawlOptions.dispatcher === undefined ? {} : { dispatcher: crawlOptions.dispatcher }),
    ...(signal === undefined ? {} : { signal }),
  };
  let roots = options.sitemaps === undefined ? undefined : [...options.sitemaps];
  if (roots === undefined) {
    // Discovery says why it found none (robots.txt unreachable, no Sitemap: line, …): that is the message.
    let why = `${options.start} publishes no sitemap`;
    const found = await discoverSitemaps(options.start, {
      ...http,
      onDiagnostic: (d) => {
        if (d.code === 'discover-none') why = d.message;
        else options.onDiagnostic?.(d);
      },
    });
    roots = found.map((s) => s.url);
    if (roots.length === 0) {
      throw new SitemapkitError('ERR_INPUT', why, {
        hint: 'nothing was audited; give the published sitemap with --sitemap URL (library: sitemaps)',
      });
    }
  }
  const entries: AuditEntry[] = [];
  const tree = parseSitemapTree(roots, {
    ...http,
    crossSubmit: false,
    ...(options.onDiagnostic === undefined ? {} : { onDiagnostic: options.onDiagnostic }),
  });
  for await (const e of tree) {
    const url = normalizeCrawlUrl(e.loc);
    if (url === undefined) continue;
    const entry: AuditEntry = { url, sitemap: e.sitemap };
    if (e.lastmod !== undefined) entry.lastmod = e.lastmod;
    if (e.images !== undefined && e.images.length > 0) entry.images = e.images;
    if (e.alternates !== undefined && e.alternates.length > 0) {
      entry.alternates = e.alternates.flatMap((a) => {
        const href = normalizeCrawlUrl(a.href);
        return href === undefined ? [] : [{ hreflang: a.hreflang, href }];
      });
    }
    entries.push(entry);
  }

  const dir = await mkdtemp(join(tmpdir(), 'sitemapkit-audit-'));
  try {
    const common: CrawlOptions = {
      ...crawlOptions,
      start: options.start,
      outDir: join(dir, 'out'),
      report: false,
      ...(signal === undefined ? {} : { signal }),
      ...(options.onDiagnostic === undefined ? {} : { onDiagnostic: options.onDiagnostic }),
    };
    const site = await crawlKept({
      ...common,
      state: join(dir, 'site.db'),
      ...(options.outDir === undefined
        ? {}
        : { outDir: options.outDir, adjustEntry: keepAgreeing(entries, options) }),
    });
    const pages = await readPages(join(dir, 'site.db'), true);
    const origins = new Set([...pages.keys()].map((u) => new URL(u).origin));
    // Listed URLs no link reached, on the crawled hosts: fetched once each, no link followed.
    const unreached = [...new Set(entries.map((e) => e.url))].filter(
      (u) => !pages.has(u) && origins.has(new URL(u).origin),
    );
    if (unreached.length > 0) {
      await crawlKept({
        ...common,
        start: unreached,
        outDir: join(dir, 'orphans-out'),
        state: join(dir, 'orphans.db'),
        maxDepth: 0,
        sitemaps: { html: false },
      });
      for (const [url, page] of await readPages(join(dir, 'orphans.db'), false)) {
        if (!pages.has(url)) pages.set(url, page);
      }
    }
    // With robots.txt ignored (robots: false), the crawl's verdicts do not say what it disallows.
    const rules: AuditRules =
      crawlOptions.robots === false
        ? { ...options, isDisallowed: await disallowedBy([...origins], options.start, crawlOptions, http) }
        : options;
    const { findings, counts } = auditFindings(pages.values(), entries, rules);
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

/** What the origins' robots.txt files disallow for the crawl's robots agent (fetched once each). */
async function disallowedBy(
  origins: readonly string[],
  start: string,
  crawlOptions: AuditCrawlOptions,
  http: Omit<RobotsFetchOptions, 'httpClient'>,
): Promise<(url: string) => boolean> {
  const agent = resolveCrawlOptions({ ...crawlOptions, start, outDir: '.' }).robotsAgent;
  const byOrigin = new Map<string, RobotsTxt>();
  for (const origin of origins) byOrigin.set(origin, (await fetchRobotsTxt(`${origin}/`, http)).robots);
  return (url) => {
    const robots = byOrigin.get(new URL(url).origin);
    return robots !== undefined && !robots.isAllowed(url, agent);
  };
}

/** A crawl whose state is kept for reading: one that lists no page is still read (undefined). */
async function crawlKept(o: CrawlOptions): Promise<CrawlResult | undefined> {
  try {
    return await crawl(o);
  } catch (error) {
    if (isSitemapkitError(error, 'ERR_NO_URLS')) return undefined;
    throw error;
  }
}

/** The URLs a crawl recorded; the orphan crawl's own start URLs only (the rest it did not follow). */
async function readPages(path: string, reached: boolean): Promise<Map<string, AuditPage>> {
  const state = await CrawlState.open(path, 'resume');
  const out = new Map<string, AuditPage>();
  try {
    for (const r of state.reportRows()) {
      if (!reached && r.source !== 'start') continue;
      let alternates: AuditPage['alternates'] = [];
      if (r.extra !== null) {
        const extra = JSON.parse(r.extra) as { alternates?: Array<{ hreflang: string; href: string }> };
        alternates = extra.alternates ?? [];
      }
      out.set(r.url, {
        url: r.url,
        reached,
        depth: r.depth,
        status: r.status,
        verdict: r.verdict,
        reason: r.reason,
        target: r.target,
        contentType: r.contentType,
        title: r.title,
        lastmod: r.lastmod,
        alternates,
        ms: r.ms,
      });
    }
  } finally {
    state.close();
  }
  return out;
}
