/**
 * `validateSitemap`: the parser reads (and reports structure and protocol errors), the rules of
 * this folder add what the parser does not check, robots.txt and the live site are consulted when
 * asked, and one collector counts everything. Streaming throughout: per-URL state is a 60-bit hash
 * for duplicates and a few counters per file, so a tree of a million URLs stays within ~100 MB.
 */
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import type { SitemapEntry } from '../core/entry.js';
import { isSitemapkitError, SitemapkitError } from '../core/errors.js';
import { HashedStringSet } from '../core/hash.js';
import { locationPrefix } from '../core/url.js';
import { fetchFailureCode } from '../parser/http.js';
import { parseSitemap } from '../parser/parse-sitemap.js';
import { parseSitemapTree } from '../parser/tree.js';
import type { SitemapInfo, SitemapItem, SitemapSource, TreeOptions } from '../parser/types.js';
import { RobotsCache } from '../robots/fetch.js';
import { Collector } from './collector.js';
import {
  checkAsset,
  checkFuture,
  checkNewsAge,
  checkParams,
  extensionProblems,
  legacyTags,
  notNormalMessage,
} from './entry-checks.js';
import { FileTally, fileFindings } from './file-checks.js';
import { LiveChecker, type LiveJob } from './live/live-checker.js';
import { LiveRobots } from './live/live-robots.js';
import type { PageFinding } from './live/page-verdict.js';
import { localMirror, type ResponseTimes, recordTimes } from './local-fetch.js';
import { type ResolvedValidateOptions, resolveValidateOptions } from './options.js';
import {
  disallowedMessage,
  governs,
  type LoadedRobots,
  loadRobots,
  notReferencedMessage,
} from './robots-checks.js';
import { RULES } from './rules.js';
import { discoverList, isHttp, keyOf, nameOf } from './sources.js';
import { HostTally, HreflangGroups } from './tree-checks.js';
import type { ValidateOptions, ValidateSource, ValidationResult } from './types.js';
import { LastmodCache } from './values.js';

// How the parser words an unknown element in a namespace of its own (src/parser/xml-handler.ts).
const FOREIGN_ELEMENT = /^<[^>]+> \(namespace "[^"]*"\) is not read$/;

/** The state of one validation run. */
class Validation {
  readonly o: ResolvedValidateOptions;
  readonly collector: Collector;
  readonly sitemaps: SitemapInfo[] = [];
  readonly #files = new Map<string, FileTally>();
  readonly #seen = new HashedStringSet();
  readonly #hosts = new HostTally();
  readonly #hreflang = new HreflangGroups();
  readonly #lastmods = new LastmodCache();
  readonly #timeline = new Map<string, number>();
  readonly statusCodes = new Map<string, number>();
  /** Generation-time candidates: index lastmods of children, file mtimes, response headers. */
  readonly childLastmod = new Map<string, number>();
  readonly mtimes = new Map<string, number>();
  readonly times = new Map<string, ResponseTimes>();
  /** Lines of pages seen by the hook and not yet by the loop (live checks only). */
  readonly #lines = new Map<string, Array<number | undefined>>();
  /** The URL of each root sitemap, when known (for self-listing and robots.txt). */
  readonly rootUrls = new Map<string, string>();
  robots: LoadedRobots | undefined;
  live: LiveChecker | undefined;
  urls = 0;
  readonly #now: number;
  readonly #enabled: (code: string) => boolean;

  constructor(o: ResolvedValidateOptions) {
    this.o = o;
    this.collector = new Collector({
      settings: o.settings,
      maxDiagnostics: o.maxDiagnostics,
      maxPerRule: o.maxPerRule,
      onDiagnostic: o.onDiagnostic,
    });
    this.#now = o.now();
    this.#enabled = (code) => this.collector.enabled(code);
  }

  report(
    code: string,
    message: string,
    where: { sitemap?: string; line?: number | undefined; url?: string; field?: string },
  ): void {
    if (!this.collector.enabled(code)) return;
    const d: Diagnostic = { code, severity: RULES[code]?.severity ?? 'warning', message };
    if (where.url !== undefined) d.url = where.url;
    if (where.sitemap !== undefined) d.sitemap = where.sitemap;
    if (where.line !== undefined) d.line = where.line;
    if (where.field !== undefined) d.field = where.field;
    this.collector.add(d);
  }

