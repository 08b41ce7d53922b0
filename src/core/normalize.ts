/**
 * The entry normalisation: the one place that defines what the writer rewrites and what it
 * refuses. Everything the writer emits went through `normalizeEntry`; the round-trip property is
 * `parse(write(entries)) == entries.map(normalizeEntry)`.
 */
import type {
  AlternateEntry,
  Changefreq,
  EntryInput,
  ImageEntry,
  NewsEntry,
  SitemapEntry,
  VideoEntry,
} from './entry.js';
import { isFinalLastmod } from './lastmod.js';
import { CHANGEFREQS, MAX_IMAGES_PER_URL } from './limits.js';
import {
  Collector,
  date,
  type EntryProblem,
  legacyDrop,
  NONE,
  num,
  str,
  text,
  uri,
  xmlSafe,
} from './normalize-fields.js';
import { normalizeVideo } from './normalize-video.js';
import { checkUrl, type LocationScope } from './url.js';

export interface NormalizeOptions {
  /** The location rule for `loc` (images, videos and alternates may live on other hosts). */
  scope?: LocationScope;
  /** Keep the tags Google dropped in 2022 (image caption/title/…, video category/price/…). @default false */
  legacy?: boolean;
  /**
   * Keep a record whose loc is good without its bad optional fields (lastmod, changefreq,
   * priority, an image, a video, news, the alternates): their errors become warnings. @default false
   */
  dropFields?: boolean;
}

export type { EntryProblem } from './normalize-fields.js';

export type NormalizeResult =
  | { ok: true; entry: SitemapEntry; warnings: EntryProblem[] }
  | { ok: false; errors: EntryProblem[]; warnings: EntryProblem[] };

const CHANGEFREQ_SET: ReadonlySet<string> = new Set(CHANGEFREQS);
// The fields a record can do without: under dropFields a problem in one leaves that part out.
const OPTIONAL_FIELD = /^(?:lastmod|changefreq|priority|images|videos|news|alternates)(?:$|[.[])/;
const SECTION = /^[a-z0-9][a-z0-9_-]{0,63}$/;
// BCP 47 as Google uses it: language (2–3 letters), optional script, optional region; or x-default.
const HREFLANG = /^(?:x-default|[a-z]{2,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|\d{3}))?)$/i;
const NEWS_LANGUAGE = /^(?:zh-cn|zh-tw|[a-z]{2,3})$/;
const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'loc',
  'lastmod',
  'changefreq',
  'priority',
  'images',
  'videos',
  'news',
  'alternates',
  'mobile',
  'section',
  'title',
]);

function normalizeImage(c: Collector, i: number, v: unknown, legacy: boolean): ImageEntry | undefined {
  const field = `images[${i}]`;
  if (typeof v === 'string') {
    const loc = uri(c, `${field}.loc`, v);
    return loc === undefined ? undefined : { loc };
  }
  if (typeof v !== 'object' || v === null) {
    c.error('image-invalid', field, `${field} must be a URL or an object with loc`);
    return undefined;
  }
  const o = v as Record<string, unknown>;
  if (o['loc'] === undefined) {
    c.error('image-missing-loc', `${field}.loc`, `${field} has no loc`);
    return undefined;
  }
  const loc = uri(c, `${field}.loc`, o['loc']);
  if (loc === undefined) return undefined;
  const img: ImageEntry = { loc };
  for (const k of ['caption', 'geo_location', 'title', 'license'] as const) {
    const val = o[k];
    if (legacyDrop(c, legacy, `${field}.${k}`, val !== undefined)) {
      if (k === 'license') {
        const u = uri(c, `${field}.license`, val);
        if (u !== undefined) img.license = u;
      } else {
        const t = text(c, 'image-invalid', `${field}.${k}`, val);
        if (t !== undefined) img[k] = t;
      }
    }
  }
  return img;
}

function normalizeNews(c: Collector, v: unknown, legacy: boolean): NewsEntry | undefined {
  if (typeof v !== 'object' || v === null) {
    c.error('news-invalid', 'news', 'news must be an object');
    return undefined;
  }
  const o = v as Record<string, unknown>;
  const pub = o['publication'] as Record<string, unknown> | undefined;
  const before = c.errors.length;
  if (typeof pub !== 'object' || pub === null)
    c.error('news-missing-field', 'news.publication', 'news.publication {name, language} is required');
  if (o['publication_date'] === undefined)
    c.error('news-missing-field', 'news.publication_date', 'news.publication_date is required');
  if (o['title'] === undefined) c.error('news-missing-field', 'news.title', 'news.title is required');
  if (c.errors.length > before || pub === undefined) return undefined;
  const name = text(c, 'news-missing-field', 'news.publication.name', pub['name']);
  const language = str(pub['language'])?.trim().toLowerCase();
  if (language === undefined || !NEWS_LANGUAGE.test(language)) {
    c.error(
      'news-invalid',
      'news.publication.language',
      'news.publication.language must be an ISO 639 code (en, fr, …) or zh-cn / zh-tw',
    );
  }
  const publication_date = date(c, 'news-invalid', 'news.publication_date', o['publication_date']);
  const title = text(c, 'news-invalid', 'news.title', o['title']);
  if (name === undefined || language === undefined || publication_date === undefined || title === undefined)
    return undefined;
  if (c.errors.length > before) return undefined;
  const out: NewsEntry = { publication: { name, language }, publication_date, title };
  if (legacyDrop(c, legacy, 'news.access', o['access'] !== undefined)) {
    if (o['access'] === 'Subscription' || o['access'] === 'Registration') out.access = o['access'];
    else c.error('news-invalid', 'news.access', 'news.access must be Subscription or Registration');
  }
  for (const k of ['genres', 'keywords', 'stock_tickers'] as const) {
    if (legacyDrop(c, legacy, `news.${k}`, o[k] !== undefined)) {
      const t = text(c, 'news-invalid', `news.${k}`, o[k]);
      if (t !== undefined) out[k] = t;
    }
  }
  return out;
}

