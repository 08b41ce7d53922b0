/**
 * The protocol's numbers, in one place (sitemaps.org protocol 0.9, Google's extension docs).
 * Every other module imports them from here.
 */
export const SITEMAP_NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';
export const IMAGE_NS = 'http://www.google.com/schemas/sitemap-image/1.1';
export const VIDEO_NS = 'http://www.google.com/schemas/sitemap-video/1.1';
export const NEWS_NS = 'http://www.google.com/schemas/sitemap-news/0.9';
export const XHTML_NS = 'http://www.w3.org/1999/xhtml';
export const MOBILE_NS = 'http://www.google.com/schemas/sitemap-mobile/1.0';

/** URLs per sitemap file, and sitemaps per index file. */
export const MAX_URLS = 50_000;
/** Uncompressed bytes per sitemap or index file (50 MiB). */
export const MAX_BYTES = 52_428_800;
/** The XSD's `tLoc` minimum length. */
export const MIN_LOC_LENGTH = 12;
/** The protocol: "must be less than 2,048 characters". */
export const MAX_LOC_LENGTH = 2047;
export const MAX_IMAGES_PER_URL = 1000;
export const MAX_NEWS_PER_FILE = 1000;
export const NEWS_MAX_AGE_DAYS = 2;
export const VIDEO_TITLE_MAX = 100;
export const VIDEO_DESCRIPTION_MAX = 2048;
export const VIDEO_DURATION_MIN = 1;
export const VIDEO_DURATION_MAX = 28_800;
export const VIDEO_TAG_MAX = 32;
export const VIDEO_UPLOADER_MAX = 255;
export const CHANGEFREQS = ['always', 'hourly', 'daily', 'weekly', 'monthly', 'yearly', 'never'] as const;
