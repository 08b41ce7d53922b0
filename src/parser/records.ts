/**
 * Records under construction (a page, an image, a video, a news entry, a feed item) and the
 * setters that turn each element's text into entry-model fields, reporting what they repair or
 * drop. The XML handler decides which element is which; this file decides what its value means.
 */
import type {
  AlternateEntry,
  ImageEntry,
  LinkEntry,
  NewsEntry,
  SitemapEntry,
  VideoEntry,
  VideoTvshow,
} from '../core/entry.js';
import {
  type At,
  changefreqValue,
  clip,
  type DateReader,
  enumValue,
  priorityValue,
  urlValue,
} from './field-values.js';
import type { DocumentReporter, Where } from './reporter.js';
import type { ItemPosition } from './types.js';
import type { XmlAttribute } from './xml-entities.js';

/** Most images, videos, alternates, tags… kept per entry (Google: at most 1,000 images per URL). */
export const MAX_LIST_LENGTH = 1000;

export interface Pos {
  line: number;
  column: number;
}

export type Draft<T> = { [K in keyof T]?: T[K] };

/** An mRSS `<media:content>`. */
export interface MediaRef {
  url: string;
  medium: string;
  type: string;
  duration: string;
}

/** A `<url>`, RSS `<item>` or Atom `<entry>` being read. */
export interface PageDraft {
  at: Pos;
  loc?: string;
  /** The loc as written, when it differs from `loc` (its normal form). */
  written?: string;
  /** A <loc> (or link) was present, usable or not. */
  hadLoc: boolean;
  lastmod?: string;
  changefreq?: SitemapEntry['changefreq'];
  priority?: number;
  images?: ImageEntry[];
  videos?: VideoEntry[];
  news?: NewsEntry;
  alternates?: AlternateEntry[];
  links?: LinkEntry[];
  mobile?: true;
  /** Highest XSD position seen so far: loc 0, lastmod 1, changefreq 2, priority 3, extensions 4. */
  order: number;
  /** Single-valued children already seen (bit per XSD position). */
  seen: number;
  // Feeds only.
  guid?: string;
  dates?: Partial<Record<'updated' | 'modified' | 'published' | 'issued' | 'pubDate' | 'dcdate', string>>;
  title?: string;
  description?: string;
  media?: MediaRef[];
  thumbnails?: string[];
  player?: string;
  mediaTitle?: string;
  mediaDescription?: string;
}

export type NewsDraft = Draft<NewsEntry> & { name?: string; language?: string };

/** What a setter needs from the handler about the value being read. */
export interface FieldContext {
  readonly rep: DocumentReporter;
  readonly dates: DateReader;
  /** Where the value is. */
  readonly at: At;
  /** Where a part of it (an attribute) is: `suffix` is appended to the field path. */
  part(suffix: string): At;
  /** The attributes of the value's element. */
  readonly attrs: readonly XmlAttribute[];
}

export const VIDEO_KEYS: ReadonlyArray<keyof VideoEntry> = [
  'thumbnail_loc',
  'title',
  'description',
  'content_loc',
  'player_loc',
  'duration',
  'expiration_date',
  'rating',
  'view_count',
  'publication_date',
  'family_friendly',
  'restriction',
  'platform',
  'requires_subscription',
  'uploader',
  'live',
  'tag',
  'category',
  'gallery_loc',
  'price',
  'tvshow',
  'content_segment_loc',
  'id',
];
export const TVSHOW_KEYS: ReadonlyArray<keyof VideoTvshow> = [
  'show_title',
  'video_type',
  'episode_title',
  'season_number',
  'episode_number',
  'premier_date',
];
const IMAGE_KEYS: ReadonlyArray<keyof ImageEntry> = ['loc', 'caption', 'geo_location', 'title', 'license'];

export function attr(attrs: readonly XmlAttribute[], name: string): string | undefined {
  for (const a of attrs) if (a.name === name) return a.value.trim();
  return undefined;
}