function normalizeAlternates(
  c: Collector,
  v: unknown,
  loc: string | undefined,
): AlternateEntry[] | undefined {
  if (!Array.isArray(v)) {
    c.error('hreflang-invalid', 'alternates', 'alternates must be a list of {hreflang, href}');
    return undefined;
  }
  const out: AlternateEntry[] = [];
  const seen = new Set<string>();
  v.forEach((a: unknown, i) => {
    const f = `alternates[${i}]`;
    const o = (typeof a === 'object' && a !== null ? a : {}) as Record<string, unknown>;
    const lang = str(o['hreflang'])?.trim();
    if (lang === undefined || !HREFLANG.test(lang)) {
      c.error(
        'hreflang-invalid',
        `${f}.hreflang`,
        `${f}.hreflang ${JSON.stringify(o['hreflang'])} is not a language code (en, en-GB, zh-Hant-TW) or x-default`,
      );
      return;
    }
    const href = uri(c, `${f}.href`, o['href']);
    if (href === undefined) return;
    const key = lang.toLowerCase();
    if (seen.has(key)) {
      c.error('hreflang-invalid', `${f}.hreflang`, `hreflang ${lang} appears twice`);
      return;
    }
    seen.add(key);
    out.push({ hreflang: lang, href });
  });
  if (loc !== undefined && out.length > 0 && !out.some((a) => a.href === loc)) {
    c.error(
      'hreflang-missing-self',
      'alternates',
      'the alternates must include the page itself (an entry whose href is loc)',
    );
  }
  return out;
}

/**
 * The common record ({loc, lastmod, changefreq, priority} with values already in final form),
 * normalised without the general machinery; undefined sends it down the full path, which gives
 * the same entry (a property test holds them equal) or names what is wrong. It runs once per URL.
 */
function plainEntry(o: Record<string, unknown>, scope: LocationScope | undefined): SitemapEntry | undefined {
  let loc: unknown;
  let lastmod: unknown;
  let changefreq: unknown;
  let priority: unknown;
  for (const k in o) {
    switch (k) {
      case 'loc':
        loc = o[k];
        break;
      case 'lastmod':
        lastmod = o[k];
        break;
      case 'changefreq':
        changefreq = o[k];
        break;
      case 'priority':
        priority = o[k];
        break;
      default:
        return undefined;
    }
  }
  if (typeof loc !== 'string') return undefined;
  const r = checkUrl(loc, scope);
  if (!r.ok) return undefined;
  const entry: SitemapEntry = { loc: r.url };
  if (lastmod !== undefined) {
    if (typeof lastmod !== 'string' || !isFinalLastmod(lastmod)) return undefined;
    entry.lastmod = lastmod;
  }
  if (changefreq !== undefined) {
    if (typeof changefreq !== 'string' || !CHANGEFREQ_SET.has(changefreq)) return undefined;
    entry.changefreq = changefreq as Changefreq;
  }
  if (priority !== undefined) {
    if (typeof priority !== 'number' || !(priority >= 0 && priority <= 1)) return undefined;
    entry.priority = Math.round(priority * 10) / 10;
  }
  return entry;
}

/** Normalises one writer input record, or lists everything wrong with it. Never throws. */
export function normalizeEntry(input: unknown, options: NormalizeOptions = {}): NormalizeResult {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const plain = plainEntry(input as Record<string, unknown>, options.scope);
    if (plain !== undefined) return { ok: true, entry: plain, warnings: NONE };
  }
  return normalizeEntryFully(input, options);
}

