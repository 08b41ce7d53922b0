/**
 * `crawl()`: spider a site politely into its state database, then write the sitemaps (through the
 * writer) and the report from that database. The pieces are small policies composed here: URL
 * normalisation and scope (normalize-url.ts, scope.ts), politeness and retries (politeness.ts,
 * retry.ts), one HTTP exchange (fetch-page.ts), page rules (page-rules.ts), state (state.ts),
 * report (report.ts).
 *
 * Output is written only after the frontier is exhausted (or `maxPages` is reached): an
 * interrupted crawl keeps its state for `resume` and never touches the previous sitemaps.
 */
import { judgeCanonical } from '../core/canonical.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { EntryInput } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { MAX_IMAGES_PER_URL } from '../core/limits.js';
import { normalizeEntry } from '../core/normalize.js';
import { absoluteHttpUrl, type PageMeta, resolvePageBase } from '../page/page-meta.js';
import { discoverSitemaps } from '../parser/discover.js';
import { parseSitemapTree } from '../parser/tree.js';
import { type FetchLike, RobotsCache, type RobotsFetchResult } from '../robots/fetch.js';
import type { WriteSitemapsResult } from '../writer/write-sitemaps.js';
import { writeSitemaps } from '../writer/write-sitemaps.js';
import { fetchPage, type PageResponse, type PageTransport, type ResponseHeaders } from './fetch-page.js';
import { normalizeCrawlUrl, originOf } from './normalize-url.js';
import { type CrawlOptions, type ResolvedCrawlOptions, resolveCrawlOptions } from './options.js';
import {
  canonicalFromLinkHeader,
  isHtmlType,
  isPdfType,
  pageLastmod,
  priorityForDepth,
  robotsDirectives,
} from './page-rules.js';
import { Politeness } from './politeness.js';
import { type CrawlReportFiles, writeCrawlReport } from './report.js';
import { decideRetry, RETRY_STATUSES, type RetryPolicy } from './retry.js';
import { Scope, urlPattern } from './scope.js';
import { CrawlState, type Outcome, SEED_DEPTH, type UrlSource } from './state.js';

/** Totals of a crawl (over all its runs when resumed, except where noted). */
export interface CrawlStats {
  /** URLs in the state (fetched or not). */
  found: number;
  /** URLs fetched over HTTP. */
  fetched: number;
  /** Pages in the sitemap. */
  listed: number;
  /** URLs still queued (only when `maxPages` stopped the crawl). */
  queued: number;
  /** URLs per verdict (`listed`, `noindex`, `broken`, …; `queued` for those not reached). */
  verdicts: Record<string, number>;
  /** Fetched URLs per HTTP status. */
  statuses: Record<string, number>;
  /** HTTP requests made by this run (retries included; robots.txt not counted). */
  requests: number;
  /** Links to other hosts seen by this run (not followed). */
  externalLinks: number;
  /** Wall time of this run. */
  seconds: number;
  /** Pages fetched per second by this run. */
  pagesPerSecond: number;
}

/** What {@link crawl} returns. */
export interface CrawlResult {
  /** The state database. */
  state: string;
  /** The frontier was exhausted (false when `maxPages` stopped it; `resume` continues). */
  complete: boolean;
  stats: CrawlStats;
  /** The sitemaps written. */
  sitemaps: WriteSitemapsResult;
  /** The report files, unless `report: false`. */
  report: CrawlReportFiles | undefined;
  /** Findings of the crawl and of the writer, by severity. */
  counts: { error: number; warning: number; info: number };
}

interface Item {
  id: number;
  url: string;
  origin: string;
  depth: number;
  attempts: number;
  notBefore: number;
}

type RobotsSlot = { kind: 'pending' } | { kind: 'ready'; result: RobotsFetchResult; at: number };

const ROBOTS_MAX_AGE_MS = 86_400_000;

class Crawler {
  readonly o: ResolvedCrawlOptions;
  readonly state: CrawlState;
  readonly scope: Scope;
  readonly politeness: Politeness;
  readonly retry: RetryPolicy;
  readonly robotsCache: RobotsCache;
  readonly robots = new Map<string, RobotsSlot>();
  readonly pending = new Map<string, Item[]>();
  readonly inFlight = new Set<Promise<void>>();
  readonly fetchFor: FetchLike;
  readonly transport: PageTransport;
  readonly counts = { error: 0, warning: 0, info: 0 };
  readonly capped = new Set<string>();
  pendingCount = 0;
  frontierEmpty = false;
  fetched = 0;
  done = 0;
  queued = 0;
  listed = 0;
  errors = 0;
  requests = 0;
  externalLinks = 0;
  failure: unknown;
  readonly started: number;
  #wake: (() => void) | undefined;
  #dirty = false;
  #scheduled = false;
  readonly #headers = new Map<string, Readonly<Record<string, string>>>();

