/**
 * The entry model: one shape for writer input, parser output and JSONL lines. Field names follow
 * the protocol's element names. An element that carries attributes becomes an object holding its
 * text and its attributes. The JSON Schema in `schema/entry.schema.json` describes the same shape;
 * `normalizeEntry` (normalize.ts) is the single definition of what the writer rewrites.
 */
import type { CHANGEFREQS } from './limits.js';

export type Changefreq = (typeof CHANGEFREQS)[number];
export type YesNo = 'yes' | 'no';

/** `<image:image>`. Only `loc` is current; the other fields are the tags Google dropped in 2022. */
export interface ImageEntry {
  loc: string;
  /** @deprecated Dropped by Google in 2022; written only with the `legacy` option. */
  caption?: string;
  /** @deprecated Dropped by Google in 2022; written only with the `legacy` option. */
  geo_location?: string;
  /** @deprecated Dropped by Google in 2022; written only with the `legacy` option. */
  title?: string;
  /** @deprecated Dropped by Google in 2022; written only with the `legacy` option. */
  license?: string;
}

/** `<video:player_loc allow_embed autoplay>`. The attributes are legacy (dropped in 2022). */
export interface VideoPlayerLoc {
  loc: string;
  allow_embed?: YesNo;
  autoplay?: string;
}

export interface VideoRestriction {
  relationship: 'allow' | 'deny';
  /** Space-separated ISO 3166 country codes, e.g. `IE GB US`. */
  countries: string;
}

export interface VideoPlatform {
  relationship: 'allow' | 'deny';
  /** Space-separated: `web`, `mobile`, `tv`. */
  platforms: string;
}

export interface VideoUploader {
  name: string;
  /** URL of the uploader's page, on the same host as the page. */
  info?: string;
}

export interface VideoPrice {
  value: string;
  currency: string;
  type?: 'rent' | 'purchase';
  resolution?: 'hd' | 'sd';
}

export interface VideoGalleryLoc {
  loc: string;
  title?: string;
}

export interface VideoId {
  value: string;
  type: string;
}

export interface VideoTvshow {
  show_title: string;
  video_type?: string;
  episode_title?: string;
  season_number?: number;
  episode_number?: number;
  premier_date?: string;
}

/** `<video:video>`. Required: thumbnail_loc, title, description, and content_loc or player_loc. */
export interface VideoEntry {
  thumbnail_loc: string;
  title: string;
  description: string;
  content_loc?: string;
  player_loc?: VideoPlayerLoc;
  /** Seconds, 1 to 28,800. */
  duration?: number;
  expiration_date?: string;
  /** 0.0 to 5.0. */
  rating?: number;
  view_count?: number;
  publication_date?: string;
  family_friendly?: YesNo;
  restriction?: VideoRestriction;
  platform?: VideoPlatform;
  requires_subscription?: YesNo;
  uploader?: VideoUploader;
  live?: YesNo;
  /** At most 32. */
  tag?: string[];
  /** @deprecated legacy */
  category?: string;
  /** @deprecated legacy */
  gallery_loc?: VideoGalleryLoc;
  /** @deprecated legacy */
  price?: VideoPrice[];
  /** @deprecated legacy */
  tvshow?: VideoTvshow;
  /** @deprecated legacy */
  content_segment_loc?: string[];
  /** @deprecated legacy */
  id?: VideoId[];
}

/** `<news:news>`. `access`, `genres`, `keywords`, `stock_tickers` are legacy. */
export interface NewsEntry {
  publication: { name: string; language: string };
  publication_date: string;
  title: string;
  /** @deprecated legacy */
  access?: 'Subscription' | 'Registration';
  /** @deprecated legacy; comma-separated. */
  genres?: string;
  /** @deprecated legacy; comma-separated. */
  keywords?: string;
  /** @deprecated legacy; comma-separated, at most 5. */
  stock_tickers?: string;
}

/** `<xhtml:link rel="alternate" hreflang href>`. */
export interface AlternateEntry {
  hreflang: string;
  href: string;
}