/** The full normalisation; exported for the test that holds the fast path equal to it. */
export function normalizeEntryFully(input: unknown, options: NormalizeOptions = {}): NormalizeResult {
  const c = new Collector();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    c.error('entry-invalid', '', 'a record must be an object with at least loc');
    return { ok: false, errors: c.errors, warnings: c.warnings };
  }
  const o = input as EntryInput & Record<string, unknown>;
  const legacy = options.legacy === true;
  const drop = options.dropFields === true;
  let loc: string | undefined;
  if (typeof o.loc !== 'string') {
    c.error('url-invalid', 'loc', o.loc === undefined ? 'loc is missing' : 'loc must be a string');
  } else {
    const r = checkUrl(o.loc, options.scope);
    if (r.ok) loc = r.url;
    else c.error(r.code, 'loc', r.message);
  }
  const entry: SitemapEntry = { loc: loc ?? '' };
  if (o.lastmod !== undefined && o.lastmod !== null && o.lastmod !== '') {
    const d = date(c, 'lastmod-invalid', 'lastmod', o.lastmod);
    if (d !== undefined) entry.lastmod = d;
  }
  if (o.changefreq !== undefined && o.changefreq !== null && o.changefreq !== '') {
    const s = str(o.changefreq)?.trim().toLowerCase();
    if (s === undefined || !CHANGEFREQ_SET.has(s)) {
      c.error(
        'changefreq-invalid',
        'changefreq',
        `changefreq ${JSON.stringify(o.changefreq)} is not one of ${CHANGEFREQS.join(', ')}`,
      );
    } else entry.changefreq = s as Changefreq;
  }
  if (o.priority !== undefined && o.priority !== null && o.priority !== '') {
    const p = num(o.priority);
    if (p === undefined || p < 0 || p > 1) {
      c.error(
        'priority-invalid',
        'priority',
        `priority ${JSON.stringify(o.priority)} is not a number from 0.0 to 1.0`,
      );
    } else entry.priority = Math.round(p * 10) / 10;
  }
  if (o.images !== undefined) {
    if (!Array.isArray(o.images)) c.error('image-invalid', 'images', 'images must be a list');
    else if (o.images.length > MAX_IMAGES_PER_URL) {
      c.error(
        'images-too-many',
        'images',
        `${o.images.length} images; a URL may list at most ${MAX_IMAGES_PER_URL}`,
      );
    } else if (o.images.length > 0) {
      const imgs = o.images
        .map((v, i) => whole(c, drop, () => normalizeImage(c, i, v, legacy)))
        .filter((x): x is ImageEntry => x !== undefined);
      if (imgs.length > 0) entry.images = imgs;
    }
  }
  if (o.videos !== undefined) {
    if (!Array.isArray(o.videos)) c.error('video-invalid', 'videos', 'videos must be a list');
    else if (o.videos.length > 0) {
      const vids = o.videos
        .map((v, i) => whole(c, drop, () => normalizeVideo(c, i, v, loc, legacy)))
        .filter((x): x is VideoEntry => x !== undefined);
      if (vids.length > 0) entry.videos = vids;
    }
  }
  if (o.news !== undefined && o.news !== null) {
    const n = whole(c, drop, () => normalizeNews(c, o.news, legacy));
    if (n !== undefined) entry.news = n;
  }
  if (o.alternates !== undefined && o.alternates !== null) {
    const a = whole(c, drop, () => normalizeAlternates(c, o.alternates, loc));
    if (a !== undefined && a.length > 0) entry.alternates = a;
  }
  if (o.mobile === true) entry.mobile = true;
  else if (o.mobile !== undefined && o.mobile !== false)
    c.error('entry-invalid', 'mobile', 'mobile must be true or false');
  if (o.section !== undefined && o.section !== null && o.section !== '') {
    const s = str(o.section)?.trim().toLowerCase();
    if (s === undefined || !SECTION.test(s)) {
      c.error(
        'section-invalid',
        'section',
        `section ${JSON.stringify(o.section)} must be 1–64 of a-z, 0-9, _ and - (it becomes part of file names)`,
      );
    } else entry.section = s;
  }
  if (o.title !== undefined && o.title !== null) {
    const t = str(o.title)?.trim();
    if (t === undefined) c.error('entry-invalid', 'title', 'title must be text');
    else if (t !== '' && xmlSafe(c, 'entry-invalid', 'title', [t])) entry.title = t;
  }
  for (const k in o) {
    if (!KNOWN_FIELDS.has(k) && k !== 'sitemap' && k !== 'kind' && Object.hasOwn(o, k)) {
      c.warn(
        'entry-unknown-field',
        k,
        `unknown field "${k}" is ignored (fields: ${[...KNOWN_FIELDS].join(', ')})`,
      );
    }
  }
  if (c.errors.length === 0) return { ok: true, entry, warnings: c.warnings };
  if (drop && loc !== undefined && c.errors.every((p) => OPTIONAL_FIELD.test(p.field))) {
    // Each bad part was left out of the entry above (see whole()); what stays is valid.
    const dropped = c.errors.map((p) => ({ ...p, message: `${p.message}; left out, the URL is kept` }));
    return { ok: true, entry, warnings: [...c.warnings, ...dropped] };
  }
  return { ok: false, errors: c.errors, warnings: c.warnings };
}

/**
 * A part (an image, a video, the news block, the alternates) as normalised, or nothing when it
 * had an error and fields are dropped: a part is kept whole or not at all, never half-checked.
 */
function whole<T>(c: Collector, drop: boolean, read: () => T | undefined): T | undefined {
  const before = c.errors.length;
  const v = read();
  return drop && c.errors.length > before ? undefined : v;
}