  constructor(o: ResolvedCrawlOptions, state: CrawlState, net: Network) {
    this.o = o;
    this.state = state;
    this.fetchFor = net.fetchFor;
    this.transport = net.transport;
    this.robotsCache = net.robotsCache;
    this.started = o.now();
    this.scope = new Scope({
      origins: o.origins,
      hosts: o.hosts,
      subdomains: o.subdomains,
      pathPrefix: o.pathPrefix,
      include: o.include,
      exclude: o.exclude,
      trapGuards: o.trapGuards,
      year: new Date(o.now()).getUTCFullYear(),
    });
    this.politeness = new Politeness({ concurrency: o.hostConcurrency, delayMs: o.delayMs });
    this.retry = {
      retries: o.retries,
      baseMs: o.retryBaseMs,
      maxMs: 30_000,
      maxRetryAfterMs: o.maxRetryAfterMs,
    };
  }

  /**
   * Normalises a reference found on a page. With `publicOrigin`, absolute links to the published
   * site name the crawled copy (a staging build often links to production): they are mapped back.
   */
  normalize(raw: string, base: string | undefined): string | undefined {
    const url = normalizeCrawlUrl(raw, base, this.o.params);
    const pub = this.o.publicOrigin;
    if (url === undefined || pub === undefined) return url;
    return rewriteOrigin(url, pub, this.o.origins[0]);
  }

  report(d: Diagnostic): void {
    this.counts[d.severity]++;
    this.o.onDiagnostic?.(d);
  }

  /**
   * Something changed (a page finished, robots.txt arrived). The run loop resumes on the next
   * turn of the event loop, not at once: the pages that finish in one turn are then committed
   * together (one SQLite commit instead of one per page) before anything new starts.
   */
  wake(): void {
    this.#dirty = true;
    if (this.#wake !== undefined && !this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#fire);
    }
  }

