/**
 * What a fetched URL means for the crawl, as a pure function: the answer in, the URL's verdict
 * (listed, noindex, redirect, broken, …), the diagnostics about it and the URLs it leads to out.
 * How an answer is read (status classes, robots directives, canonical, lastmod) is shared with
 * `validate --live` in src/page/verdict.ts; what is the crawler's own is here: the sitemap verdict,
 * the crawler's normalisation of targets, and the writer's check of images and alternates.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { EntryInput } from '../core/entry.js';
import { formatUtc } from '../core/lastmod.js';
import { MAX_IMAGES_PER_URL } from '../core/limits.js';
import { normalizeEntry } from '../core/normalize.js';
import { absoluteHttpUrl, type PageMeta, resolvePageBase } from '../page/page-meta.js';
import { isHtmlType, isPdfType, pageLastmod, pageVerdict, type RobotsDirectives } from '../page/verdict.js';
import type { PageResponse } from './fetch-page.js';
import type { Found, Lease } from './frontier.js';
import type { Outcome } from './records.js';
import { renderNote } from './render-note.js';

export interface PageRules {
  /** The crawler's normalisation of a reference (undefined: not a crawlable URL). */
  normalize(raw: string, base: string | undefined): string | undefined;
  /** The agents whose meta tags and `X-Robots-Tag` lines apply. */
  metaAgents: readonly string[];
  includePdf: boolean;
  followNofollow: boolean;
  maxPageBytes: number;
  /** When the answer came (ms), for `Last-Modified` without a `Date`. */
  now: number;
}

export interface PageOutcome {
  outcome: Outcome;
  diagnostics: Diagnostic[];
  /** The URLs the page leads to (redirect target, canonical, alternates, links), normalised. */
  found: Found[];
}

type Answered = Extract<PageResponse, { ok: true }>;
type Common = Omit<Outcome, 'verdict'>;

/** The outcome of a fetched URL; `giveUp` says why its retries stopped, when they did. */
export function pageOutcome(
  lease: Lease,
  res: PageResponse,
  attempts: number,
  ms: number,
  giveUp: string | undefined,
  rules: PageRules,
): PageOutcome {
  // The response time is the exchange's: the time a page took to render is not the server's.
  const base = { attempts, ms: res.ok && res.render !== undefined ? Math.max(0, ms - res.render.ms) : ms };
  const diagnostics: Diagnostic[] = [];
  if (!res.ok) {
    const reason = giveUp === undefined ? res.error : `${res.error}; ${giveUp}`;
    return { outcome: { ...base, verdict: 'error', reason }, diagnostics, found: [] };
  }
  const status = res.status;
  const common: Common = { ...base, status, contentType: res.contentType || null, bytes: res.bytes };
  const verdict = pageVerdict({
    url: lease.url,
    status,
    header: (name) => res.headers.get(name),
    xRobotsTag: res.headers.values('x-robots-tag'),
    meta: res.meta,
    agents: rules.metaAgents,
  });
  let outcome: Outcome;
  let robots: RobotsDirectives | undefined;
  switch (verdict.kind) {
    case 'redirect': {
      const location = verdict.location;
      const target = location === null ? undefined : rules.normalize(location, lease.url);
      if (location === null) {
        outcome = { ...common, verdict: 'not-ok', reason: `HTTP ${status} without a Location header` };
      } else if (target === undefined) {
        outcome = {
          ...common,
          verdict: 'error',
          reason: `HTTP ${status} to an unusable Location "${location}"`,
        };
      } else {
        outcome = { ...common, verdict: 'redirect', reason: `HTTP ${status}`, target };
      }
      break;
    }
    case 'client-error':
      outcome = { ...common, verdict: 'broken', reason: `HTTP ${status}` };
      break;
    case 'transient':
    case 'server-error':
      outcome = {
        ...common,
        verdict: 'error',
        reason: `HTTP ${status}${giveUp === undefined ? '' : `; ${giveUp}`}`,
      };
      break;
    case 'informational':
      outcome = notOk(common, status);
      break;
    case 'answered': {
      robots = verdict.robots;
      if (!verdict.ok) outcome = notOk(common, status);
      else if (isHtmlType(res.contentType)) {
        outcome = judgePage(lease.url, res, common, verdict, rules, diagnostics, res.meta);
      } else if (rules.includePdf && isPdfType(res.contentType)) {
        outcome = judgePage(lease.url, res, common, verdict, rules, diagnostics, undefined);
      } else {
        const type = res.contentType === '' ? '(none)' : res.contentType.split(';')[0];
        outcome = { ...common, verdict: 'non-html', reason: `Content-Type ${type}` };
      }
      break;
    }
  }
  const rendered = renderNote(lease.url, res, rules);
  if (rendered !== null) {
    outcome.rendered = rendered;
    if (res.render?.ok === false && outcome.verdict !== 'error') {
      // What the page says once its scripts run is unknown: it is not listed on its raw HTML.
      const reason = `rendering failed twice: ${res.render.error}`;
      outcome = { ...outcome, verdict: 'error', reason, target: null, lastmod: null, extra: null };
      diagnostics.push({
        code: 'crawl-render-failed',
        severity: 'warning',
        message: `${reason}; the page is recorded as failed and its raw HTML's links are followed`,
        url: lease.url,
      });
    }
  }
  return { outcome, diagnostics, found: follow(lease, res, outcome, robots, rules) };
}