/** A copy of `draft` with its keys in `keys` order, so that output is stable whatever the document order. */
export function ordered<T>(draft: Draft<T>, keys: ReadonlyArray<keyof T>): Draft<T> {
  const out: Draft<T> = {};
  for (const k of keys) {
    const v = draft[k];
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/** `list` with `item` appended (a new list when there was none). */
export function append<T>(list: T[] | undefined, item: T): T[] {
  if (list === undefined) return [item];
  list.push(item);
  return list;
}

/** False (and a report) once a list is full. */
export function roomIn(
  list: readonly unknown[] | undefined,
  what: string,
  rep: DocumentReporter,
  at: At,
): boolean {
  if (list === undefined || list.length < MAX_LIST_LENGTH) return true;
  rep.report(
    'too-many-children',
    `more than ${MAX_LIST_LENGTH} ${what} in one entry; the rest are dropped`,
    at(),
  );
  return false;
}

// ---- setters ----------------------------------------------------------------------------------

/** Where a record starts, with its loc as written when that differs from its normal form. */
export function positionOf(record: { at: Pos; written?: string }): ItemPosition {
  return record.written === undefined ? record.at : { ...record.at, written: record.written };
}

/** Keeps a usable loc and, when it was not written in normal form, the text as written. */
export function keepLoc(
  record: { loc?: string; written?: string },
  written: string,
  url: string | undefined,
): void {
  if (url === undefined) return;
  record.loc = url;
  if (url !== written) record.written = written;
}

export function setPageField(page: PageDraft, name: string, value: string, cx: FieldContext): void {
  const { rep, at } = cx;
  switch (name) {
    case 'loc': {
      page.hadLoc = true;
      if (value === '') {
        rep.report('loc-missing', '<loc> is empty; entry dropped', at());
        return;
      }
      keepLoc(page, value, urlValue(value, rep, at));
      return;
    }
    case 'lastmod': {
      const v = cx.dates.read(value, rep, at);
      if (v !== undefined) page.lastmod = v;
      return;
    }
    case 'changefreq': {
      const v = changefreqValue(value, rep, at);
      if (v !== undefined) page.changefreq = v;
      return;
    }
    case 'priority': {
      const v = priorityValue(value, rep, at);
      if (v !== undefined) page.priority = v;
      return;
    }
  }
}

export function setImageField(image: Draft<ImageEntry>, name: string, value: string, cx: FieldContext): void {
  const key = name as keyof ImageEntry;
  if (image[key] !== undefined) {
    cx.rep.report('element-duplicate', `<image:${name}> appears twice; the first is kept`, cx.at());
    return;
  }
  if (value === '') return;
  if (key === 'loc') {
    const url = urlValue(value, cx.rep, cx.at);
    if (url !== undefined) image.loc = url;
    return;
  }
  image[key] = value;
}

export function setNewsField(news: NewsDraft, name: string, value: string, cx: FieldContext): void {
  if (value === '') return;
  switch (name) {
    case 'name':
    case 'language':
      news[name] = value;
      return;
    case 'publication_date': {
      const v = cx.dates.read(value, cx.rep, cx.at);
      if (v !== undefined) news.publication_date = v;
      return;
    }
    case 'access': {
      const v = enumValue(value, ['Subscription', 'Registration'] as const, cx.rep, cx.at);
      if (v !== undefined) news.access = v;
      return;
    }
    default:
      news[name as 'title' | 'genres' | 'keywords' | 'stock_tickers'] = value;
  }
}

/** RSS `<link>`, `<guid>`, dates, titles and mRSS titles of a feed item. */
export function setFeedField(
  page: PageDraft,
  group: string,
  name: string,
  value: string,
  cx: FieldContext,
): void {
  if (value === '') return;
  if (group === 'date') {
    page.dates ??= {};
    page.dates[name as 'updated'] ??= value;
    return;
  }
  if (group === 'media') {
    if (name === 'title') page.mediaTitle ??= value;
    else page.mediaDescription ??= value;
    return;
  }
  switch (name) {
    case 'link':
      if (!page.hadLoc) {
        page.hadLoc = true;
        keepLoc(page, value, urlValue(value, cx.rep, cx.at));
      }
      return;
    case 'guid':
      if (attr(cx.attrs, 'isPermaLink') !== 'false') page.guid ??= value;
      return;
    case 'title':
      page.title ??= value;
      return;
    case 'description':
      page.description ??= value;
      return;
  }
}

// ---- finished records -------------------------------------------------------------------------

export function buildEntry(page: PageDraft): SitemapEntry {
  const e: SitemapEntry = { loc: page.loc! };
  if (page.lastmod !== undefined) e.lastmod = page.lastmod;
  if (page.changefreq !== undefined) e.changefreq = page.changefreq;
  if (page.priority !== undefined) e.priority = page.priority;
  if (page.images !== undefined) e.images = page.images;
  if (page.videos !== undefined) e.videos = page.videos;
  if (page.news !== undefined) e.news = page.news;
  if (page.alternates !== undefined) e.alternates = page.alternates;
  if (page.links !== undefined) e.links = page.links;
  if (page.mobile !== undefined) e.mobile = true;
  return e;
}

export function addImage(page: PageDraft, image: Draft<ImageEntry>, rep: DocumentReporter, at: At): void {
  if (image.loc === undefined) {
    rep.report('image-invalid', '<image:image> has no usable <image:loc>; image dropped', at());
    return;
  }
  if (!roomIn(page.images, 'images', rep, at)) return;
  // Most images carry only loc: no need to reorder them.
  const only =
    image.caption === undefined &&
    image.geo_location === undefined &&
    image.title === undefined &&
    image.license === undefined;
  const done = only ? (image as ImageEntry) : (ordered(image, IMAGE_KEYS) as ImageEntry);
  page.images = append(page.images, done);
}

export function addVideo(page: PageDraft, video: Draft<VideoEntry>, rep: DocumentReporter, at: At): void {
  const missing = (['thumbnail_loc', 'title', 'description'] as const).filter((k) => video[k] === undefined);
  if (missing.length > 0) {
    rep.report('video-invalid', `<video:video> lacks ${missing.join(', ')}; video dropped`, at());
    return;
  }
  if (video.content_loc === undefined && video.player_loc === undefined) {
    rep.report('video-invalid', '<video:video> has neither content_loc nor player_loc; kept', at());
  }
  if (roomIn(page.videos, 'videos', rep, at))
    page.videos = append(page.videos, ordered(video, VIDEO_KEYS) as VideoEntry);
}

/** An absolute URI of another scheme (an app link): no blanks, controls or backslashes. */
const OTHER_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\\]+$/;

/**
 * An <xhtml:link>: an hreflang alternate when it has rel="alternate", hreflang and a usable
 * href; any other link with a rel and an href (amphtml, an app link, a separate mobile URL) is
 * kept in `links` with a warning; the rest is dropped.
 */
export function addAlternate(
  page: PageDraft,
  a: readonly XmlAttribute[],
  rep: DocumentReporter,
  at: At,
): void {
  const rel = attr(a, 'rel');
  const hreflang = attr(a, 'hreflang');
  const href = attr(a, 'href');
  const alternate = rel?.toLowerCase() === 'alternate';
  if (alternate && hreflang && href) {
    const url = urlValue(href, rep, at);
    if (url !== undefined && roomIn(page.alternates, 'alternates', rep, at)) {
      page.alternates = append(page.alternates, { hreflang, href: url });
    }
    return;
  }
  if (rel && href) {
    addLink(page, rel, href, attr(a, 'media'), rep, at);
    return;
  }
  const missing = [!rel && 'rel', !href && 'href'].filter(Boolean).join(', ');
  rep.report('alternate-invalid', `<xhtml:link> lacks ${missing}; dropped`, at());
}

function addLink(
  page: PageDraft,
  rel: string,
  href: string,
  media: string | undefined,
  rep: DocumentReporter,
  at: At,
): void {
  let url: string | undefined;
  if (/^https?:/i.test(href)) url = urlValue(href, rep, at);
  else if (OTHER_URI.test(href)) url = href;
  else
    rep.report('url-invalid', `"${clip(href)}" is not an absolute URI; link dropped`, { ...at(), url: href });
  if (url === undefined || !roomIn(page.links, 'links', rep, at)) return;
  const where = at();
  rep.report(
    'alternate-no-hreflang',
    `<xhtml:link rel="${rel}"> without hreflang (${clip(url)}): kept in links`,
    {
      ...where,
      field: where.field?.replace(/^alternates\[\d+\]/, `links[${page.links?.length ?? 0}]`) ?? 'links',
    },
  );
  const link: LinkEntry = { rel, href: url };
  if (media) link.media = media;
  page.links = append(page.links, link);
}

export function addNews(page: PageDraft, n: NewsDraft, rep: DocumentReporter, at: At): void {
  if (page.news !== undefined) {
    rep.report('element-duplicate', 'a second <news:news> in one <url>; the first is kept', at());
    return;
  }
  const missing = [
    n.name === undefined && 'publication name',
    n.language === undefined && 'publication language',
    n.publication_date === undefined && 'publication_date',
    n.title === undefined && 'title',
  ].filter(Boolean);
  if (missing.length > 0) {
    rep.report('news-invalid', `<news:news> lacks ${missing.join(', ')}; news dropped`, at());
    return;
  }
  const news: NewsEntry = {
    publication: { name: n.name!, language: n.language! },
    publication_date: n.publication_date!,
    title: n.title!,
  };
  if (n.access !== undefined) news.access = n.access;
  if (n.genres !== undefined) news.genres = n.genres;
  if (n.keywords !== undefined) news.keywords = n.keywords;
  if (n.stock_tickers !== undefined) news.stock_tickers = n.stock_tickers;
  page.news = news;
}

/**
 * A feed item's page URL (its link, else a permalink guid) and lastmod (updated, modified,
 * pubDate, dc:date, published, issued: the first present), then its mRSS media. False when the
 * item has no usable link.
 */
export function finishFeedItem(page: PageDraft, rep: DocumentReporter, dates: DateReader): boolean {
  const at = (field: string) => (): Where => ({ line: page.at.line, column: page.at.column, field });
  if (page.loc === undefined && !page.hadLoc && page.guid !== undefined && /^https?:\/\//i.test(page.guid)) {
    page.hadLoc = true;
    keepLoc(page, page.guid, urlValue(page.guid, rep, at('loc')));
  }
  if (page.loc === undefined) {
    if (!page.hadLoc) rep.report('feed-item-no-link', 'this item has no link to a page; skipped', page.at);
    return false;
  }
  const d = page.dates;
  const raw =
    d === undefined
      ? undefined
      : (d.updated ?? d.modified ?? d.pubDate ?? d.dcdate ?? d.published ?? d.issued);
  if (raw !== undefined) {
    const v = dates.read(raw, rep, () => ({ ...at('lastmod')(), url: page.loc! }), true);
    if (v !== undefined) page.lastmod = v;
  }
  addMedia(page, rep);
  return true;
}

/** mRSS: image media become images; video media (or a player) become one video each. */
function addMedia(page: PageDraft, rep: DocumentReporter): void {
  if (page.media === undefined && page.player === undefined) return;
  const at =
    (field: string): At =>
    () => ({ line: page.at.line, column: page.at.column, url: page.loc!, field });
  const thumbnail = page.thumbnails?.[0];
  const title = page.mediaTitle ?? page.title;
  const description = page.mediaDescription ?? page.description;
  let player = page.player;
  const basics = (video: Draft<VideoEntry>, where: At): void => {
    if (thumbnail !== undefined) {
      const t = urlValue(thumbnail, rep, where);
      if (t !== undefined) video.thumbnail_loc = t;
    }
    if (title !== undefined) video.title = title;
    if (description !== undefined) video.description = description;
  };
  for (const m of page.media ?? []) {
    if (m.medium === 'image' || m.type.startsWith('image/')) {
      const where = at(`images[${page.images?.length ?? 0}].loc`);
      const url = urlValue(m.url, rep, where);
      if (url !== undefined && roomIn(page.images, 'images', rep, where))
        page.images = append(page.images, { loc: url });
    } else if (m.medium === 'video' || m.type.startsWith('video/')) {
      const where = at(`videos[${page.videos?.length ?? 0}]`);
      const video: Draft<VideoEntry> = {};
      const content = urlValue(m.url, rep, where);
      if (content !== undefined) video.content_loc = content;
      if (player !== undefined) {
        const p = urlValue(player, rep, where);
        if (p !== undefined) video.player_loc = { loc: p };
        player = undefined;
      }
      basics(video, where);
      if (/^\d+$/.test(m.duration)) video.duration = Number(m.duration);
      addVideo(page, video, rep, where);
    }
  }
  if (player !== undefined) {
    const where = at(`videos[${page.videos?.length ?? 0}]`);
    const p = urlValue(player, rep, where);
    if (p === undefined) return;
    const video: Draft<VideoEntry> = { player_loc: { loc: p } };
    basics(video, where);
    addVideo(page, video, rep, where);
  }
}