  readonly #fire = (): void => {
    this.#scheduled = false;
    const w = this.#wake;
    if (w === undefined) return;
    this.#wake = undefined;
    this.#dirty = false;
    w();
  };

  /** Resolves on the next wake() or after `ms` (Infinity: only a wake). */
  waitForChange(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      let settled = false;
      const done = (): void => {
        if (settled) return;
        settled = true;
        resolve();
      };
      this.#wake = done;
      if (this.#dirty && !this.#scheduled) {
        this.#scheduled = true;
        setImmediate(this.#fire);
      }
      if (Number.isFinite(ms)) this.o.sleep(Math.max(1, ms)).then(done, done);
    });
  }

  // ---- robots.txt ---------------------------------------------------------------------------

  /** The robots.txt outcome for an origin, or undefined while it is being fetched. */
  robotsFor(origin: string): RobotsFetchResult | undefined {
    if (!this.o.robots) return undefined;
    const slot = this.robots.get(origin);
    if (slot?.kind === 'ready' && this.o.now() - slot.at < ROBOTS_MAX_AGE_MS) return slot.result;
    if (slot?.kind === 'pending') return undefined;
    this.robots.set(origin, { kind: 'pending' });
    this.robotsCache.get(`${origin}/`).then(
      (result) => {
        this.applyRobots(origin, result);
        this.wake();
      },
      (error: unknown) => {
        this.failure ??= error;
        this.wake();
      },
    );
    return undefined;
  }

  applyRobots(origin: string, result: RobotsFetchResult): void {
    this.robots.set(origin, { kind: 'ready', result, at: this.o.now() });
    if (result.status === 'unreachable') {
      this.report({
        code: 'robots-unreachable',
        severity: 'warning',
        message: `${result.url}: ${result.error?.message ?? 'unreachable'}; nothing on ${origin} is crawled (RFC 9309: complete disallow)`,
        url: result.url,
      });
    }
    const delay = result.robots.crawlDelay(this.o.robotsAgent);
    if (delay !== undefined && delay > 0) {
      let ms = Math.round(delay * 1000);
      if (ms > this.o.maxCrawlDelayMs) {
        this.report({
          code: 'crawl-delay-capped',
          severity: 'warning',
          message: `${result.url} asks for Crawl-delay: ${delay} s; waiting ${this.o.maxCrawlDelayMs / 1000} s between requests instead (--max-crawl-delay)`,
          url: result.url,
        });
        ms = this.o.maxCrawlDelayMs;
      }
      this.politeness.setCrawlDelay(origin, ms);
    }
  }

  /** Whether robots.txt lets us fetch `url`; undefined while its robots.txt is being fetched. */
  robotsVerdict(item: Item): { allowed: true } | { allowed: false; reason: string } | undefined {
    if (!this.o.robots) return { allowed: true };
    const r = this.robotsFor(item.origin);
    if (r === undefined) return undefined;
    if (r.robots.isAllowed(item.url, this.o.robotsAgent)) return { allowed: true };
    const why = r.robots.explain(item.url, this.o.robotsAgent);
    const where = why.line === null ? '' : ` line ${why.line}`;
    return { allowed: false, reason: `robots.txt${where}: ${why.reason}` };
  }

  // ---- the frontier ---------------------------------------------------------------------------

  budgetLeft(): boolean {
    let first = 0;
    for (const _ of this.inFlight) first++;
    return this.fetched + first < this.o.maxPages;
  }

  refill(): void {
    if (this.frontierEmpty || this.pendingCount >= this.o.concurrency * 4) return;
    if (!this.budgetLeft()) return;
    const rows = this.state.lease(Math.max(64, this.o.concurrency * 16));
    if (rows.length === 0) {
      this.frontierEmpty = true;
      return;
    }
    this.enqueue(rows);
  }

  /** Sitemap seeds no link reached, once the link frontier is exhausted; false when none is left. */
  refillSeeds(): boolean {
    const rows = this.state.leaseSeeds(Math.max(64, this.o.concurrency * 16));
    if (rows.length === 0) return false;
    this.frontierEmpty = false;
    this.enqueue(rows);
    return true;
  }

  enqueue(rows: ReadonlyArray<{ id: number; url: string; depth: number }>): void {
    for (const r of rows) {
      const origin = originOf(r.url);
      const item: Item = { id: r.id, url: r.url, origin, depth: r.depth, attempts: 0, notBefore: 0 };
      let q = this.pending.get(origin);
      if (q === undefined) {
        q = [];
        this.pending.set(origin, q);
      }
      q.push(item);
      this.pendingCount++;
    }
  }

  async run(): Promise<boolean> {
    const o = this.o;
    for (;;) {
      // Pages finished since the last turn become durable before any new request starts.
      this.state.commit();
      this.#dirty = false;
      if (o.signal?.aborted === true || this.failure !== undefined) break;
      this.refill();
      const now = o.now();
      let nextAt = Number.POSITIVE_INFINITY;
      let budget = this.budgetLeft();
      for (const [origin, queue] of this.pending) {
        while (queue.length > 0 && this.inFlight.size < o.concurrency) {
          let idx = -1;
          for (let i = 0; i < queue.length; i++) {
            if (queue[i]!.notBefore <= now) {
              idx = i;
              break;
            }
            nextAt = Math.min(nextAt, queue[i]!.notBefore);
          }
          if (idx === -1) break;
          const item = queue[idx]!;
          const verdict = this.robotsVerdict(item);
          if (verdict === undefined) break;
          if (!verdict.allowed) {
            queue.splice(idx, 1);
            this.pendingCount--;
            this.finishUnfetched(item, { verdict: 'robots', reason: verdict.reason });
            continue;
          }
          if (item.attempts === 0 && !budget) break;
          const at = this.politeness.readyAt(origin, now);
          if (at > now) {
            nextAt = Math.min(nextAt, at);
            break;
          }
          queue.splice(idx, 1);
          this.pendingCount--;
          this.politeness.start(origin, now);
          this.launch(item);
          budget = this.budgetLeft();
        }
        if (queue.length === 0) this.pending.delete(origin);
      }
      if (this.inFlight.size === 0) {
        if (this.pendingCount === 0 && this.frontierEmpty) {
          if (budget && this.refillSeeds()) continue;
          break;
        }
        if (!budget && this.pendingCount === 0) break;
        if (!budget && ![...this.pending.values()].some((q) => q.some((i) => i.attempts > 0))) break;
      }
      if (this.failure !== undefined) break;
      // Something can start right now (a slot freed while we looped, or new leases): go again.
      const canRefill = !this.frontierEmpty && this.pendingCount < o.concurrency * 4 && budget;
      if (this.inFlight.size < o.concurrency && canRefill) {
        await new Promise<void>((r) => setImmediate(r));
        continue;
      }
      await this.waitForChange(nextAt - now);
    }
    const tasks = [...this.inFlight];
    await Promise.allSettled(tasks);
    this.state.commit();
    this.state.releaseLeases();
    if (o.signal?.aborted === true) {
      throw new SitemapkitError(
        'ERR_ABORTED',
        'the crawl was interrupted: its state is saved (continue with --resume); the previous sitemaps are untouched',
        { cause: o.signal.reason, where: this.state.path },
      );
    }
    if (this.failure !== undefined) throw this.failure;
    const c = this.state.counts();
    return c.queued === 0;
  }

  launch(item: Item): void {
    const p: Promise<void> = this.fetchOne(item)
      .catch((error: unknown) => {
        if (!(this.o.signal?.aborted === true)) this.failure ??= error;
      })
      .finally(() => {
        this.inFlight.delete(p);
        this.wake();
      });
    this.inFlight.add(p);
  }

  async fetchOne(item: Item): Promise<void> {
    const o = this.o;
    const t0 = o.now();
    if (item.attempts === 0) this.fetched++;
    item.attempts++;
    this.requests++;
    let res: PageResponse;
    try {
      res = await fetchPage(item.url, {
        transport: this.transport,
        headers: this.headersFor(item.origin),
        timeoutMs: o.timeoutMs,
        maxBytes: o.maxPageBytes,
        signal: o.signal,
        bodyFor: (status, type) => (status === 200 && isHtmlType(type) ? 'html' : 'skip'),
      });
    } finally {
      this.politeness.finish(item.origin);
    }
    const ms = o.now() - t0;
    let giveUp: string | undefined;
    if (!res.ok || RETRY_STATUSES.has(res.status)) {
      const d = decideRetry(
        this.retry,
        item.attempts,
        res.ok ? res.status : undefined,
        res.ok ? res.headers.get('retry-after') : null,
        o.now(),
      );
      if (d.retry) {
        const at = o.now() + d.delayMs;
        // Retry-After speaks for the whole server: no request to the host before then.
        if (d.fromHeader) this.politeness.pause(item.origin, at);
        item.notBefore = at;
        let q = this.pending.get(item.origin);
        if (q === undefined) {
          q = [];
          this.pending.set(item.origin, q);
        }
        q.unshift(item);
        this.pendingCount++;
        return;
      }
      giveUp = d.reason;
      if (giveUp?.startsWith('Retry-After')) {
        this.report({
          code: 'retry-after-too-long',
          severity: 'warning',
          message: `${item.url}: ${giveUp}`,
          url: item.url,
        });
      }
    }
    this.process(item, res, ms, giveUp);
  }

  /** Request headers for an origin: ours, then the user's and basic auth for the start origins. */
  headersFor(origin: string): Readonly<Record<string, string>> {
    let h = this.#headers.get(origin);
    if (h === undefined) {
      h = {
        'user-agent': this.o.userAgent,
        accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
        ...this.o.originHeaders.get(origin),
      };
      this.#headers.set(origin, h);
    }
    return h;
  }

  // ---- recording outcomes -----------------------------------------------------------------------

  finishUnfetched(item: Item, outcome: Outcome): void {
    this.state.batched(() => this.state.finish(item.id, outcome));
    this.afterFinish(item, outcome, null);
  }

  afterFinish(item: Item, outcome: Outcome, ms: number | null): void {
    this.done++;
    if (outcome.verdict === 'listed') this.listed++;
    if (outcome.verdict === 'broken' || outcome.verdict === 'error') this.errors++;
    this.o.onPage?.({
      url: item.url,
      depth: item.depth,
      status: outcome.status ?? null,
      verdict: outcome.verdict,
      reason: outcome.reason ?? null,
      ms,
    });
    this.o.onProgress?.({
      done: this.done,
      queued: this.queued,
      requests: this.requests,
      listed: this.listed,
      errors: this.errors,
      inFlight: this.inFlight.size,
      elapsedMs: this.o.now() - this.started,
    });
  }

  /** A URL found on a page (or as a redirect, canonical or hreflang target): queue it or say why not. */
  discover(
    raw: string,
    base: string,
    depth: number,
    source: UrlSource,
    via: number | null,
  ): string | undefined {
    const url = this.normalize(raw, base);
    if (url === undefined) return undefined;
    const known = this.state.lookup(url, depth, this.o.maxDepth);
    if (known !== undefined) {
      if (known.requeued) {
        this.done--;
        this.queued++;
        this.frontierEmpty = false;
      }
      if (via !== null) this.state.link(known.id, via);
      return url;
    }
    const out = this.scope.check(url);
    if (out?.verdict === 'external') {
      this.externalLinks++;
      return url;
    }
    let outcome: Outcome | undefined;
    // Sitemap seeds are entry points the site declares: --max-depth counts links from them.
    if (source !== 'sitemap' && depth > this.o.maxDepth) {
      outcome = {
        verdict: 'too-deep',
        reason: `${depth} link hops from the start; --max-depth is ${this.o.maxDepth}`,
      };
    } else if (out !== undefined) {
      outcome = { verdict: out.verdict, reason: out.reason };
    } else if (this.o.maxPerPattern > 0) {
      const key = urlPattern(url);
      if (key !== undefined && this.state.countPattern(key) > this.o.maxPerPattern) {
        outcome = {
          verdict: 'trap',
          reason: `more than ${this.o.maxPerPattern} URLs like ${key} (--max-per-pattern)`,
        };
        if (!this.capped.has(key)) {
          this.capped.add(key);
          this.report({
            code: 'crawl-pattern-capped',
            severity: 'warning',
            message: `more than ${this.o.maxPerPattern} URLs like ${key}: the rest are not crawled (a crawler trap, or raise --max-per-pattern)`,
            url,
          });
        }
      }
    }
    const id = this.state.insert(url, depth, source, via, outcome);
    if (via !== null) this.state.link(id, via);
    if (outcome === undefined) {
      this.queued++;
      this.frontierEmpty = false;
    } else {
      this.done++;
    }
    return url;
  }

  process(item: Item, res: PageResponse, ms: number, giveUp: string | undefined): void {
    const base = { attempts: item.attempts, ms };
    let outcome: Outcome;
    let meta: PageMeta | undefined;
    if (!res.ok) {
      outcome = {
        ...base,
        verdict: 'error',
        reason: giveUp === undefined ? res.error : `${res.error}; ${giveUp}`,
      };
    } else {
      meta = res.meta;
      const status = res.status;
      const common = { ...base, status, contentType: res.contentType || null, bytes: res.bytes };
      if (status >= 300 && status < 400) {
        const location = res.headers.get('location');
        if (location === null) {
          outcome = { ...common, verdict: 'not-ok', reason: `HTTP ${status} without a Location header` };
        } else {
          const target = this.normalize(location, item.url);
          outcome =
            target === undefined
              ? {
                  ...common,
                  verdict: 'error',
                  reason: `HTTP ${status} to an unusable Location "${location}"`,
                }
              : { ...common, verdict: 'redirect', reason: `HTTP ${status}`, target };
        }
      } else if (status >= 400 && status < 500 && status !== 408 && status !== 425 && status !== 429) {
        outcome = { ...common, verdict: 'broken', reason: `HTTP ${status}` };
      } else if (status >= 400) {
        outcome = {
          ...common,
          verdict: 'error',
          reason: `HTTP ${status}${giveUp === undefined ? '' : `; ${giveUp}`}`,
        };
      } else if (status !== 200) {
        outcome = {
          ...common,
          verdict: 'not-ok',
          reason: `HTTP ${status}: only pages that answer 200 are listed`,
        };
      } else if (isHtmlType(res.contentType)) {
        outcome = this.judgeHtml(item, res, common);
      } else if (this.o.includePdf && isPdfType(res.contentType)) {
        outcome = this.judgePdf(item, res, common);
      } else {
        outcome = {
          ...common,
          verdict: 'non-html',
          reason: `Content-Type ${res.contentType === '' ? '(none)' : res.contentType.split(';')[0]}`,
        };
      }
    }
    this.state.batched(() => {
      this.state.finish(item.id, outcome);
      this.follow(item, res, outcome, meta);
    });
    this.afterFinish(item, outcome, ms);
  }

  judgeHtml(item: Item, res: Extract<PageResponse, { ok: true }>, common: Omit<Outcome, 'verdict'>): Outcome {
    const meta = res.meta!;
    const url = item.url;
    if (res.truncated) {
      this.report({
        code: 'page-too-large',
        severity: 'warning',
        message: `larger than ${this.o.maxPageBytes} bytes: only the start was read (raise --max-page-bytes)`,
        url,
      });
    }
    if (res.unknownCharset !== undefined) {
      this.report({
        code: 'charset-unknown',
        severity: 'warning',
        message: `charset "${res.unknownCharset}" is unknown; the page was read as UTF-8`,
        url,
      });
    }
    const title = meta.title === undefined || meta.title === '' ? null : meta.title;
    const withTitle = { ...common, title };
    const d = robotsDirectives(meta, xRobotsTag(res.headers), this.o.metaAgents);
    if (d.noindex) return { ...withTitle, verdict: 'noindex', reason: `noindex in ${d.noindexSource}` };
    const canonical = this.canonicalOf(url, meta.canonical, meta.baseHref, res.headers);
    if (canonical !== undefined) {
      return {
        ...withTitle,
        verdict: 'canonicalised',
        reason: 'its canonical is another URL',
        target: canonical,
      };
    }
    const check = this.listable(url, meta);
    if (!check.ok) return { ...withTitle, verdict: 'invalid', reason: check.reason };
    const lastmod = pageLastmod(
      meta,
      res.headers.get('last-modified'),
      res.headers.get('date'),
      this.o.now(),
    );
    return {
      ...withTitle,
      verdict: 'listed',
      reason: lastmod === undefined ? null : `lastmod from ${lastmod.source}`,
      lastmod: lastmod?.value ?? null,
      extra: check.extra,
    };
  }

  judgePdf(item: Item, res: Extract<PageResponse, { ok: true }>, common: Omit<Outcome, 'verdict'>): Outcome {
    const d = robotsDirectives(undefined, xRobotsTag(res.headers), this.o.metaAgents);
    if (d.noindex) return { ...common, verdict: 'noindex', reason: `noindex in ${d.noindexSource}` };
    const canonical = this.canonicalOf(item.url, undefined, undefined, res.headers);
    if (canonical !== undefined) {
      return {
        ...common,
        verdict: 'canonicalised',
        reason: 'its canonical is another URL',
        target: canonical,
      };
    }
    const lastmod = pageLastmod(
      undefined,
      res.headers.get('last-modified'),
      res.headers.get('date'),
      this.o.now(),
    );
    return {
      ...common,
      verdict: 'listed',
      reason: lastmod === undefined ? null : `lastmod from ${lastmod.source}`,
      lastmod: lastmod?.value ?? null,
    };
  }

  /** The normalised canonical when it names another URL; undefined for self, none or ignored. */
  canonicalOf(
    url: string,
    href: string | undefined,
    baseHref: string | undefined,
    headers: ResponseHeaders,
  ): string | undefined {
    const fromHeader = href === undefined ? canonicalFromLinkHeader(headers.get('link')) : undefined;
    const c = judgeCanonical(href ?? fromHeader, url, href === undefined ? undefined : baseHref);
    if (c.kind === 'ignored') {
      this.report({
        code: 'canonical-ignored',
        severity: 'warning',
        message: `${c.reason}; the page is treated as its own canonical`,
        url,
      });
      return undefined;
    }
    if (c.kind !== 'other') return undefined;
    // The crawler's own normalisation (tracking parameters, escapes) may make them equal.
    const n = this.normalize(c.url, undefined);
    return n === url ? undefined : (n ?? c.url);
  }

  /**
   * Images and hreflang alternates for the page, checked by the writer's own normaliser: a broken
   * alternate set or image is left out (with a diagnostic) rather than losing the page.
   */
  listable(url: string, meta: PageMeta): { ok: true; extra: string | null } | { ok: false; reason: string } {
    const base = resolvePageBase(url, meta.baseHref);
    let images = [
      ...new Set(meta.images.map((src) => absoluteHttpUrl(src, base)).filter((u) => u !== undefined)),
    ];
    if (images.length > MAX_IMAGES_PER_URL) images = images.slice(0, MAX_IMAGES_PER_URL);
    let alternates = meta.alternates
      .map((a) => ({ hreflang: a.hreflang, href: this.normalize(a.href, base) }))
      .filter((a): a is { hreflang: string; href: string } => a.href !== undefined);
    for (let round = 0; round < 3; round++) {
      const entry: EntryInput = { loc: url };
      if (images.length > 0) entry.images = images;
      if (alternates.length > 0) entry.alternates = alternates;
      const r = normalizeEntry(entry);
      if (r.ok) {
        const extra: { images?: string[]; alternates?: Array<{ hreflang: string; href: string }> } = {};
        if (r.entry.images !== undefined) extra.images = r.entry.images.map((i) => i.loc);
        if (r.entry.alternates !== undefined) extra.alternates = r.entry.alternates;
        return { ok: true, extra: Object.keys(extra).length === 0 ? null : JSON.stringify(extra) };
      }
      const loc = r.errors.find((e) => e.field === 'loc');
      if (loc !== undefined) return { ok: false, reason: `cannot be listed: ${loc.message}` };
      const alt = r.errors.find((e) => e.field.startsWith('alternates'));
      if (alt !== undefined) {
        this.report({
          code: alt.code,
          severity: 'warning',
          message: `${alt.message}; the page's hreflang alternates are left out of the sitemap`,
          url,
          field: alt.field,
        });
        alternates = [];
      }
      const bad = new Set<number>();
      for (const e of r.errors) {
        const m = /^images\[(\d+)\]/.exec(e.field);
        if (m !== null) {
          bad.add(Number(m[1]));
          this.report({
            code: e.code,
            severity: 'warning',
            message: `${e.message}; the image is left out`,
            url,
            field: e.field,
          });
        }
      }
      if (bad.size > 0) images = images.filter((_, i) => !bad.has(i));
      if (alt === undefined && bad.size === 0) {
        return { ok: false, reason: `cannot be listed: ${r.errors.map((e) => e.message).join('; ')}` };
      }
    }
    return { ok: false, reason: 'cannot be listed: its images and alternates could not be repaired' };
  }

  /** Queues what a finished URL leads to: its redirect target, or its links, canonical and alternates. */
  follow(item: Item, res: PageResponse, outcome: Outcome, meta: PageMeta | undefined): void {
    if (outcome.verdict === 'redirect' && outcome.target != null) {
      this.discover(outcome.target, item.url, item.depth, 'redirect', item.id);
      return;
    }
    if (meta === undefined || !res.ok) return;
    if (outcome.verdict === 'canonicalised' && outcome.target != null) {
      this.discover(outcome.target, item.url, item.depth + 1, 'canonical', item.id);
    }
    const base = resolvePageBase(item.url, meta.baseHref);
    for (const a of meta.alternates) this.discover(a.href, base, item.depth + 1, 'hreflang', item.id);
    const d = robotsDirectives(meta, xRobotsTag(res.headers), this.o.metaAgents);
    if (d.nofollow) return;
    const seen = new Set<string>();
    for (const link of meta.links) {
      if (link.nofollow && !this.o.followNofollow) continue;
      if (seen.has(link.href)) continue;
      seen.add(link.href);
      this.discover(link.href, base, item.depth + 1, 'link', item.id);
    }
  }
}

