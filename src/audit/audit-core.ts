/**
 * The audit's core, a pure function: what the crawl found of a site and what its published
 * sitemaps list, in; one finding per URL and problem, out. No I/O: `runAudit` (run.ts) crawls and
 * reads the sitemaps, this judges them, so every rule here is tested on plain data.
 */
import type { Severity } from '../core/diagnostics.js';
import type { ImageEntry } from '../core/entry.js';
import type { Verdict } from '../crawler/records.js';
import { RULES } from '../validate/rules.js';

/** A URL the crawl recorded, as the audit reads it. */
export interface AuditPage {
  url: string;
  /** Reached from the start page through links (or redirects, canonicals, hreflang): false for a URL fetched only because a sitemap lists it. */
  reached: boolean;
  depth: number;
  status: number | null;
  /** The crawl's verdict (null: not fetched, the crawl stopped at its page limit). */
  verdict: Verdict | null;
  reason: string | null;
  /** Redirect Location or canonical URL. */
  target: string | null;
  contentType: string | null;
  title: string | null;
  /** The page's own last change (JSON-LD, article:modified_time or Last-Modified), for listed pages. */
  lastmod: string | null;
  /** The page's hreflang alternates (normalised), for listed pages. */
  alternates: ReadonlyArray<{ hreflang: string; href: string }>;
  /** Response time in milliseconds. */
  ms: number | null;
}

/** A URL of a published sitemap, with the sitemap it came from (normalised as the crawl normalises). */
export interface AuditEntry {
  url: string;
  sitemap: string;
  lastmod?: string;
  alternates?: ReadonlyArray<{ hreflang: string; href: string }>;
  /** The entry's images, as the sitemap lists them (kept in a corrected set where the page shows them). */
  images?: readonly ImageEntry[];
}

/** The audit's findings' codes (each in the rule table, docs/rules.md). */
export type AuditCode =
  | 'audit-orphan'
  | 'audit-missing'
  | 'audit-listed-noindex'
  | 'audit-listed-canonicalised'
  | 'audit-listed-disallowed'
  | 'audit-listed-redirect'
  | 'audit-listed-broken'
  | 'audit-listed-not-html'
  | 'audit-listed-unchecked'
  | 'audit-lastmod-stale'
  | 'audit-lastmod-inflated'
  | 'audit-hreflang-not-reciprocal'
  | 'audit-title-duplicate'
  | 'audit-title-missing'
  | 'audit-deep';

/** One problem of one URL. */
export interface AuditFinding {
  code: AuditCode;
  severity: Severity;
  url: string;
  /** The sitemap that lists the URL (absent for a page no sitemap lists). */
  sitemap?: string;
  /** What is wrong, in one sentence. */
  message: string;
  /** What to do (the rule table's fix). */
  fix: string;
  /** The HTTP status the URL answered, when it was fetched. */
  status?: number;
  /** The redirect target, the canonical, or the page's own lastmod, by code. */
  target?: string;
}

/** Counts of an audit: findings by code and severity, the pages seen and response-time percentiles. */
export interface AuditCounts {
  error: number;
  warning: number;
  info: number;
  /** Findings by code (codes without a finding are absent). */
  byCode: Partial<Record<AuditCode, number>>;
  /** URLs the crawl recorded. */
  crawled: number;
  /** Distinct URLs the published sitemaps list. */
  inSitemaps: number;
  /** Response-time percentiles over the fetched URLs, in milliseconds (null: nothing fetched). */
  responseMs: { p50: number | null; p90: number | null; p99: number | null; max: number | null };
}

export interface AuditRules {
  /** Pages more clicks from the start than this are reported (`audit-deep`). @default 5 */
  maxDepth?: number;
  /** A sitemap lastmod newer than the page's last change by more than this is inflated. @default 365 */
  inflatedAfterDays?: number;
  /** A sitemap lastmod older than the page's last change by more than this is stale. @default 1 */
  staleAfterDays?: number;
  /** Now, in ms since the epoch (a lastmod after it is in the future). @default Date.now() */
  now?: number;
  /**
   * Whether the site's robots.txt disallows a URL for the crawler's agent. The crawl's own verdict
   * says so for what it did not fetch; this also judges what it fetched anyway (`robots: false`).
   * @default the crawl's verdicts only
   */
  isDisallowed?: (url: string) => boolean;
}

