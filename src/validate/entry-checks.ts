/**
 * Rules about one page entry that the parser does not check: session and tracking parameters,
 * assets listed as pages, lastmod in the future, news age, and the extension field rules of
 * `normalizeEntry` (the writer's own definition) that a lenient reader lets through.
 */
import type { NewsEntry, SitemapEntry, VideoEntry } from '../core/entry.js';
import { NEWS_MAX_AGE_DAYS } from '../core/limits.js';
import { type EntryProblem, normalizeEntry } from '../core/normalize.js';
import { findSessionOrTrackingParams } from '../core/url-params.js';
import { assetKind, type LastmodCache } from './values.js';

/** Reports one finding about the entry being checked. */
export type EntryReport = (code: string, message: string, field?: string) => void;

const DAY_MS = 86_400_000;
/** A date without a time has begun somewhere on Earth once UTC midnight is 14 hours away. */
const DATE_SLACK_MS = 14 * 3_600_000;
/** Clocks disagree; a lastmod a few minutes ahead is not "in the future". */
const TIME_SLACK_MS = 5 * 60_000;

// Codes of the shared URL rule: the parser has reported those for every URL field already.
const URL_CODES: ReadonlySet<string> = new Set([
  'url-invalid',
  'url-scheme',
  'url-too-short',
  'url-too-long',
  'url-outside-location',
]);
// What the parser drops before the entry exists, so normalizeEntry cannot meet it.
const PARSER_DROPS: ReadonlySet<string> = new Set([
  'video-missing-field',
  'news-missing-field',
  'image-missing-loc',
  'entry-unknown-field',
  'legacy-tag',
]);

/** The query or `;jsessionid=` parameters of a URL that are session IDs or trackers. */
export function checkParams(loc: string, report: EntryReport, enabled: (code: string) => boolean): void {
  // Only a URL with a query or a path parameter can carry one; most have neither.
  if (!loc.includes('?') && !loc.includes(';')) return;
  const found = findSessionOrTrackingParams(loc);
  if (found.length === 0) return;
  const sessions = found.filter((p) => p.kind === 'session').map((p) => p.name);
  const trackers = found.filter((p) => p.kind === 'tracking').map((p) => p.name);
  if (sessions.length > 0 && enabled('url-session-id')) {
    report(
      'url-session-id',
      `${loc} carries the session parameter ${sessions.join(', ')}: list the URL without it`,
      'loc',
    );
  }
  if (trackers.length > 0 && enabled('url-tracking-param')) {
    report(
      'url-tracking-param',
      `${loc} carries the tracking parameter${trackers.length > 1 ? 's' : ''} ${trackers.join(', ')}: list the clean URL`,
      'loc',
    );
  }
}

/**
 * The `url-not-normal` finding about a loc not written in its normal form: `written` is the text
 * of the document, `loc` what the parser made of it (WHATWG serialisation). The parser gives
 * `written` only when the two differ.
 */
export function notNormalMessage(written: string, loc: string): string {
  const why: string[] = [];
  if (/\s/.test(written)) why.push('raw spaces');
  if (/[^\x00-\x7f]/.test(written)) why.push('raw non-ASCII characters');
  if (/["<>^`{|}]/.test(written)) why.push('characters that must be percent-encoded');
  const authority = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)(.?)/.exec(written);
  if (authority !== null) {
    const [, scheme, host, next] = authority;
    if (/[A-Z]/.test(`${scheme}${host}`)) why.push('upper case in the scheme or host');
    if (next !== '/') why.push('no / after the host');
    if (/:(?:80|443)?$/.test(host!)) why.push('an empty or default port');
  }
  if (/\/\.\.?(?:[/?#]|$)/.test(written)) why.push('dot segments');
  const how = why.length > 0 ? why.join(', ') : 'it is serialised differently';
  return `"${written}" is not in normal form (${how}): write ${loc}`;
}

/** An asset (image, script, archive, sitemap…) listed as a page. */
export function checkAsset(loc: string, report: EntryReport): void {
  const kind = assetKind(loc);
  if (kind !== undefined) report('url-asset', `${loc} is ${kind}, not a page`, 'loc');
}

/** A lastmod later than now (with slack for zones and clocks). */
export function checkFuture(
  lastmod: string,
  now: number,
  cache: LastmodCache,
  report: EntryReport,
  field = 'lastmod',
): void {
  const t = cache.get(lastmod);
  if (t === undefined) return;
  const slack = t.dateOnly ? DATE_SLACK_MS : TIME_SLACK_MS;
  if (t.ms > now + slack) {
    report(
      'lastmod-future',
      `${field} ${lastmod} is in the future (now is ${new Date(now).toISOString().slice(0, 19)}Z)`,
      field,
    );
  }
}

/** A news entry published more than two days ago. */
export function checkNewsAge(news: NewsEntry, now: number, cache: LastmodCache, report: EntryReport): void {
  const t = cache.get(news.publication_date);
  if (t === undefined) return;
  const ageDays = (now - t.ms) / DAY_MS;
  if (ageDays > NEWS_MAX_AGE_DAYS) {
    report(
      'news-too-old',
      `published ${news.publication_date}, ${Math.floor(ageDays)} days ago; Google News reads articles of the last ${NEWS_MAX_AGE_DAYS} days`,
      'news.publication_date',
    );
  }
}

/** The tags Google dropped in 2022 that an entry carries, as field paths without indexes. */
export function legacyTags(entry: SitemapEntry): string[] {
  const out: string[] = [];
  for (const img of entry.images ?? []) {
    if (img.caption !== undefined) out.push('image:caption');
    if (img.geo_location !== undefined) out.push('image:geo_location');
    if (img.title !== undefined) out.push('image:title');
    if (img.license !== undefined) out.push('image:license');
  }
  for (const v of entry.videos ?? []) {
    if (v.category !== undefined) out.push('video:category');
    if (v.gallery_loc !== undefined) out.push('video:gallery_loc');
    if (v.price !== undefined) out.push('video:price');
    if (v.tvshow !== undefined) out.push('video:tvshow');
    if (v.player_loc?.allow_embed !== undefined) out.push('video:player_loc@allow_embed');
    if (v.player_loc?.autoplay !== undefined) out.push('video:player_loc@autoplay');
  }
  return out;
}

/**
 * The extension field rules of {@link normalizeEntry} that the parser does not apply (video
 * title and description lengths, durations, ratings, countries, tags; news languages; hreflang
 * codes, duplicates and the self-reference). Dates and URLs are left out: the parser reported them.
 */
export function extensionProblems(entry: SitemapEntry): EntryProblem[] {
  if (entry.videos === undefined && entry.news === undefined && entry.alternates === undefined) return [];
  const input: Record<string, unknown> = { loc: entry.loc };
  if (entry.videos !== undefined) input['videos'] = entry.videos.map(withoutDates);
  // A placeholder date: publication_date was read (and judged) by the parser.
  if (entry.news !== undefined) input['news'] = { ...entry.news, publication_date: '2000-01-01' };
  if (entry.alternates !== undefined) input['alternates'] = entry.alternates;
  const r = normalizeEntry(input, { legacy: true });
  const problems = r.ok ? r.warnings : [...r.errors, ...r.warnings];
  return problems.filter((p) => !URL_CODES.has(p.code) && !PARSER_DROPS.has(p.code));
}

function withoutDates(v: VideoEntry): Partial<VideoEntry> {
  const { expiration_date: _e, publication_date: _p, tvshow: _t, ...rest } = v;
  return rest;
}