interface Network {
  fetchFor: FetchLike;
  transport: PageTransport;
  robotsCache: RobotsCache;
  close: () => Promise<void>;
}

async function network(o: ResolvedCrawlOptions): Promise<Network> {
  // Custom headers and basic auth go to the start origins only, whoever asks (robots.txt too).
  const fetchFor: FetchLike = (input, init) => {
    const extra = o.originHeaders.get(originOf(input));
    if (extra === undefined || Object.keys(extra).length === 0) return o.fetch(input, init);
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    return o.fetch(input, { ...init, headers });
  };
  const robotsCache = new RobotsCache({
    fetch: fetchFor,
    userAgent: o.userAgent,
    timeoutMs: Math.min(o.timeoutMs, 30_000),
    now: o.now,
    ...(o.signal === undefined ? {} : { signal: o.signal }),
  });
  if (o.customFetch) {
    return { fetchFor, robotsCache, transport: { kind: 'fetch', fetch: fetchFor }, close: async () => {} };
  }
  // One keep-alive pool for the pages: as many connections per origin as requests may run on it.
  const { Agent, request } = await import('undici');
  const agent = new Agent({ connections: o.hostConcurrency, keepAliveTimeout: 10_000 });
  return {
    fetchFor,
    robotsCache,
    transport: { kind: 'pool', dispatcher: agent, request },
    close: () => agent.destroy().catch(() => undefined),
  };
}

