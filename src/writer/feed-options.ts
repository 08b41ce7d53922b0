/** The `feed` option of the writer: which delta feed to write beside the sitemaps, and from what. */
import { wholeNumber } from '../core/checks.js';
import { SitemapkitError } from '../core/errors.js';

/** Newest URLs a feed lists by default. */
export const DEFAULT_FEED_SIZE = 100;
/** Most URLs a feed may list: a feed is a delta, not a second sitemap. */
export const MAX_FEED_SIZE = 50_000;

/** One URL of a delta feed: its address, the time it was added or changed, and a title. */
export interface FeedItem {
  loc: string;
  /** A W3C Datetime (`2026-11-24T10:00:00Z`, `2026-11-24`), or a `Date`. */
  time: string | Date;
  /** The page's title; the URL when left out. */
  title?: string;
}

/** Options of the delta feed (`feed.xml`). */
export interface FeedOptions {
  /** `atom` (Atom 1.0, RFC 4287) or `rss` (RSS 2.0). */
  format: 'atom' | 'rss';
  /** Newest URLs it lists, 1 to 50,000. @default 100 */
  size?: number;
  /** The feed's title. @default the host of baseUrl */
  title?: string;
  /**
   * The URLs to list, instead of the build's entries with the newest lastmod (or news publication
   * date): what a site store hands over as added or changed. The newest `size` of them are kept.
   */
  items?: Iterable<FeedItem> | AsyncIterable<FeedItem>;
}

export interface ResolvedFeed {
  format: 'atom' | 'rss';
  size: number;
  title: string | undefined;
  items: Iterable<FeedItem> | AsyncIterable<FeedItem> | undefined;
}

function bad(message: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message);
}

/** Checks the `feed` option once. */
export function resolveFeed(value: FeedOptions | undefined): ResolvedFeed | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null)
    throw bad("feed must be { format: 'atom' | 'rss', size? }");
  const format = value.format;
  if (format !== 'atom' && format !== 'rss')
    throw bad(`feed.format must be atom or rss, not ${String(format)}`);
  const size = wholeNumber('feed.size', value.size, DEFAULT_FEED_SIZE, { min: 1, max: MAX_FEED_SIZE });
  if (value.title !== undefined && (typeof value.title !== 'string' || value.title.trim() === ''))
    throw bad('feed.title must be a non-empty string');
  const items = value.items;
  if (
    items !== undefined &&
    (typeof items !== 'object' ||
      items === null ||
      !(Symbol.iterator in items || Symbol.asyncIterator in items))
  )
    throw bad('feed.items must be an iterable of { loc, time, title? }');
  return { format, size, title: value.title, items };
}