/**
 * An `<xhtml:link>` that is not an hreflang alternate: `rel="amphtml"`, an Android app link
 * (`rel="alternate" href="android-app://…"`) or a separate mobile URL (`rel="alternate" media=…`).
 * The parser keeps them so that they do not vanish; `href` is a URI of any scheme.
 */
export interface LinkEntry {
  rel: string;
  href: string;
  media?: string;
}

/** One page of a sitemap. */
export interface SitemapEntry {
  loc: string;
  /** W3C Datetime as written (normalised by the writer). */
  lastmod?: string;
  changefreq?: Changefreq;
  /** 0.0 to 1.0. */
  priority?: number;
  images?: ImageEntry[];
  videos?: VideoEntry[];
  news?: NewsEntry;
  alternates?: AlternateEntry[];
  /** Other `<xhtml:link>`s, as read by the parser (see {@link LinkEntry}). */
  links?: LinkEntry[];
  /** `<mobile:mobile/>`: feature-phone pages only. */
  mobile?: true;
  /** Entries with a section go to their own files (`sitemap-SECTION-00001.xml`). */
  section?: string;
  /** Link text for the HTML site map; never written into XML. */
  title?: string;
}

/** A child of a sitemap index, as the parser reports it when it does not follow the index. */
export interface SitemapReference {
  kind: 'sitemap';
  loc: string;
  lastmod?: string;
}

/**
 * What callers may pass to the writer (`writeSitemaps`' source yields these): the entry model,
 * with the shorthand the README documents where it is unambiguous: an image as its URL,
 * `player_loc` and `uploader` as strings, a `Date` or epoch seconds or milliseconds for any date,
 * numeric strings for numbers, any letter case for enumerations. Every {@link SitemapEntry} (what
 * the parser reports) is one. `normalizeEntry` turns it into a {@link SitemapEntry}.
 */
export interface SitemapEntryInput {
  loc: string;
  lastmod?: string | number | Date;
  /** `daily`, `Daily`, `DAILY`, … */
  changefreq?: string;
  /** 0.0 to 1.0, or its text (`"0.8"`). */
  priority?: number | string;
  images?: Array<string | ImageEntry>;
  videos?: VideoInput[];
  news?: NewsInput;
  alternates?: AlternateEntry[];
  mobile?: boolean;
  section?: string;
  title?: string;
}

/** The same type under its first name. */
export type EntryInput = SitemapEntryInput;

/** An enumeration's value in lower, upper or capitalised case (what the writer accepts). */
type AnyCase<T extends string> = T | Uppercase<T> | Capitalize<T>;

/** yes/no fields also take booleans and any letter case. */
type YesNoInput = AnyCase<YesNo> | boolean;

export type VideoInput = Omit<
  VideoEntry,
  | 'restriction'
  | 'platform'
  | 'tvshow'
  | 'player_loc'
  | 'uploader'
  | 'publication_date'
  | 'expiration_date'
  | 'duration'
  | 'rating'
  | 'view_count'
  | 'tag'
  | 'family_friendly'
  | 'requires_subscription'
  | 'live'
> & {
  restriction?: { relationship: AnyCase<VideoRestriction['relationship']>; countries: string };
  platform?: { relationship: AnyCase<VideoPlatform['relationship']>; platforms: string };
  /** @deprecated legacy */
  tvshow?: Omit<VideoTvshow, 'season_number' | 'episode_number' | 'premier_date'> & {
    season_number?: number | string;
    episode_number?: number | string;
    premier_date?: string | number | Date;
  };
  family_friendly?: YesNoInput;
  requires_subscription?: YesNoInput;
  live?: YesNoInput;
  player_loc?: string | VideoPlayerLoc;
  uploader?: string | VideoUploader;
  publication_date?: string | number | Date;
  expiration_date?: string | number | Date;
  duration?: number | string;
  rating?: number | string;
  view_count?: number | string;
  tag?: string | string[];
};

export type NewsInput = Omit<NewsEntry, 'publication_date'> & { publication_date: string | number | Date };