const DAY_MS = 86_400_000;

/** What the listed verdicts mean for a URL in a sitemap (null: no finding). */
const LISTED: Partial<Record<Verdict, AuditCode>> = {
  noindex: 'audit-listed-noindex',
  canonicalised: 'audit-listed-canonicalised',
  robots: 'audit-listed-disallowed',
  redirect: 'audit-listed-redirect',
  broken: 'audit-listed-broken',
  error: 'audit-listed-broken',
  'not-ok': 'audit-listed-broken',
  'non-html': 'audit-listed-not-html',
  excluded: 'audit-listed-unchecked',
  trap: 'audit-listed-unchecked',
  'too-deep': 'audit-listed-unchecked',
};

/**
 * The findings of an audit, sorted by severity, code and URL: one per URL and problem. `pages` is
 * every URL the crawl recorded (reached by links, and those fetched only because a sitemap lists
 * them); `entries` every URL of the published sitemaps.
 */
export function auditFindings(
  pages: Iterable<AuditPage>,
  entries: Iterable<AuditEntry>,
  rules: AuditRules = {},
): { findings: AuditFinding[]; counts: AuditCounts } {
  const maxDepth = rules.maxDepth ?? 5;
  const byUrl = new Map<string, AuditPage>();
  for (const p of pages) byUrl.set(p.url, p);
  // A URL listed twice (in two sitemaps) is judged once, with the first sitemap that lists it.
  const listed = new Map<string, AuditEntry>();
  for (const e of entries) if (!listed.has(e.url)) listed.set(e.url, e);
  const findings: AuditFinding[] = [];
  const add = (code: AuditCode, url: string, message: string, more: Partial<AuditFinding> = {}): void => {
    const rule = RULES[code]!;
    findings.push({ code, severity: rule.severity, url, message, fix: rule.fix, ...more });
  };

  const healthy: AuditPage[] = [];
  for (const [url, e] of listed) {
    const page = byUrl.get(url);
    const where = { sitemap: e.sitemap };
    const status = page?.status == null ? {} : { status: page.status };
    if (page === undefined || page.verdict === null) {
      add(
        'audit-listed-unchecked',
        url,
        page === undefined
          ? `listed in ${e.sitemap} but not fetched: not on a host the audit crawls (--host)`
          : `listed in ${e.sitemap} but not fetched: the crawl stopped at --max-pages first`,
        where,
      );
      continue;
    }
    if (!page.reached) {
      const s = page.status === null ? (page.reason ?? 'no answer') : `HTTP ${page.status}`;
      add('audit-orphan', url, `listed in ${e.sitemap} but no link on the site reaches it (${s})`, {
        ...where,
        ...status,
      });
    }
    // Fetched although robots.txt disallows it (the crawl ignored robots.txt): still a listed problem.
    if (page.verdict !== 'robots' && rules.isDisallowed?.(url) === true) {
      add('audit-listed-disallowed', url, `listed in ${e.sitemap} but robots.txt disallows it`, {
        ...where,
        ...status,
      });
    }
    const code = LISTED[page.verdict];
    if (code !== undefined) {
      add(code, url, listedMessage(code, page, e.sitemap), {
        ...where,
        ...status,
        ...(page.target === null ? {} : { target: page.target }),
      });
      continue;
    }
    if (page.verdict !== 'listed') continue;
    healthy.push(page);
    lastmodFindings(e, page, rules, add);
    if (page.reached && page.depth > maxDepth) {
      add('audit-deep', url, `${page.depth} clicks from the start page (more than ${maxDepth})`, where);
    }
  }

  for (const page of byUrl.values()) {
    if (
      page.reached &&
      page.verdict === 'listed' &&
      !listed.has(page.url) &&
      rules.isDisallowed?.(page.url) !== true
    ) {
      add('audit-missing', page.url, 'indexable and its own canonical, but in no published sitemap', {
        ...(page.status === null ? {} : { status: page.status }),
      });
    }
  }

  titleFindings(healthy, listed, add);
  hreflangFindings(listed, byUrl, add);

  const order: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
  findings.sort(
    (a, b) =>
      order[a.severity] - order[b.severity] ||
      a.code.localeCompare(b.code) ||
      (a.url < b.url ? -1 : a.url > b.url ? 1 : 0),
  );
  return { findings, counts: countFindings(findings, byUrl, listed.size) };
}