function xRobotsTag(headers: ResponseHeaders): string[] {
  return headers.values('x-robots-tag');
}

/** Rewrites a URL of `from` (an origin) to `to`; other URLs are returned as they are. */
export function rewriteOrigin(url: string, from: string, to: string | undefined): string {
  if (to === undefined || from === to) return url;
  if (url === from || url.startsWith(`${from}/`) || url.startsWith(`${from}?`))
    return to + url.slice(from.length);
  return url;
}

function* sitemapEntries(state: CrawlState, o: ResolvedCrawlOptions): Generator<EntryInput> {
  const from = o.origins[0]!;
  const rw = (u: string): string => rewriteOrigin(u, from, o.publicOrigin);
  for (const r of state.listed()) {
    const e: EntryInput = { loc: rw(r.url) };
    if (r.lastmod !== null) e.lastmod = r.lastmod;
    if (o.changefreq !== undefined) e.changefreq = o.changefreq;
    if (o.priorityMap !== undefined) {
      const p = priorityForDepth(r.depth, o.priorityMap);
      if (p !== undefined) e.priority = p;
    }
    if (r.title !== null) e.title = r.title;
    if (r.extra !== null) {
      const x = JSON.parse(r.extra) as {
        images?: string[];
        alternates?: Array<{ hreflang: string; href: string }>;
      };
      if (x.images !== undefined) e.images = x.images.map(rw);
      if (x.alternates !== undefined)
        e.alternates = x.alternates.map((a) => ({ hreflang: a.hreflang, href: rw(a.href) }));
    }
    yield e;
  }
}

