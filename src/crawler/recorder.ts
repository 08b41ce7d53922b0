/**
 * What the crawl records when a URL is done: its outcome (page-outcome.ts) into the frontier with
 * the URLs it leads to, what becomes of a new URL (scope, depth, pattern cap: the frontier's
 * `admit`), the running totals, the page and progress events and the diagnostics.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { RetryDecision } from '../http/retry.js';
import type { GateVerdict } from '../robots/gate.js';
import type { PageResponse } from './fetch-page.js';
import type { Admission, Admit, Committed, Frontier } from './frontier.js';
import { NormalizeMemo } from './normalize-memo.js';
import { normalizeCrawlUrl } from './normalize-url.js';
import type { ResolvedCrawlOptions } from './options.js';
import { type PageRules, pageOutcome } from './page-outcome.js';
import type { Outcome } from './records.js';
import { observe, observedAt, observeRefused } from './recrawl.js';
import { giveUpReason } from './retry.js';
import type { Item } from './scheduler.js';
import { type Scope, urlPattern } from './scope.js';
import { rewriteOrigin } from './sitemap-entries.js';

const EXTERNAL: Admission = { kind: 'external' };
const QUEUED: Admission = { kind: 'queued' };

export class Recorder {
  readonly #o: ResolvedCrawlOptions;
  readonly #frontier: Frontier;
  readonly #scope: Scope;
  readonly #rules: Omit<PageRules, 'now'>;
  readonly #capped = new Set<string>();
  readonly #memo = new NormalizeMemo((raw, base) => this.#normalize(raw, base));
  /** Requests of this run and requests in flight, for progress events. */
  readonly #load: () => { requests: number; inFlight: number };
  readonly counts = { error: 0, warning: 0, info: 0 };
  readonly started: number;
  done = 0;
  queued = 0;
  listed = 0;
  errors = 0;
  externalLinks = 0;

  constructor(
    o: ResolvedCrawlOptions,
    frontier: Frontier,
    scope: Scope,
    load: () => { requests: number; inFlight: number },
  ) {
    this.#o = o;
    this.#frontier = frontier;
    this.#scope = scope;
    this.#load = load;
    this.started = o.now();
    this.#rules = {
      normalize: (raw, base) => this.normalize(raw, base),
      metaAgents: o.metaAgents,
      includePdf: o.includePdf,
      followNofollow: o.followNofollow,
      maxPageBytes: o.maxPageBytes,
    };
  }

  /**
   * Drops what only the loop needs (the normalisation memo, the capped patterns) once its last
   * page is done: the output starts on a heap as small as it can be (the peak RSS of a crawl was
   * its loop's heap still alive while the output's first allocations came).
   */
  release(): void {
    this.#memo.clear();
    this.#capped.clear();
  }

  report(d: Diagnostic): void {
    this.counts[d.severity]++;
    this.#o.onDiagnostic?.(d);
  }

  /**
   * Normalises a reference found on a page. With `publicOrigin`, absolute links to the published
   * site name the crawled copy (a staging build often links to production): they are mapped back,
   * a base URL's path included (`https://example.com/docs/15/a` → `http://localhost:8080/a`).
   */
  normalize(raw: string, base: string | undefined): string | undefined {
    return this.#memo.get(raw, base);
  }

  #normalize(raw: string, base: string | undefined): string | undefined {
    const url = normalizeCrawlUrl(raw, base, this.#o.params);
    const pub = this.#o.publicOrigin;
    if (url === undefined || pub === undefined) return url;
    const back = rewriteOrigin(url, pub, this.#o.origins[0]);
    // The base URL itself without its slash maps to the bare origin: normalised again, it gets "/".
    return back === url ? url : normalizeCrawlUrl(back, undefined, this.#o.params);
  }

  /** What a URL found by a link (or a sitemap) becomes when it is new. */
  readonly admit: Admit = (f) => {
    const o = this.#o;
    const out = this.#scope.check(f.url);
    if (out?.verdict === 'external') return EXTERNAL;
    // Sitemap seeds are entry points the site declares: --max-depth counts links from them.
    if (f.source !== 'sitemap' && f.depth > o.maxDepth) {
      const reason = `${f.depth} link hops from the start; --max-depth is ${o.maxDepth}`;
      return { kind: 'finished', outcome: { verdict: 'too-deep', reason } };
    }
    if (out !== undefined) return { kind: 'finished', outcome: { verdict: out.verdict, reason: out.reason } };
    if (o.maxPerPattern > 0) {
      const key = urlPattern(f.url);
      if (key !== undefined) {
        const reason = `more than ${o.maxPerPattern} URLs like ${key} (--max-per-pattern)`;
        return { kind: 'queued', cap: { key, max: o.maxPerPattern, over: { verdict: 'trap', reason } } };
      }
    }
    return QUEUED;
  };

  /** What a start URL becomes when it is new: start URLs are always fetched when in scope. */
  readonly admitStart: Admit = (f) => {
    const out = this.#scope.check(f.url, true);
    if (out === undefined) return QUEUED;
    const verdict = out.verdict === 'external' ? 'excluded' : out.verdict;
    return { kind: 'finished', outcome: { verdict, reason: out.reason } };
  };

  committed(c: Committed): void {
    this.queued += c.queued + c.requeued;
    this.done += c.finished - c.requeued;
    this.externalLinks += c.external;
    for (const { key, url } of c.trapped) {
      if (this.#capped.has(key)) continue;
      this.#capped.add(key);
      this.report({
        code: 'crawl-pattern-capped',
        severity: 'warning',
        message: `more than ${this.#o.maxPerPattern} URLs like ${key}: the rest are not crawled (a crawler trap, or raise --max-per-pattern)`,
        url,
      });
    }
  }

  fetched(item: Item, res: PageResponse, ms: number, decision: RetryDecision | undefined): void {
    const giveUp = decision === undefined ? undefined : giveUpReason(decision, this.#o.maxRetryAfterMs);
    if (decision?.kind === 'too-long') {
      this.report({
        code: 'retry-after-too-long',
        severity: 'warning',
        message: `${item.url}: ${giveUp}`,
        url: item.url,
      });
    }
    if (!res.ok && res.reason === 'address-refused') this.#addressRefused(item.url, res.error);
    const now = this.#o.now();
    const r = pageOutcome(item, res, item.attempts, ms, giveUp, { ...this.#rules, now });
    for (const d of r.diagnostics) this.report(d);
    // Against the crawl before (a recrawl), or nothing (a first crawl): what changed, and when.
    const outcome = observe(item.prior, r.outcome, res, observedAt(now));
    this.#frontier.finish(item, outcome, r.found, this.admit);
    this.#after(item, outcome, ms);
  }

  disallowed(item: Item, verdict: Extract<GateVerdict, { allowed: false }>): void {
    let outcome: Outcome;
    if (verdict.address === true) {
      this.#addressRefused(item.url, verdict.reason);
      outcome = { verdict: 'error', reason: verdict.reason };
    } else {
      outcome = { verdict: 'robots', reason: verdict.reason };
    }
    outcome = observeRefused(item.prior, outcome, observedAt(this.#o.now()));
    this.#frontier.finish(item, outcome, [], this.admit);
    this.#after(item, outcome, null);
  }

  #addressRefused(url: string, reason: string): void {
    this.report({
      code: 'crawl-address-refused',
      severity: 'warning',
      message: `${url}: not fetched, ${reason.replace(/^address refused: /, '')} (the address policy; --allow-private-addresses turns it off)`,
      url,
    });
  }

  #after(item: Item, outcome: Outcome, ms: number | null): void {
    this.done++;
    // The URL was counted as queued when it was found: it is not waiting any more.
    this.queued = Math.max(0, this.queued - 1);
    // A recrawl's URL was counted as listed (or not) by the crawl before: only the difference counts.
    this.listed += (outcome.verdict === 'listed' ? 1 : 0) - (item.prior?.verdict === 'listed' ? 1 : 0);
    if (outcome.verdict === 'broken' || outcome.verdict === 'error') this.errors++;
    const o = this.#o;
    o.onPage?.({
      url: item.url,
      depth: item.depth,
      status: outcome.status ?? null,
      verdict: outcome.verdict,
      reason: outcome.reason ?? null,
      ms,
    });
    if (o.onProgress !== undefined) {
      const load = this.#load();
      o.onProgress({
        done: this.done,
        queued: this.queued,
        requests: load.requests,
        listed: this.listed,
        errors: this.errors,
        inFlight: load.inFlight,
        elapsedMs: o.now() - this.started,
      });
    }
  }
}
