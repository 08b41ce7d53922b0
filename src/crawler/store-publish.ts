/**
 * A crawl published through the site store (`crawl … --store FILE`): the crawl's entries, with
 * the lastmods it decided (the page's own date, or the time a recrawl observed its change), are
 * the whole set, synchronised into the store and built as one unit. The store keeps a page in its
 * file, rewrites only files whose content changed, writes its change set, and refuses to publish
 * a crawl that would drop too many of the published URLs (a site half down), unless forced.
 */
import { resolve } from 'node:path';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import type { EntryInput } from '../core/entry.js';
import { isSitemapkitError, SitemapkitError } from '../core/errors.js';
import { type MaxDrop, resolveMaxDrop } from '../store/options.js';
import { type BuildResult, openStore, type SiteStore } from '../store/store.js';
import type { WriteSitemapsOptions } from '../writer/options.js';

/**
 * The sitemaps' options of a crawl (`CrawlOptions.sitemaps`): the writer's own, with its types and
 * defaults. Declared here, where options.ts reads it, so neither imports the other for it.
 */
export type CrawlSitemapOptions = Pick<
  WriteSitemapsOptions,
  | 'gzip'
  | 'xsl'
  | 'html'
  | 'updateRobots'
  | 'maxUrlsPerFile'
  | 'maxBytesPerFile'
  | 'maxSitemapsPerIndex'
  | 'legacy'
  | 'feed'
  | 'newsWindow'
  | 'lastmodPolicy'
>;

/** The `store` option of {@link crawl} in full. */
export interface CrawlStoreOptions {
  /** The store file (SQLite), created when missing. */
  path: string;
  /**
   * The publish gate: a crawl that would remove more than this of the published URLs refuses to
   * publish (`ERR_GATE`): a share (`0.1`, `'10%'`) or a count (`{ count: 500 }`, `'500'`). @default 0.1
   */
  maxDrop?: MaxDrop | string;
  /** Publish even past the gate. @default false */
  force?: boolean;
  /**
   * Called at each step of the store's import, build and commit (as `openStore`'s `onStep`), and
   * with `crawl:store-committed` once the store has committed and before the crawl's state records
   * the publication: tests kill the process there on purpose.
   */
  onStep?: (step: string) => void | Promise<void>;
}

export interface ResolvedCrawlStore {
  path: string;
  maxDrop: MaxDrop | string | undefined;
  force: boolean;
  onStep: ((step: string) => void | Promise<void>) | undefined;
}

function bad(message: string, hint?: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message, hint === undefined ? {} : { hint });
}

/**
 * Checks the `store` option against the sitemaps' options once, before any request. A store build
 * writes no HTML site map (it is made from a whole run, not from the files that changed).
 */
export function resolveCrawlStore(
  v: string | CrawlStoreOptions | undefined,
  sitemaps: CrawlSitemapOptions,
  cwd: string = process.cwd(),
): ResolvedCrawlStore | undefined {
  if (v === undefined) return undefined;
  const o: CrawlStoreOptions = typeof v === 'string' ? { path: v } : v;
  if (typeof o !== 'object' || o === null || typeof o.path !== 'string' || o.path === '')
    throw bad('store must be the path of the store file (or a postgres:// URL), or { path, maxDrop, force }');
  if (sitemaps.html === true) {
    throw bad(
      'sitemaps.html cannot be used with store: the HTML site map is made from a whole run, and a store build rewrites only the files that changed',
      'leave sitemaps.html out (or false), or publish without the store',
    );
  }
  resolveMaxDrop(o.maxDrop);
  // A PostgreSQL store is named by its URL; a file by its path.
  const path = /^postgres(?:ql)?:\/\//i.test(o.path) ? o.path : resolve(cwd, o.path);
  if (o.onStep !== undefined && typeof o.onStep !== 'function') throw bad('store.onStep must be a function');
  return { path, maxDrop: o.maxDrop, force: o.force === true, onStep: o.onStep };
}