  /**
   * A parser finding. `element-unknown` covers two cases the XSD tells apart: an element the
   * sitemap formats do not define (the XSD rejects it) and one in another namespace (an extension,
   * allowed after the core elements); the second gets a code of its own.
   */
  parserFinding(d: Diagnostic): void {
    if (d.code === 'element-unknown' && FOREIGN_ELEMENT.test(d.message)) {
      this.collector.add({ ...d, code: 'element-extension' });
    } else {
      this.collector.add(d);
    }
  }

  progress(): void {
    this.o.onProgress?.({
      urls: this.urls,
      sitemaps: this.sitemaps.length,
      checked: this.live?.done ?? 0,
      pending: this.live?.pending ?? 0,
    });
  }

  // ---- parser hooks ---------------------------------------------------------------------------

  item(item: SitemapItem, sitemap: string, line: number | undefined, written?: string): void {
    if (written !== undefined) {
      const where = { sitemap, line, url: item.loc, field: 'loc' };
      this.report('url-not-normal', notNormalMessage(written, item.loc), where);
    }
    if ('kind' in item) {
      if (item.lastmod !== undefined) {
        const t = this.#lastmods.get(item.lastmod);
        if (t !== undefined) this.childLastmod.set(keyOf(item.loc), t.ms);
      }
      // In a tree the parser reports cycles itself; alone, an index can still list itself.
      const own = this.rootUrls.get(sitemap);
      if (!this.o.recursive && own !== undefined && keyOf(own) === keyOf(item.loc)) {
        this.report('index-cycle', `the index lists itself (${item.loc})`, { sitemap, line, url: item.loc });
      }
      return;
    }
    this.page(item, sitemap, line);
    if (this.live !== undefined) {
      const lines = this.#lines.get(sitemap);
      if (lines === undefined) this.#lines.set(sitemap, [line]);
      else lines.push(line);
    }
    if ((++this.urls & 1023) === 0) this.progress();
  }

