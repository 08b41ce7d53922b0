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
  VideoInput,
  YesNo,
} from './entry.js';
import { isFinalLastmod, normalizeLastmod } from './lastmod.js';
import {
  CHANGEFREQS,
  MAX_IMAGES_PER_URL,
  VIDEO_DESCRIPTION_MAX,
  VIDEO_DURATION_MAX,
  VIDEO_DURATION_MIN,
  VIDEO_TAG_MAX,
  VIDEO_TITLE_MAX,
  VIDEO_UPLOADER_MAX,
} from './limits.js';
import { checkUrl, type LocationScope, toUri } from './url.js';
import { hasInvalidXmlChar } from './xml.js';

export interface NormalizeOptions {
  /** The location rule for `loc` (images, videos and alternates may live on other hosts). */
  scope?: LocationScope;
  /** Keep the tags Google dropped in 2022 (image caption/title/…, video category/price/…). @default false */
  legacy?: boolean;
}

/** One thing wrong (an error) or rewritten away (a warning) in one record. */
export interface EntryProblem {
  code: string;
  field: string;
  message: string;
}

export type NormalizeResult =
  | { ok: true; entry: SitemapEntry; warnings: EntryProblem[] }
  | { ok: false; errors: EntryProblem[]; warnings: EntryProblem[] };

const CHANGEFREQ_SET: ReadonlySet<string> = new Set(CHANGEFREQS);
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

// Most records have no problem at all, so the lists are shared empties until the first one.
const NONE: EntryProblem[] = [];