const UTC_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * One form for every lastmod of a crawl: a date with a time becomes UTC to the second
 * (`2024-05-01T08:00:00Z`), whether it came from `Last-Modified` or a page's own `+02:00`; a plain
 * date stays a date (a time would be invented). A sitemap then never mixes `Z` and `+00:00`.
 */
export function crawlLastmod(value: string): string {
  if (!value.includes('T') || UTC_SECONDS.test(value)) return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : formatUtc(new Date(Math.floor(ms / 1000) * 1000));
}

function notOk(common: Common, status: number): Outcome {
  return { ...common, verdict: 'not-ok', reason: `HTTP ${status}: only pages that answer 200 are listed` };
}

type AnsweredVerdict = Extract<ReturnType<typeof pageVerdict>, { kind: 'answered' }>;

/**
 * The verdict on a 200 page: an HTML page (`meta` read from its body) or a PDF (headers only).
 * Only an indexable page that is its own canonical, with a URL a sitemap can hold, is listed.
 */
function judgePage(
  url: string,
  res: Answered,
  common: Common,
  verdict: AnsweredVerdict,
  rules: PageRules,
  diagnostics: Diagnostic[],
  meta: PageMeta | undefined,
): Outcome {
  if (res.truncated) {
    diagnostics.push({
      code: 'page-too-large',
      severity: 'warning',
      message: `larger than ${rules.maxPageBytes} bytes: only the start was read (raise --max-page-bytes)`,
      url,
    });
  }
  if (res.unknownCharset !== undefined) {
    diagnostics.push({
      code: 'charset-unknown',
      severity: 'warning',
      message: `charset "${res.unknownCharset}" is unknown; the page was read as UTF-8`,
      url,
    });
  }
  const withTitle =
    meta === undefined
      ? common
      : {
          ...common,
          title: meta.title === undefined || meta.title === '' ? null : meta.title,
          canonical: canonicalColumn(verdict.canonical),
          // Characters as a reader counts them (code points), not UTF-16 units.
          descriptionLength: meta.description === undefined ? null : [...meta.description].length,
        };
  const d = verdict.robots;
  if (d.noindex) return { ...withTitle, verdict: 'noindex', reason: `noindex in ${d.noindexSource}` };
  const canonical = canonicalElsewhere(url, verdict, rules, diagnostics);
  if (canonical !== undefined) {
    return {
      ...withTitle,
      verdict: 'canonicalised',
      reason: 'its canonical is another URL',
      target: canonical,
    };
  }
  let extra: { extra: string | null } | undefined;
  if (meta !== undefined) {
    const check = listable(url, meta, rules, diagnostics);
    if (!check.ok) return { ...withTitle, verdict: 'invalid', reason: check.reason };
    extra = { extra: check.extra };
  }
  const lastmod = pageLastmod(meta, res.headers.get('last-modified'), res.headers.get('date'), rules.now);
  return {
    ...withTitle,
    verdict: 'listed',
    reason: lastmod === undefined ? null : `lastmod from ${lastmod.source}`,
    lastmod: lastmod === undefined ? null : crawlLastmod(lastmod.value),
    ...extra,
  };
}