  page(e: SitemapEntry, sitemap: string, line: number | undefined): void {
    const loc = e.loc;
    let tally = this.#files.get(sitemap);
    if (tally === undefined) {
      tally = new FileTally();
      this.#files.set(sitemap, tally);
    }
    tally.entries++;
    const report = (code: string, message: string, field?: string): void => {
      const where: { sitemap: string; line: number | undefined; url: string; field?: string } = {
        sitemap,
        line,
        url: loc,
      };
      if (field !== undefined) where.field = field;
      this.report(code, message, where);
    };
    // Disabled rules cost nothing: the duplicate set and robots.txt matching are the dearest checks.
    const on = this.#enabled;
    if (on('url-duplicate') && !this.#seen.add(loc))
      report('url-duplicate', `${loc} is listed more than once in this tree`, 'loc');
    this.#hosts.add(loc, sitemap, line);
    checkParams(loc, report, this.#enabled);
    checkAsset(loc, report);
    if (e.lastmod !== undefined) {
      const t = this.#lastmods.get(e.lastmod);
      tally.addLastmod(e.lastmod, t);
      const month = e.lastmod[4] === '-' ? e.lastmod.slice(0, 7) : `${e.lastmod.slice(0, 4)}-01`;
      this.#timeline.set(month, (this.#timeline.get(month) ?? 0) + 1);
      checkFuture(e.lastmod, this.#now, this.#lastmods, report);
    } else {
      this.#timeline.set('none', (this.#timeline.get('none') ?? 0) + 1);
    }
    if (e.priority !== undefined) tally.priority = FileTally.see(tally.priority, line, loc);
    if (e.changefreq !== undefined) tally.changefreq = FileTally.see(tally.changefreq, line, loc);
    if (e.news !== undefined) {
      tally.news++;
      checkNewsAge(e.news, this.#now, this.#lastmods, report);
    }
    if (e.images !== undefined || e.videos !== undefined) {
      for (const tag of legacyTags(e)) tally.legacy.set(tag, FileTally.see(tally.legacy.get(tag), line, loc));
    }
    for (const p of extensionProblems(e)) report(p.code, p.message, p.field);
    if (e.alternates !== undefined && on('hreflang-not-reciprocal'))
      this.#hreflang.add(loc, e.alternates, sitemap, line);
    const m = this.disallowed(loc);
    if (m !== undefined) report('robots-sitemap-disallowed', m, 'loc');
  }

  /** The `robots-sitemap-disallowed` message of the robots.txt read for the run, if it fires. */
  disallowed(loc: string): string | undefined {
    const robots = this.robots;
    if (robots?.status !== 'ok' || !this.#enabled('robots-sitemap-disallowed') || !governs(robots, loc))
      return undefined;
    return disallowedMessage(robots, loc, this.o.agent);
  }

  sitemapDone(info: SitemapInfo): void {
    this.sitemaps.push(info);
    const tally = this.#files.get(info.sitemap);
    if (tally !== undefined) {
      this.#files.delete(info.sitemap);
      for (const f of fileFindings(tally, this.#candidates(info))) {
        const where: { sitemap: string; line?: number; url?: string } = { sitemap: info.sitemap };
        if (f.line !== undefined) where.line = f.line;
        if (f.url !== undefined) where.url = f.url;
        this.report(f.code, f.message, where);
      }
    }
    if (!this.o.recursive && info.format === 'sitemapindex' && info.sitemaps > 0) {
      this.report(
        'index-not-followed',
        `this index lists ${info.sitemaps.toLocaleString('en-US')} sitemap(s); they were not validated (follow them with -r, or for a local index give --sitemap-url to read them from beside it)`,
        { sitemap: info.sitemap },
      );
    }
    this.progress();
  }

  #candidates(info: SitemapInfo): Array<{ ms: number; what: string }> {
    const out: Array<{ ms: number; what: string }> = [];
    const mtime = this.mtimes.get(info.sitemap);
    if (mtime !== undefined) out.push({ ms: mtime, what: 'the file was modified' });
    const t = this.times.get(info.url ?? info.sitemap) ?? this.times.get(info.sitemap);
    if (t?.lastModified !== undefined) out.push({ ms: t.lastModified, what: 'its Last-Modified is' });
    if (t?.date !== undefined) out.push({ ms: t.date, what: 'it was served at' });
    const listed = this.childLastmod.get(keyOf(info.sitemap));
    if (listed !== undefined) out.push({ ms: listed, what: 'its index gives lastmod' });
    return out;
  }

  // ---- the loop -------------------------------------------------------------------------------

  /** The line the hook saw for the next page of `sitemap` (live checks only). */
  nextLine(sitemap: string): number | undefined {
    return this.#lines.get(sitemap)?.shift();
  }

  liveResult(job: LiveJob, status: string, findings: PageFinding[]): void {
    this.statusCodes.set(status, (this.statusCodes.get(status) ?? 0) + 1);
    for (const f of findings)
      this.report(f.code, f.message, { sitemap: job.sitemap, line: job.line, url: job.url });
    if (this.live !== undefined && (this.live.done & 63) === 0) this.progress();
  }

  // ---- the end --------------------------------------------------------------------------------

  finishTree(roots: readonly string[]): void {
    for (const f of this.#hosts.findings()) this.report(f.code, f.message, f);
    if (this.#hreflang.overflowed) {
      this.report(
        'hreflang-unchecked',
        'more than 200,000 hreflang links: reciprocity was not checked',
        roots[0] === undefined ? {} : { sitemap: roots[0] },
      );
    } else {
      for (const f of this.#hreflang.findings()) this.report(f.code, f.message, f);
    }
    const robots = this.robots;
    if (robots === undefined) return;
    if (robots.status === 'unreachable') {
      this.report(
        'robots-unreachable',
        `${robots.reason ?? 'robots.txt is unreachable'}: crawlers treat every URL of the site as disallowed`,
        { url: robots.source },
      );
      return;
    }
    if (robots.status === 'unavailable') {
      this.report(
        'robots-unavailable',
        `${robots.reason ?? 'robots.txt is unavailable'}: crawlers treat the site as allowed`,
        { url: robots.source },
      );
    }
    for (const [name, url] of this.rootUrls) {
      if (!governs(robots, url)) continue;
      const m = notReferencedMessage(robots, url);
      if (m !== undefined) this.report('sitemap-not-in-robots', m, { sitemap: name, url });
    }
  }

  timeline(): Record<string, number> {
    return Object.fromEntries([...this.#timeline].sort(([a], [b]) => a.localeCompare(b)));
  }
}

/**
 * Validates a sitemap (or, with `recursive`, a whole tree): the protocol and XSD rules without
 * xmllint, quality rules, robots.txt, and with `live` every listed page. Resolves to the findings
 * (each with its rule's severity and fix), counts per rule, facts per sitemap and chart figures.
 *
 * Throws `ERR_OPTIONS` for bad options, `ERR_INPUT` / `ERR_HTTP` when the only source cannot be
 * opened at all, `ERR_ABORTED` on abort. Bad content never throws: it is diagnostics.
 *
 * @example
 * const r = await validateSitemap('https://www.example.com/sitemap_index.xml', { recursive: true });
 * if (!r.summary.valid) for (const d of r.diagnostics) console.log(d.code, d.url, d.message);
 */
export async function validateSitemap(
  source: ValidateSource,
  options: ValidateOptions = {},
): Promise<ValidationResult> {
  const o = resolveValidateOptions(options);
  try {
    return await validateWith(source, o);
  } finally {
    await o.client.close();
  }
}

async function validateWith(source: ValidateSource, o: ResolvedValidateOptions): Promise<ValidationResult> {
  const startedAt = new Date(o.now()).toISOString();
  const v = new Validation(o);
  let list: SitemapSource[] = Array.isArray(source)
    ? [...(source as readonly string[])]
    : [source as SitemapSource];
  let names = list.map(nameOf);
  const sources = names;
  let discovered: string[] | undefined;
  if (o.discover) {
    discovered = await discoverList(list, o, (d) => v.parserFinding(d));
    list = discovered;
    names = discovered;
  }
  if (o.recursive && list.some((s) => typeof s !== 'string' && !(s instanceof URL))) {
    throw new SitemapkitError('ERR_OPTIONS', 'recursive validation needs paths or URLs as sources', {
      hint: 'pass a file path or an http(s) URL, or validate without recursive',
    });
  }
  for (const name of names) {
    if (isHttp(name)) v.rootUrls.set(name, name);
    else if (o.sitemapUrl !== undefined && names.length === 1) v.rootUrls.set(name, o.sitemapUrl);
  }
  const siteUrl = names.find(isHttp) ?? sources.find(isHttp) ?? o.sitemapUrl;

  // The network for sitemaps: children of a local index read from its folder, headers recorded.
  const only = names.length === 1 ? names[0]! : undefined;
  const mirror =
    o.recursive && only !== undefined && !isHttp(only) && o.sitemapUrl !== undefined
      ? localMirror(dirname(only), locationPrefix(o.sitemapUrl, 'file'))
      : undefined;
  const sitemapClient = o.client.withHooks({
    onResponse: recordTimes(v.times),
    ...(mirror === undefined ? {} : { intercept: mirror }),
  });
  for (const name of names) if (isHttp(name)) o.client.start(name);
  if (o.sitemapUrl !== undefined) o.client.start(o.sitemapUrl);
  for (const name of names) {
    if (isHttp(name) || name.startsWith('<')) continue;
    try {
      v.mtimes.set(name, (await stat(name)).mtimeMs);
    } catch {
      // The parser reports a file it cannot open.
    }
  }

  // robots.txt is fetched on its own only for a fetched sitemap: before a deploy, the live site's
  // robots.txt says nothing about the files on disk (give --robots for those).
  const httpRoot = names.find(isHttp) ?? sources.find(isHttp);
  const cache = new RobotsCache({
    httpClient: o.client,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });
  v.robots = await loadRobots(o.robots ?? (httpRoot === undefined ? false : undefined), siteUrl, {
    client: o.client,
    cache,
  });
  if (o.live !== undefined) {
    const robots = o.live.ignoreRobots ? undefined : new LiveRobots(cache, o.agent, o.client.userAgent);
    v.live = new LiveChecker(
      o.live,
      { client: o.client, signal: o.signal, robots },
      o.agent,
      (job, status, findings) => v.liveResult(job, status, findings),
    );
  }

  const parseOptions: TreeOptions = {
    onDiagnostic: (d) => v.parserFinding(d),
    onItem: (item, sitemap, at) => v.item(item, sitemap, at.line, at.written),
    onSitemap: (info) => v.sitemapDone(info),
    httpClient: sitemapClient,
    allowHosts: o.allowHosts,
    maxDiagnostics: 0,
    // The rules run per entry on this thread whatever reads the children; parse workers would add
    // their heaps to the peak (a 1,000,000-URL tree: 225 MB against the 200 MB validate promises).
    threads: 0,
  };
  if (o.signal !== undefined) parseOptions.signal = o.signal;
  if (o.timeoutMs !== undefined) parseOptions.timeoutMs = o.timeoutMs;
  if (o.sitemapUrl !== undefined && !(only !== undefined && isHttp(only))) {
    parseOptions.sitemapUrl = o.sitemapUrl;
    // A local file with a public URL: other hosts may cross-submit through their robots.txt.
    parseOptions.crossSubmit = true;
  }

  const live = v.live;
  const consume = async (item: SitemapItem, sitemap: string): Promise<void> => {
    if (live === undefined || 'kind' in item) return;
    const line = v.nextLine(sitemap);
    const reported = v.disallowed(item.loc) !== undefined;
    await live.add({ url: item.loc, lastmod: item.lastmod, sitemap, line, robotsReported: reported });
  };

  if (o.recursive && names.length === 0) {
    // Discovery found nothing (and said so): there is nothing to read.
  } else if (o.recursive) {
    const tree = parseSitemapTree(names, parseOptions);
    for await (const entry of tree) await consume(entry, entry.sitemap);
  } else {
    for (let i = 0; i < list.length; i++) {
      const name = names[i]!;
      try {
        for await (const item of parseSitemap(list[i]!, parseOptions)) await consume(item, name);
      } catch (error) {
        // Alone, a source that cannot be opened means the run cannot happen; among several, it is
        // one finding and the others are still validated.
        if (list.length === 1 || !isSitemapkitError(error) || error.code === 'ERR_ABORTED') throw error;
        const code = fetchFailureCode(error);
        v.report(code, `${error.message}${error.hint === undefined ? '' : ` (${error.hint})`}`, {
          sitemap: name,
        });
      }
    }
  }
  await live?.finish();
  v.finishTree(names);
  v.progress();

  const counts = v.collector.counts;
  return {
    sources,
    diagnostics: v.collector.diagnostics,
    rules: v.collector.rules(),
    perSitemap: v.collector.perSitemap(),
    summary: {
      errors: counts.error,
      warnings: counts.warning,
      infos: counts.info,
      sitemaps: v.sitemaps.length,
      urls: v.urls,
      checked: live?.done ?? 0,
      valid: counts.error === 0,
    },
    sitemaps: v.sitemaps,
    stats: {
      lastmodByMonth: v.timeline(),
      statusCodes: Object.fromEntries([...v.statusCodes].sort(([a], [b]) => a.localeCompare(b))),
    },
    startedAt,
    finishedAt: new Date(o.now()).toISOString(),
    settings: {
      recursive: o.recursive,
      live: o.live !== undefined,
      agent: o.agent,
      ...(o.sitemapUrl === undefined ? {} : { sitemapUrl: o.sitemapUrl }),
      ...(v.robots === undefined ? {} : { robots: v.robots.source }),
      ...(discovered === undefined ? {} : { discovered }),
    },
  };
}