/** Hosts other than the sitemap's own whose pages were listed (they must cross-submit). */
function otherHosts(state: CrawlState, o: ResolvedCrawlOptions): string[] {
  if (o.hosts.length === 0 && !o.subdomains && o.origins.length === 1) return [];
  const own = new URL(o.baseUrl).host;
  const hosts = new Set<string>();
  const from = o.origins[0]!;
  for (const r of state.listed()) {
    const h = new URL(rewriteOrigin(r.url, from, o.publicOrigin)).host;
    if (h !== own) hosts.add(h);
  }
  return [...hosts];
}

async function seedFromSitemaps(crawler: Crawler): Promise<void> {
  const o = crawler.o;
  for (const origin of o.origins) {
    const common = {
      fetch: crawler.fetchFor,
      userAgent: o.userAgent,
      timeoutMs: o.timeoutMs,
      ...(o.signal === undefined ? {} : { signal: o.signal }),
    };
    const found = await discoverSitemaps(`${origin}/`, common);
    if (found.length === 0) continue;
    const tree = parseSitemapTree(
      found.map((f) => f.url),
      {
        ...common,
        crossSubmit: false,
        onDiagnostic: (d) =>
          crawler.report({ ...d, severity: d.severity === 'error' ? 'warning' : d.severity }),
      },
    );
    let batch: string[] = [];
    const flush = (): void => {
      const urls = batch;
      batch = [];
      crawler.state.transaction(() => {
        for (const u of urls) crawler.discover(u, u, SEED_DEPTH, 'sitemap', null);
      });
    };
    for await (const entry of tree) {
      batch.push(entry.loc);
      if (batch.length >= 1000) flush();
    }
    flush();
  }
}