type Add = (code: AuditCode, url: string, message: string, more?: Partial<AuditFinding>) => void;

function listedMessage(code: AuditCode, page: AuditPage, sitemap: string): string {
  const why = page.reason === null ? '' : ` (${page.reason})`;
  switch (code) {
    case 'audit-listed-noindex':
      return `listed in ${sitemap} but says noindex${why}`;
    case 'audit-listed-canonicalised':
      return `listed in ${sitemap} but its canonical is ${page.target ?? 'another URL'}`;
    case 'audit-listed-disallowed':
      return `listed in ${sitemap} but robots.txt disallows it`;
    case 'audit-listed-redirect':
      return `listed in ${sitemap} but redirects to ${page.target ?? '(no Location)'}${why}`;
    case 'audit-listed-not-html':
      return `listed in ${sitemap} but is not an HTML page${why}`;
    case 'audit-listed-unchecked':
      return `listed in ${sitemap} but not fetched: ${page.reason ?? page.verdict}`;
    default:
      return `listed in ${sitemap} but ${page.status === null ? 'could not be fetched' : `answers HTTP ${page.status}`}${page.status === null ? why : ''}`;
  }
}

/** Milliseconds of a lastmod (a date alone is its UTC midnight), or NaN. */
function lastmodMs(value: string): number {
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
}

/** How a sitemap's lastmod stands against the page's own last change (`shown`, null: the page shows none). */
export type LastmodJudgement =
  | { kind: 'ok' | 'unknown' }
  | { kind: 'future' }
  | { kind: 'stale' | 'inflated'; days: number };

/** Judges a listed lastmod against what the page or server shows, by the margins of {@link AuditRules}. */
export function judgeLastmod(listed: string, shown: string | null, rules: AuditRules = {}): LastmodJudgement {
  const listedAt = lastmodMs(listed);
  if (Number.isNaN(listedAt)) return { kind: 'unknown' };
  if (listedAt > (rules.now ?? Date.now()) + DAY_MS) return { kind: 'future' };
  if (shown === null) return { kind: 'unknown' };
  const changedAt = lastmodMs(shown);
  if (Number.isNaN(changedAt)) return { kind: 'unknown' };
  const days = Math.round(Math.abs(listedAt - changedAt) / DAY_MS);
  if (changedAt - listedAt > (rules.staleAfterDays ?? 1) * DAY_MS) return { kind: 'stale', days };
  if (listedAt - changedAt > (rules.inflatedAfterDays ?? 365) * DAY_MS) return { kind: 'inflated', days };
  return { kind: 'ok' };
}

function lastmodFindings(e: AuditEntry, page: AuditPage, rules: AuditRules, add: Add): void {
  if (e.lastmod === undefined) return;
  const j = judgeLastmod(e.lastmod, page.lastmod, rules);
  const where = { sitemap: e.sitemap };
  const more = page.lastmod === null ? where : { ...where, target: page.lastmod };
  if (j.kind === 'future') {
    add('audit-lastmod-inflated', e.url, `lastmod ${e.lastmod} in ${e.sitemap} lies in the future`, where);
  } else if (j.kind === 'stale') {
    add(
      'audit-lastmod-stale',
      e.url,
      `lastmod ${e.lastmod} in ${e.sitemap} is older than the page's last change, ${page.lastmod}`,
      more,
    );
  } else if (j.kind === 'inflated') {
    add(
      'audit-lastmod-inflated',
      e.url,
      `lastmod ${e.lastmod} in ${e.sitemap} is ${j.days} days newer than anything the page or server shows (${page.lastmod})`,
      more,
    );
  }
}

