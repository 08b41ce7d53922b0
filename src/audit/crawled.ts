/**
 * The audit of a finished crawl: the crawl's state read back, the listed URLs no link reached
 * fetched in a second crawl that follows no link (so an orphan's links do not make other pages
 * look reached), and both handed with the published sitemaps' entries to the pure
 * {@link auditFindings}. `audit` runs it on its own crawl, `crawl --audit` on the user's.
 */
import { join } from 'node:path';
import { isSitemapkitError } from '../core/errors.js';
import { type CrawlResult, crawl } from '../crawler/crawl.js';
import { type CrawlOptions, resolveCrawlOptions } from '../crawler/options.js';
import { CrawlState } from '../crawler/state.js';
import { fetchRobotsTxt } from '../robots/fetch.js';
import type { RobotsTxt } from '../robots/robots-txt.js';
import {
  type AuditCounts,
  type AuditEntry,
  type AuditFinding,
  type AuditPage,
  type AuditRules,
  auditFindings,
} from './audit-core.js';
import type { AuditHttp } from './published.js';

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
  | 'seedUrls'
>;

/** What {@link auditCrawled} judges. */
export interface CrawledInput {
  /** The start of the crawl (its origins are the hosts whose unreached listed URLs are fetched). */
  start: string | readonly string[];
  /** The finished crawl's state file (read, not changed). */
  state: string;
  entries: readonly AuditEntry[];
  /** How the crawl ran: the orphan crawl runs the same way. */
  crawl: AuditCrawlOptions;
  rules: AuditRules;
  http: AuditHttp;
  /** A folder of the caller's for the orphan crawl's state and throwaway output. */
  dir: string;
  signal: AbortSignal | undefined;
  onDiagnostic: CrawlOptions['onDiagnostic'];
}

/** The findings of a finished crawl against the published sitemaps' entries. */
export async function auditCrawled(
  i: CrawledInput,
): Promise<{ findings: AuditFinding[]; counts: AuditCounts }> {
  const pages = await readPages(i.state, 'links');
  const origins = new Set([...pages.keys()].map((u) => new URL(u).origin));
  // Listed URLs the crawl never recorded, on the crawled hosts: fetched once each, no link followed.
  const unreached = [...new Set(i.entries.map((e) => e.url))].filter(
    (u) => !pages.has(u) && origins.has(new URL(u).origin),
  );
  if (unreached.length > 0) {
    await crawlKept({
      ...i.crawl,
      start: unreached,
      outDir: join(i.dir, 'orphans-out'),
      state: join(i.dir, 'orphans.db'),
      report: false,
      maxDepth: 0,
      sitemaps: { html: false },
      ...(i.signal === undefined ? {} : { signal: i.signal }),
      ...(i.onDiagnostic === undefined ? {} : { onDiagnostic: i.onDiagnostic }),
    });
    for (const [url, page] of await readPages(join(i.dir, 'orphans.db'), false)) {
      if (!pages.has(url)) pages.set(url, page);
    }
  }
  // With robots.txt ignored (robots: false), the crawl's verdicts do not say what it disallows.
  const first = typeof i.start === 'string' ? i.start : i.start[0]!;
  const rules: AuditRules =
    i.crawl.robots === false
      ? { ...i.rules, isDisallowed: await disallowedBy([...origins], first, i.crawl, i.http) }
      : i.rules;
  return auditFindings(pages.values(), i.entries, rules);
}

/** What the origins' robots.txt files disallow for the crawl's robots agent (fetched once each). */
async function disallowedBy(
  origins: readonly string[],
  start: string,
  crawlOptions: AuditCrawlOptions,
  http: AuditHttp,
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
export async function crawlKept(o: CrawlOptions): Promise<CrawlResult | undefined> {
  try {
    return await crawl(o);
  } catch (error) {
    if (isSitemapkitError(error, 'ERR_NO_URLS')) return undefined;
    throw error;
  }
}

/**
 * The URLs a crawl recorded. `links`: a site crawl, each URL reached unless it entered only as a
 * sitemap seed (`--seed-sitemaps`) and no link from a reached page leads to it; `false`: the
 * orphan crawl, its own start URLs only (the rest it did not follow).
 */
async function readPages(path: string, reached: 'links' | false): Promise<Map<string, AuditPage>> {
  const state = await CrawlState.open(path, 'resume');
  const out = new Map<string, AuditPage>();
  try {
    const linked = reached === 'links' ? reachedByLinks(state) : undefined;
    for (const r of state.reportRows()) {
      if (reached === false && r.source !== 'start') continue;
      let alternates: AuditPage['alternates'] = [];
      if (r.extra !== null) {
        const extra = JSON.parse(r.extra) as { alternates?: Array<{ hreflang: string; href: string }> };
        alternates = extra.alternates ?? [];
      }
      out.set(r.url, {
        url: r.url,
        reached: reached !== false && (linked === undefined || linked.has(r.id)),
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

/**
 * The ids of the URLs links reach from the start URLs, when the crawl was also seeded from
 * sitemaps (undefined: it was not, every URL was reached). A seed no link reaches is crawled as an
 * entry point and its links followed: what only such seeds lead to is not reached either. A
 * fixpoint over each URL's inbound links (the state records every link, redirect and canonical).
 */
function reachedByLinks(state: CrawlState): Set<number> | undefined {
  const rows = [...state.records()];
  if (!rows.some((r) => r.source === 'sitemap')) return undefined;
  const idOf = new Map(rows.map((r) => [r.url, r.id]));
  const reached = new Set(rows.filter((r) => r.source === 'start').map((r) => r.id));
  const inbound = new Map<number, number[]>();
  for (const r of rows) {
    if (reached.has(r.id)) continue;
    const from = state.referrers(r.id, Number.MAX_SAFE_INTEGER).urls.map((u) => idOf.get(u)!);
    inbound.set(r.id, from);
  }
  for (let grew = true; grew; ) {
    grew = false;
    for (const [id, from] of inbound) {
      if (from.some((f) => reached.has(f))) {
        reached.add(id);
        inbound.delete(id);
        grew = true;
      }
    }
  }
  return reached;
}