/** The canonical as the report shows it: absolute, the page's own URL when it names itself. */
function canonicalColumn(c: AnsweredVerdict['canonical']): string | null {
  return c.kind === 'self' || c.kind === 'other' ? c.url : c.kind === 'ignored' ? c.href : null;
}

/** The normalised canonical when it names another URL; undefined for self, none or ignored. */
function canonicalElsewhere(
  url: string,
  verdict: AnsweredVerdict,
  rules: PageRules,
  diagnostics: Diagnostic[],
): string | undefined {
  const c = verdict.canonical;
  if (c.kind === 'ignored') {
    diagnostics.push({
      code: 'canonical-ignored',
      severity: 'warning',
      message: `${c.reason}; the page is treated as its own canonical`,
      url,
    });
    return undefined;
  }
  if (c.kind !== 'other') return undefined;
  // The crawler's own normalisation (tracking parameters, escapes) may make them equal.
  const n = rules.normalize(c.url, undefined);
  return n === url ? undefined : (n ?? c.url);
}

/**
 * Images and hreflang alternates for the page, checked by the writer's own normaliser: a broken
 * alternate set or image is left out (with a diagnostic) rather than losing the page.
 */
function listable(
  url: string,
  meta: PageMeta,
  rules: PageRules,
  diagnostics: Diagnostic[],
): { ok: true; extra: string | null } | { ok: false; reason: string } {
  const base = resolvePageBase(url, meta.baseHref);
  let images = [
    ...new Set(meta.images.map((src) => absoluteHttpUrl(src, base)).filter((u) => u !== undefined)),
  ];
  if (images.length > MAX_IMAGES_PER_URL) images = images.slice(0, MAX_IMAGES_PER_URL);
  let alternates = meta.alternates
    .map((a) => ({ hreflang: a.hreflang, href: rules.normalize(a.href, base) }))
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
      diagnostics.push({
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
        diagnostics.push({
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

/** What a finished URL leads to: its redirect target, or its canonical, alternates and links. */
function follow(
  lease: Lease,
  res: PageResponse,
  outcome: Outcome,
  robots: RobotsDirectives | undefined,
  rules: PageRules,
): Found[] {
  const found: Found[] = [];
  if (outcome.verdict === 'redirect' && outcome.target != null) {
    const url = rules.normalize(outcome.target, lease.url);
    if (url !== undefined) found.push({ url, depth: lease.depth, source: 'redirect' });
    return found;
  }
  // Each URL once per page (a repeat, such as the same navigation in the header and the footer,
  // only finds what the first one recorded: it is counted, for the external links), and never the
  // page itself (known already: it records nothing).
  const byUrl = new Map<string, Found>();
  const add = (raw: string, base: string, depth: number, source: Found['source']): void => {
    const url = rules.normalize(raw, base);
    if (url === undefined || url === lease.url) return;
    const first = byUrl.get(url);
    if (first !== undefined) {
      first.times = (first.times ?? 1) + 1;
      return;
    }
    const f: Found = { url, depth, source };
    byUrl.set(url, f);
    found.push(f);
  };
  const meta = res.ok ? res.meta : undefined;
  if (meta === undefined) return found;
  if (outcome.verdict === 'canonicalised' && outcome.target != null) {
    add(outcome.target, lease.url, lease.depth + 1, 'canonical');
  }
  const base = resolvePageBase(lease.url, meta.baseHref);
  for (const a of meta.alternates) add(a.href, base, lease.depth + 1, 'hreflang');
  if (robots?.nofollow === true) return found;
  const seen = new Set<string>();
  for (const link of meta.links) {
    if (link.nofollow && !rules.followNofollow) continue;
    if (seen.has(link.href)) continue;
    seen.add(link.href);
    add(link.href, base, lease.depth + 1, 'link');
  }
  return found;
}
