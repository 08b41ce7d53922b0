/**
 * The published sitemaps an audit holds against the site: given (`--sitemap`), or found from each
 * start's robots.txt `Sitemap:` lines and the well-known paths; read through the sitemap tree
 * reader into the audit's entries, normalised as the crawl normalises. `audit` and `crawl --audit`
 * both read them here, once per run.
 */
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { normalizeCrawlUrl } from '../crawler/normalize-url.js';
import type { CrawlOptions } from '../crawler/options.js';
import { discoverSitemaps } from '../parser/discover.js';
import { parseSitemapTree } from '../parser/tree.js';
import type { RobotsFetchOptions } from '../robots/fetch.js';
import type { AuditEntry } from './audit-core.js';

/** The HTTP options of the discovery and the sitemap reader: the crawl's own. */
export type AuditHttp = Omit<RobotsFetchOptions, 'httpClient'>;

/** The crawl's HTTP options, for the requests the audit makes itself. */
export function auditHttp(crawl: Partial<CrawlOptions>, signal: AbortSignal | undefined): AuditHttp {
  return {
    ...(crawl.timeoutMs === undefined ? {} : { timeoutMs: crawl.timeoutMs }),
    ...(crawl.headers === undefined ? {} : { headers: crawl.headers }),
    ...(crawl.userAgent === undefined ? {} : { userAgent: crawl.userAgent }),
    ...(crawl.addressPolicy === undefined ? {} : { addressPolicy: crawl.addressPolicy }),
    ...(crawl.fetch === undefined ? {} : { fetch: crawl.fetch }),
    ...(crawl.dispatcher === undefined ? {} : { dispatcher: crawl.dispatcher }),
    ...(signal === undefined ? {} : { signal }),
  };
}

/** What the published sitemaps list. */
export interface PublishedSitemaps {
  /** The sitemaps read (given, or discovered). */
  roots: string[];
  /** Their URLs, with the sitemap each came from. */
  entries: AuditEntry[];
}

export interface PublishedOptions {
  /** The start pages whose sites publish the sitemaps (one discovery per origin). */
  starts: readonly string[];
  /** The sitemaps given; undefined: discovered. */
  sitemaps: readonly string[] | undefined;
  http: AuditHttp;
  onDiagnostic: DiagnosticHandler | undefined;
  /** The URL the crawl knows a listed URL by (`publicOrigin` maps the published site back). */
  crawlUrl?: (url: string) => string | undefined;
}

/**
 * Reads the published sitemaps. Throws `ERR_INPUT` when none is published (and none given), with
 * the discovery's own reason (robots.txt unreachable, no `Sitemap:` line, …).
 */
export async function readPublished(o: PublishedOptions): Promise<PublishedSitemaps> {
  let roots = o.sitemaps === undefined ? undefined : [...o.sitemaps];
  if (roots === undefined) {
    roots = [];
    const seen = new Set<string>();
    let why: string | undefined;
    for (const start of o.starts) {
      const origin = new URL(start).origin;
      if (seen.has(origin)) continue;
      seen.add(origin);
      // Discovery says why it found none (robots.txt unreachable, no Sitemap: line, …): that is the message.
      const found = await discoverSitemaps(start, {
        ...o.http,
        onDiagnostic: (d) => {
          if (d.code === 'discover-none') why ??= d.message;
          else o.onDiagnostic?.(d);
        },
      });
      for (const s of found) if (!roots.includes(s.url)) roots.push(s.url);
    }
    if (roots.length === 0) {
      throw new SitemapkitError('ERR_INPUT', why ?? `${o.starts.join(', ')} publishes no sitemap`, {
        hint: 'nothing was audited; give the published sitemap with --sitemap URL (library: sitemaps)',
      });
    }
  }
  const entries: AuditEntry[] = [];
  const tree = parseSitemapTree(roots, {
    ...o.http,
    crossSubmit: false,
    // The audit's crawl has the cores: parse workers would take CPU from it and add their heaps.
    threads: 0,
    ...(o.onDiagnostic === undefined ? {} : { onDiagnostic: o.onDiagnostic }),
  });
  const crawlUrl = o.crawlUrl ?? ((u: string) => normalizeCrawlUrl(u));
  for await (const e of tree) {
    const url = crawlUrl(e.loc);
    if (url === undefined) continue;
    const entry: AuditEntry = { url, sitemap: e.sitemap };
    if (e.lastmod !== undefined) entry.lastmod = e.lastmod;
    if (e.images !== undefined && e.images.length > 0) entry.images = e.images;
    if (e.alternates !== undefined && e.alternates.length > 0) {
      entry.alternates = e.alternates.flatMap((a) => {
        const href = crawlUrl(a.href);
        return href === undefined ? [] : [{ hreflang: a.hreflang, href }];
      });
    }
    entries.push(entry);
  }
  return { roots, entries };
}