/**
 * Crawls a site and writes its sitemaps (and the HTML site map and the report).
 *
 * Throws `ERR_OPTIONS` for bad options, `ERR_STATE` for a missing, existing or locked state,
 * `ERR_HTTP` when a start site's robots.txt is unreachable (nothing is crawled: RFC 9309 says
 * complete disallow), `ERR_ABORTED` when `signal` aborts (state kept, sitemaps untouched) and
 * `ERR_NO_URLS` when no page can be listed (the previous sitemaps stay).
 */
export async function crawl(options: CrawlOptions): Promise<CrawlResult> {
  const o = resolveCrawlOptions(options);
  if (o.signal?.aborted === true) {
    throw new SitemapkitError('ERR_ABORTED', 'the crawl was interrupted before it started');
  }
  CrawlState.check(o.state, o.mode);
  const net = await network(o);
  try {
    return await crawlWith(o, net);
  } finally {
    await net.close();
  }
}

async function crawlWith(o: ResolvedCrawlOptions, net: Network): Promise<CrawlResult> {
  // robots.txt of every start origin first: when one is unreachable nothing may be crawled there,
  // and a crawl that cannot start should not leave a state behind.
  if (o.robots) {
    for (const origin of o.origins) {
      const r = await net.robotsCache.get(`${origin}/`);
      if (r.status === 'unreachable') {
        throw new SitemapkitError(
          'ERR_HTTP',
          `${r.error?.message ?? 'robots.txt is unreachable'}: nothing was crawled and the previous sitemaps are untouched`,
          {
            where: r.url,
            hint: 'RFC 9309 §2.3.1.4: a crawler must assume complete disallow while robots.txt answers 5xx (or 429) or cannot be reached; try again later',
          },
        );
      }
    }
  }
  const state = await CrawlState.open(o.state, o.mode);
  const crawler = new Crawler(o, state, net);
  if (o.robots)
    for (const origin of o.origins) crawler.applyRobots(origin, await net.robotsCache.get(`${origin}/`));
  let complete: boolean;
  try {
    const startsJson = JSON.stringify(o.starts);
    const previous = state.getMeta('start');
    if (previous !== undefined && previous !== startsJson) {
      throw new SitemapkitError(
        'ERR_STATE',
        `this state belongs to a crawl of ${(JSON.parse(previous) as string[]).join(', ')}`,
        {
          where: state.path,
          hint: 'resume with the same start URLs, or pass --fresh (or --state FILE) for a new crawl',
        },
      );
    }
    if (previous === undefined) {
      state.setMeta('start', startsJson);
      state.setMeta('created', new Date(o.now()).toISOString());
      state.transaction(() => {
        for (const s of o.starts) {
          if (state.lookup(s, 0, o.maxDepth) === undefined) {
            const out = crawler.scope.check(s, true);
            if (out === undefined) state.insert(s, 0, 'start', null);
            else
              state.insert(s, 0, 'start', null, {
                verdict: out.verdict === 'external' ? 'excluded' : out.verdict,
                reason: out.reason,
              });
          }
        }
      });
    }
    if (o.seedSitemaps && state.getMeta('seeded') === undefined) {
      await seedFromSitemaps(crawler);
      state.setMeta('seeded', 'yes');
    }
    const c = state.counts();
    crawler.fetched = c.fetched;
    crawler.done = c.done;
    crawler.queued = c.queued;
    crawler.listed = c.listed;
    state.setMeta('status', 'running');
    complete = await crawler.run();
    state.setMeta('status', complete ? 'complete' : 'partial');
    if (!complete) {
      crawler.report({
        code: 'crawl-max-pages',
        severity: 'info',
        message: `stopped at --max-pages ${o.maxPages}: ${state.counts().queued} URLs are still queued (continue with --resume and a larger --max-pages)`,
      });
    }
  } catch (error) {
    state.close();
    throw error;
  }
  try {
    const seconds = (o.now() - crawler.started) / 1000;
    const c = state.counts();
    const stats: CrawlStats = {
      found: c.total,
      fetched: c.fetched,
      listed: c.listed,
      queued: c.queued,
      verdicts: Object.fromEntries(state.verdictCounts()),
      statuses: Object.fromEntries([...state.statusCounts()].map(([k, v]) => [String(k), v])),
      requests: crawler.requests,
      externalLinks: crawler.externalLinks,
      seconds,
      pagesPerSecond: seconds > 0 ? crawler.requests / seconds : 0,
    };
    let report: CrawlReportFiles | undefined;
    if (o.report !== undefined) {
      report = await writeCrawlReport(state, {
        dir: o.report,
        stats,
        starts: o.starts,
        complete,
        generatedAt: new Date(o.now()),
      });
    }
    const sitemaps = await writeSitemaps(sitemapEntries(state, o), {
      outDir: o.outDir,
      baseUrl: o.baseUrl,
      onInvalid: 'skip',
      allowHosts: otherHosts(state, o),
      gzip: o.gzip,
      xsl: o.xsl,
      html: o.html,
      ...(o.updateRobots === undefined ? {} : { updateRobots: o.updateRobots }),
      ...(o.maxUrlsPerFile === undefined ? {} : { maxUrlsPerFile: o.maxUrlsPerFile }),
      ...(o.maxBytesPerFile === undefined ? {} : { maxBytesPerFile: o.maxBytesPerFile }),
      onDiagnostic: (d) => crawler.report(d),
      ...(o.signal === undefined ? {} : { signal: o.signal }),
    });
    return { state: state.path, complete, stats, sitemaps, report, counts: { ...crawler.counts } };
  } finally {
    state.close();
  }
}