class Collector {
  errors: EntryProblem[] = NONE;
  warnings: EntryProblem[] = NONE;
  error(code: string, field: string, message: string): void {
    if (this.errors === NONE) this.errors = [];
    this.errors.push({ code, field, message });
  }
  warn(code: string, field: string, message: string): void {
    if (this.warnings === NONE) this.warnings = [];
    this.warnings.push({ code, field, message });
  }
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

function uri(c: Collector, field: string, v: unknown): string | undefined {
  const s = str(v);
  if (s === undefined) {
    c.error('entry-invalid', field, `${field} must be a URL string`);
    return undefined;
  }
  const r = toUri(s);
  if (!r.ok) {
    c.error(r.code, field, r.message);
    return undefined;
  }
  return r.url;
}

function date(c: Collector, code: string, field: string, v: unknown): string | undefined {
  if (typeof v !== 'string' && typeof v !== 'number' && !(v instanceof Date)) {
    c.error(code, field, `${field} must be a date string, epoch number or Date`);
    return undefined;
  }
  const r = normalizeLastmod(v);
  if (!r.ok) {
    c.error(code, field, r.message);
    return undefined;
  }
  return r.value;
}

function yesNo(c: Collector, field: string, v: unknown): YesNo | undefined {
  const s = typeof v === 'boolean' ? (v ? 'yes' : 'no') : str(v)?.trim().toLowerCase();
  if (s === 'yes' || s === 'no') return s;
  c.error('video-invalid', field, `${field} must be yes or no, got ${JSON.stringify(v)}`);
  return undefined;
}

function text(c: Collector, code: string, field: string, v: unknown, max?: number): string | undefined {
  const s = str(v)?.trim();
  if (s === undefined || s === '') {
    c.error(code, field, `${field} is required and must be non-empty text`);
    return undefined;
  }
  if (hasInvalidXmlChar(s)) {
    c.error(code, field, `${field} holds a control character that XML cannot carry; remove it`);
    return undefined;
  }
  if (max !== undefined && [...s].length > max) {
    c.error(code, field, `${field} has ${[...s].length} characters; the maximum is ${max}`);
    return undefined;
  }
  return s;
}

function legacyDrop(c: Collector, legacy: boolean, field: string, present: boolean): boolean {
  if (!present) return false;
  if (legacy) return true;
  c.warn(
    'legacy-tag',
    field,
    `${field} was dropped by Google in 2022 and is left out; pass the legacy option to keep it`,
  );
  return false;
}

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

function relationship(c: Collector, field: string, v: unknown): 'allow' | 'deny' | undefined {
  const s = str(v)?.trim().toLowerCase();
  if (s === 'allow' || s === 'deny') return s;
  c.error('video-invalid', `${field}.relationship`, `${field}.relationship must be allow or deny`);
  return undefined;
}

function normalizeVideo(
  c: Collector,
  i: number,
  v: unknown,
  pageLoc: string | undefined,
  legacy: boolean,
): VideoEntry | undefined {
  const f = `videos[${i}]`;
  if (typeof v !== 'object' || v === null) {
    c.error('video-invalid', f, `${f} must be an object`);
    return undefined;
  }
  const o = v as VideoInput & Record<string, unknown>;
  const before = c.errors.length;
  for (const k of ['thumbnail_loc', 'title', 'description'] as const) {
    if (o[k] === undefined)
      c.error('video-missing-field', `${f}.${k}`, `${f} has no ${k}, which Google requires`);
  }
  if (o.content_loc === undefined && o.player_loc === undefined) {
    c.error('video-missing-field', `${f}.content_loc`, `${f} needs content_loc or player_loc`);
  }
  if (c.errors.length > before) return undefined;
  const thumbnail_loc = uri(c, `${f}.thumbnail_loc`, o.thumbnail_loc);
  const title = text(c, 'video-invalid', `${f}.title`, o.title, VIDEO_TITLE_MAX);
  const description = text(c, 'video-invalid', `${f}.description`, o.description, VIDEO_DESCRIPTION_MAX);
  if (thumbnail_loc === undefined || title === undefined || description === undefined) return undefined;
  const out: VideoEntry = { thumbnail_loc, title, description };
  if (o.content_loc !== undefined) {
    const u = uri(c, `${f}.content_loc`, o.content_loc);
    if (u !== undefined && u === pageLoc)
      c.error('video-invalid', `${f}.content_loc`, `${f}.content_loc must not equal the page loc`);
    else if (u !== undefined) out.content_loc = u;
  }
  if (o.player_loc !== undefined) {
    const p = typeof o.player_loc === 'string' ? { loc: o.player_loc } : o.player_loc;
    const u = uri(c, `${f}.player_loc`, p?.loc);
    if (u !== undefined && u === pageLoc)
      c.error('video-invalid', `${f}.player_loc`, `${f}.player_loc must not equal the page loc`);
    else if (u !== undefined) {
      out.player_loc = { loc: u };
      if (legacyDrop(c, legacy, `${f}.player_loc.allow_embed`, p.allow_embed !== undefined)) {
        const yn = yesNo(c, `${f}.player_loc.allow_embed`, p.allow_embed);
        if (yn !== undefined) out.player_loc.allow_embed = yn;
      }
      if (legacyDrop(c, legacy, `${f}.player_loc.autoplay`, p.autoplay !== undefined)) {
        const a = text(c, 'video-invalid', `${f}.player_loc.autoplay`, p.autoplay);
        if (a !== undefined) out.player_loc.autoplay = a;
      }
    }
  }
  if (o.duration !== undefined) {
    const d = num(o.duration);
    if (d === undefined || !Number.isInteger(d) || d < VIDEO_DURATION_MIN || d > VIDEO_DURATION_MAX) {
      c.error(
        'video-invalid',
        `${f}.duration`,
        `${f}.duration must be whole seconds from ${VIDEO_DURATION_MIN} to ${VIDEO_DURATION_MAX}`,
      );
    } else out.duration = d;
  }
  if (o.expiration_date !== undefined) {
    const d = date(c, 'video-invalid', `${f}.expiration_date`, o.expiration_date);
    if (d !== undefined) out.expiration_date = d;
  }
  if (o.rating !== undefined) {
    const r = num(o.rating);
    if (r === undefined || r < 0 || r > 5)
      c.error('video-invalid', `${f}.rating`, `${f}.rating must be a number from 0.0 to 5.0`);
    else out.rating = r;
  }
  if (o.view_count !== undefined) {
    const n = num(o.view_count);
    if (n === undefined || !Number.isInteger(n) || n < 0)
      c.error('video-invalid', `${f}.view_count`, `${f}.view_count must be a whole number ≥ 0`);
    else out.view_count = n;
  }
  if (o.publication_date !== undefined) {
    const d = date(c, 'video-invalid', `${f}.publication_date`, o.publication_date);
    if (d !== undefined) out.publication_date = d;
  }
  if (o.family_friendly !== undefined) {
    const yn = yesNo(c, `${f}.family_friendly`, o.family_friendly);
    if (yn !== undefined) out.family_friendly = yn;
  }
  if (o.restriction !== undefined) {
    const rel = relationship(c, `${f}.restriction`, o.restriction.relationship);
    const countries = str(o.restriction.countries)?.trim().toUpperCase() ?? '';
    if (!/^(?:[A-Z]{2}(?: [A-Z]{2})*)?$/.test(countries)) {
      c.error(
        'video-invalid',
        `${f}.restriction.countries`,
        `${f}.restriction.countries must be space-separated ISO 3166 codes such as "IE GB"`,
      );
    } else if (rel !== undefined) out.restriction = { relationship: rel, countries };
  }
  if (o.platform !== undefined) {
    const rel = relationship(c, `${f}.platform`, o.platform.relationship);
    const platforms = str(o.platform.platforms)?.trim().toLowerCase() ?? '';
    if (!/^(?:(?:web|mobile|tv)(?: (?:web|mobile|tv))*)?$/.test(platforms)) {
      c.error(
        'video-invalid',
        `${f}.platform.platforms`,
        `${f}.platform.platforms must be web, mobile and/or tv, space-separated`,
      );
    } else if (rel !== undefined) out.platform = { relationship: rel, platforms };
  }
  if (o.requires_subscription !== undefined) {
    const yn = yesNo(c, `${f}.requires_subscription`, o.requires_subscription);
    if (yn !== undefined) out.requires_subscription = yn;
  }
  if (o.uploader !== undefined) {
    const u = typeof o.uploader === 'string' ? { name: o.uploader } : o.uploader;
    const name = text(c, 'video-invalid', `${f}.uploader.name`, u?.name, VIDEO_UPLOADER_MAX);
    if (name !== undefined) {
      out.uploader = { name };
      if (u.info !== undefined) {
        const info = uri(c, `${f}.uploader.info`, u.info);
        if (info !== undefined) out.uploader.info = info;
      }
    }
  }
  if (o.live !== undefined) {
    const yn = yesNo(c, `${f}.live`, o.live);
    if (yn !== undefined) out.live = yn;
  }
  if (o.tag !== undefined) {
    const tags = (Array.isArray(o.tag) ? o.tag : [o.tag]).map((t) => str(t)?.trim() ?? '');
    if (tags.length > VIDEO_TAG_MAX)
      c.error('video-invalid', `${f}.tag`, `${f} has ${tags.length} tags; the maximum is ${VIDEO_TAG_MAX}`);
    else if (tags.some((t) => t === ''))
      c.error('video-invalid', `${f}.tag`, `${f}.tag entries must be non-empty text`);
    else if (tags.length > 0) out.tag = tags;
  }
  if (legacyDrop(c, legacy, `${f}.category`, o.category !== undefined)) {
    const t = text(c, 'video-invalid', `${f}.category`, o.category, 256);
    if (t !== undefined) out.category = t;
  }
  if (legacyDrop(c, legacy, `${f}.gallery_loc`, o.gallery_loc !== undefined)) {
    const g = o.gallery_loc!;
    const u = uri(c, `${f}.gallery_loc.loc`, g.loc);
    if (u !== undefined) {
      out.gallery_loc = { loc: u };
      if (g.title !== undefined) out.gallery_loc.title = String(g.title);
    }
  }
  if (legacyDrop(c, legacy, `${f}.price`, o.price !== undefined)) {
    const prices = Array.isArray(o.price) ? o.price : [];
    const ok = prices.every((p) => str(p?.value) !== undefined && /^[A-Z]{3}$/.test(str(p?.currency) ?? ''));
    if (!ok || prices.length === 0)
      c.error('video-invalid', `${f}.price`, `${f}.price must be a list of {value, currency (ISO 4217)}`);
    else out.price = prices.map((p) => ({ ...p, value: String(p.value).trim() }));
  }
  if (legacyDrop(c, legacy, `${f}.content_segment_loc`, o.content_segment_loc !== undefined)) {
    const segs = Array.isArray(o.content_segment_loc) ? o.content_segment_loc : [o.content_segment_loc];
    const locs = segs.map((u, i) => uri(c, `${f}.content_segment_loc[${i}]`, u));
    if (locs.every((u) => u !== undefined) && locs.length > 0) out.content_segment_loc = locs as string[];
  }
  if (legacyDrop(c, legacy, `${f}.id`, o.id !== undefined)) {
    const ids = Array.isArray(o.id) ? o.id : [];
    const ok = ids.length > 0 && ids.every((x) => str(x?.value)?.trim() && str(x?.type)?.trim());
    if (!ok) c.error('video-invalid', `${f}.id`, `${f}.id must be a list of {type, value}`);
    else out.id = ids.map((x) => ({ type: String(x.type).trim(), value: String(x.value).trim() }));
  }
  if (legacyDrop(c, legacy, `${f}.tvshow`, o.tvshow !== undefined)) {
    const t = (typeof o.tvshow === 'object' && o.tvshow !== null ? o.tvshow : {}) as Partial<
      VideoEntry['tvshow'] & object
    >;
    const show_title = text(c, 'video-invalid', `${f}.tvshow.show_title`, t.show_title);
    if (show_title !== undefined) {
      const tv: NonNullable<VideoEntry['tvshow']> = { show_title };
      for (const k of ['video_type', 'episode_title'] as const) {
        if (t[k] !== undefined) {
          const v = text(c, 'video-invalid', `${f}.tvshow.${k}`, t[k]);
          if (v !== undefined) tv[k] = v;
        }
      }
      for (const k of ['season_number', 'episode_number'] as const) {
        if (t[k] !== undefined) {
          const n = num(t[k]);
          if (n === undefined || !Number.isInteger(n) || n < 0)
            c.error('video-invalid', `${f}.tvshow.${k}`, `${f}.tvshow.${k} must be a whole number`);
          else tv[k] = n;
        }
      }
      if (t.premier_date !== undefined) {
        const d = date(c, 'video-invalid', `${f}.tvshow.premier_date`, t.premier_date);
        if (d !== undefined) tv.premier_date = d;
      }
      out.tvshow = tv;
    }
  }
  return out;
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
        .map((v, i) => normalizeImage(c, i, v, legacy))
        .filter((x): x is ImageEntry => x !== undefined);
      if (imgs.length > 0) entry.images = imgs;
    }
  }
  if (o.videos !== undefined) {
    if (!Array.isArray(o.videos)) c.error('video-invalid', 'videos', 'videos must be a list');
    else if (o.videos.length > 0) {
      const vids = o.videos
        .map((v, i) => normalizeVideo(c, i, v, loc, legacy))
        .filter((x): x is VideoEntry => x !== undefined);
      if (vids.length > 0) entry.videos = vids;
    }
  }
  if (o.news !== undefined && o.news !== null) {
    const n = normalizeNews(c, o.news, legacy);
    if (n !== undefined) entry.news = n;
  }
  if (o.alternates !== undefined && o.alternates !== null) {
    const a = normalizeAlternates(c, o.alternates, loc);
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
    else if (t !== '') entry.title = t;
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
  if (c.errors.length > 0) return { ok: false, errors: c.errors, warnings: c.warnings };
  return { ok: true, entry, warnings: c.warnings };
}