/** Duplicate and missing titles among the healthy listed pages. */
function titleFindings(healthy: readonly AuditPage[], listed: Map<string, AuditEntry>, add: Add): void {
  const byTitle = new Map<string, string[]>();
  for (const p of healthy) {
    const title = p.title?.trim() ?? '';
    const where = { sitemap: listed.get(p.url)!.sitemap };
    if (title === '') {
      add('audit-title-missing', p.url, 'has no title', where);
      continue;
    }
    const urls = byTitle.get(title);
    if (urls === undefined) byTitle.set(title, [p.url]);
    else urls.push(p.url);
  }
  for (const [title, urls] of byTitle) {
    if (urls.length < 2) continue;
    for (const url of urls) {
      const others = urls.filter((u) => u !== url);
      const shown = others.slice(0, 3).join(', ');
      const more = others.length > 3 ? ` and ${others.length - 3} more` : '';
      add('audit-title-duplicate', url, `has the title "${title}", as ${shown}${more}`, {
        sitemap: listed.get(url)!.sitemap,
      });
    }
  }
}

/**
 * Hreflang groups across sitemap and pages: a URL's alternates are the union of what its sitemap
 * entry and its page name; each alternate must name it back (in its entry or on its page).
 */
function hreflangFindings(listed: Map<string, AuditEntry>, byUrl: Map<string, AuditPage>, add: Add): void {
  const alternatesOf = (url: string): Set<string> => {
    const out = new Set<string>();
    for (const a of listed.get(url)?.alternates ?? []) out.add(a.href);
    const page = byUrl.get(url);
    if (page?.verdict === 'listed') for (const a of page.alternates) out.add(a.href);
    return out;
  };
  const urls = new Set<string>([
    ...listed.keys(),
    ...[...byUrl.values()].filter((p) => p.verdict === 'listed').map((p) => p.url),
  ]);
  for (const url of urls) {
    const mine = alternatesOf(url);
    if (mine.size === 0) continue;
    const oneWay = [...mine].filter((v) => v !== url && !alternatesOf(v).has(url));
    if (oneWay.length === 0) continue;
    const entry = listed.get(url);
    add(
      'audit-hreflang-not-reciprocal',
      url,
      `names ${oneWay.slice(0, 3).join(', ')}${oneWay.length > 3 ? ` and ${oneWay.length - 3} more` : ''} as hreflang alternate${oneWay.length === 1 ? '' : 's'}, which do${oneWay.length === 1 ? 'es' : ''} not name it back`,
      entry === undefined ? {} : { sitemap: entry.sitemap },
    );
  }
}

/** The value at quantile `q` of sorted numbers (nearest rank). */
export function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

function countFindings(
  findings: readonly AuditFinding[],
  byUrl: Map<string, AuditPage>,
  inSitemaps: number,
): AuditCounts {
  const counts: AuditCounts = {
    error: 0,
    warning: 0,
    info: 0,
    byCode: {},
    crawled: byUrl.size,
    inSitemaps,
    responseMs: { p50: null, p90: null, p99: null, max: null },
  };
  for (const f of findings) {
    counts[f.severity]++;
    counts.byCode[f.code] = (counts.byCode[f.code] ?? 0) + 1;
  }
  const ms = [...byUrl.values()]
    .map((p) => p.ms)
    .filter((m): m is number => m !== null)
    .sort((a, b) => a - b);
  counts.responseMs = {
    p50: percentile(ms, 0.5),
    p90: percentile(ms, 0.9),
    p99: percentile(ms, 0.99),
    max: percentile(ms, 1),
  };
  return counts;
}