/**
 * Opens the store before the crawl: a store locked by another build, or made with another base
 * URL or file budget, is refused before any request rather than after the whole crawl.
 */
export function openCrawlStore(
  s: ResolvedCrawlStore,
  baseUrl: string,
  sitemaps: CrawlSitemapOptions,
  now: () => number,
): Promise<SiteStore> {
  return openStore(s.path, {
    baseUrl,
    // The crawl's clock: a build's time (the index lastmod of a rewritten file) is the crawl's.
    now: () => new Date(now()),
    ...(sitemaps.maxUrlsPerFile !== undefined && { maxUrlsPerFile: sitemaps.maxUrlsPerFile }),
    ...(sitemaps.maxBytesPerFile !== undefined && { maxBytesPerFile: sitemaps.maxBytesPerFile }),
    ...(s.onStep !== undefined && { onStep: s.onStep }),
  });
}

/** What {@link publishToStore} needs from the crawl. */
export interface StorePublication {
  outDir: string;
  sitemaps: CrawlSitemapOptions;
  allowHosts: readonly string[];
  changes: string | undefined;
  onDiagnostic: DiagnosticHandler;
  signal: AbortSignal | undefined;
}

/**
 * Synchronises the crawl's entries into the store and publishes the build. The lastmods are the
 * crawl's own verdicts (a date the page gave, or an observed change), so the store's judgement of
 * suspicious lastmods is off unless the caller asks for it (`sitemaps.lastmodPolicy`): after a
 * recrawl many changed pages rightly share one observation time.
 */
export async function publishToStore(
  store: SiteStore,
  s: ResolvedCrawlStore,
  entries: Iterable<EntryInput>,
  p: StorePublication,
): Promise<BuildResult> {
  const m = p.sitemaps;
  try {
    return await build(store, s, entries, p, m);
  } catch (error) {
    if (!isSitemapkitError(error, 'ERR_GATE')) throw error;
    // The store's hint speaks of an input; here the input is the site as the crawl found it.
    throw new SitemapkitError('ERR_GATE', error.message, {
      hint: 'check the site (pages answering 404 or 410, a section moved or behind a login?) and crawl again; pass --force to publish anyway, or raise --max-drop',
    });
  }
}

function build(
  store: SiteStore,
  s: ResolvedCrawlStore,
  entries: Iterable<EntryInput>,
  p: StorePublication,
  m: CrawlSitemapOptions,
): Promise<BuildResult> {
  return store.syncAndBuild(entries, {
    outDir: p.outDir,
    gzip: m.gzip === true,
    ...(m.xsl !== undefined && { xsl: m.xsl }),
    ...(m.updateRobots !== undefined && { updateRobots: m.updateRobots }),
    ...(m.maxSitemapsPerIndex !== undefined && { maxSitemapsPerIndex: m.maxSitemapsPerIndex }),
    ...(s.maxDrop !== undefined && { maxDrop: s.maxDrop }),
    force: s.force,
    ...(p.changes !== undefined && { changes: p.changes }),
    // The feed's URLs are the ones the store saw added or changed, never a list of the caller's.
    ...(m.feed !== undefined && { feed: { format: m.feed.format, ...feedLook(m.feed) } }),
    ...(m.newsWindow !== undefined && { newsWindow: m.newsWindow }),
    lastmodPolicy: m.lastmodPolicy ?? 'keep',
    onInvalid: 'skip',
    allowHosts: p.allowHosts,
    legacy: m.legacy === true,
    onDiagnostic: p.onDiagnostic,
    ...(p.signal !== undefined && { signal: p.signal }),
  });
}

function feedLook(f: NonNullable<CrawlSitemapOptions['feed']>): { size?: number; title?: string } {
  return { ...(f.size !== undefined && { size: f.size }), ...(f.title !== undefined && { title: f.title }) };
}
