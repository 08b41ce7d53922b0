/**
 * The Vite plug-in's options, checked and completed once when the plug-in is created, so that a
 * wrong option stops `vite build` before anything is bundled, in a sentence naming the option.
 */

import type { SitemapEntryInput } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { type ImageFilterOptions, resolveImageFilter } from '../page/image-filter.js';
import type { LastmodPolicy } from '../writer/lastmod-policy.js';
import { type FileNames, type OnInvalid, resolveWriterOptions } from '../writer/options.js';

/**
 * A route of the app: a path under the site (`/`, `/about`, `blog/hello`), a full URL, or an entry
 * whose `loc` is either (the entry model of `writeSitemaps`: lastmod, images, alternates, …; the
 * URLs of its images and alternates may be paths too).
 */
export type Route = string | SitemapEntryInput;

/** Routes as given: an array, a sync or an async iterable. */
export type RouteList = Iterable<Route> | AsyncIterable<Route>;

/** Options of the `sitemapkit()` Vite plug-in. The caller's object is never modified. */
export interface SitemapkitViteOptions {
  /**
   * The public URL of the site, e.g. `https://example.com/`. When it has no path and Vite's `base`
   * is a path (`/app/`), the site is at `https://example.com/app/`.
   */
  baseUrl: string;
  /**
   * Read the built HTML pages of the output folder (`build.outDir`), as `generate --from-dir` does:
   * titles, images, hreflang alternates; pages with a robots `noindex` or a canonical elsewhere are
   * left out. @default true
   */
  pages?: boolean;
  /**
   * Globs (relative to the output folder) of built files or folders to leave out, e.g. `drafts/**`.
   * Error pages (`404.html` and `500.html`, in any folder) are always left out. @default []
   */
  exclude?: readonly string[];
  /**
   * Routes that exist only in the client router (single-page apps), or a function returning them
   * (sync or async). A route that is also a built page is listed once: the route's fields win,
   * the page's fill in the rest. @default none
   */
  routes?: RouteList | (() => RouteList | Promise<RouteList>);
  /** Keep a URL (page or route) only when this returns true. @default every URL */
  filter?: (url: string) => boolean;
  /** List each page's images (`false` for none), and which: see `ImageFilterOptions`. @default true */
  images?: boolean | ImageFilterOptions;
  /**
   * The files' names without extension, to keep those of the plug-in this one replaces, such as
   * `{ index: 'sitemap-index', child: (n) => 'sitemap-' + n }`. @default `sitemap`, `sitemap-00001`, …
   */
  names?: FileNames;
  /** Write an index over the children even when one file holds every URL. @default false */
  alwaysIndex?: boolean;
  /** Compress the sitemaps (`.xml.gz`). @default false */
  gzip?: boolean;
  /** `xml`, or `txt` (one URL a line). @default 'xml' */
  format?: 'xml' | 'txt';
  /** URLs per file, 1 to 50,000. @default 50000 */
  maxUrlsPerFile?: number;
  /** Write the bundled stylesheet as `sitemap.xsl` and reference it (`true`), or reference this URL. @default false */
  xsl?: boolean | string;
  /** Also write the HTML site map for people (`sitemap.html` and its pages). @default false */
  html?: boolean | { siteName?: string; linksPerPage?: number };
  /** Add the `Sitemap:` line to `robots.txt` in the output folder (created when missing). @default false */
  robots?: boolean;
  /** A route or page that cannot be written: `fail` the build, `skip` it, or `drop-field`. @default 'fail' */
  onInvalid?: OnInvalid;
  /** Untrustworthy lastmods (all one value, all near the build time): `warn`, `drop` or `keep`. @default 'warn' */
  lastmodPolicy?: LastmodPolicy;
}

export interface ResolvedViteOptions {
  baseUrl: URL;
  pages: boolean;
  exclude: readonly string[];
  routes: (() => RouteList | Promise<RouteList>) | undefined;
  filter: ((url: string) => boolean) | undefined;
  images: false | ImageFilterOptions;
  names: FileNames | undefined;
  alwaysIndex: boolean;
  gzip: boolean;
  format: 'xml' | 'txt';
  maxUrlsPerFile: number | undefined;
  xsl: boolean | string;
  html: boolean | { siteName?: string; linksPerPage?: number };
  robots: boolean;
  onInvalid: OnInvalid;
  lastmodPolicy: LastmodPolicy | undefined;
}

/** `sitemapkit({ routes }): …`: every message names the option it is about. */
export function optionError(option: string, message: string, hint?: string): SitemapkitError {
  return new SitemapkitError(
    'ERR_OPTIONS',
    `sitemapkit({ ${option} }): ${message}`,
    hint === undefined ? {} : { hint },
  );
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

function oneOf<T extends string>(option: string, value: unknown, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw optionError(option, `must be ${allowed.join(', ')}, not ${show(value)}`);
}

function flag(option: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw optionError(option, `must be true or false, not ${show(value)}`);
  return value;
}

function isIterable(v: unknown): v is RouteList {
  return (
    typeof v === 'object' &&
    v !== null &&
    (Symbol.iterator in v || Symbol.asyncIterator in v) &&
    typeof v !== 'string'
  );
}

function resolveRoutes(r: unknown): ResolvedViteOptions['routes'] {
  if (r === undefined) return undefined;
  if (typeof r === 'function') return r as () => RouteList | Promise<RouteList>;
  if (isIterable(r)) return () => r;
  throw optionError(
    'routes',
    `must be an array of paths or entries, an iterable, or a function returning one, not ${typeof r === 'string' ? show(r) : typeof r}`,
    "for example routes: ['/', '/about'], or an async function returning the paths of the posts",
  );
}

/** Checks and completes the options once; a wrong one throws `ERR_OPTIONS` naming it. */
export function resolveViteOptions(o: SitemapkitViteOptions): ResolvedViteOptions {
  if (typeof o !== 'object' || o === null)
    throw optionError(
      'baseUrl',
      'the plug-in needs its options',
      "sitemapkit({ baseUrl: 'https://example.com/' })",
    );
  let baseUrl: URL;
  try {
    baseUrl = new URL(o.baseUrl);
    if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw optionError(
      'baseUrl',
      o.baseUrl === undefined
        ? 'the public URL of the site is required'
        : `${show(o.baseUrl)} must be an absolute http(s) URL such as https://example.com/`,
      "sitemapkit({ baseUrl: 'https://example.com/' })",
    );
  }
  if (o.exclude !== undefined && (!Array.isArray(o.exclude) || o.exclude.some((g) => typeof g !== 'string')))
    throw optionError('exclude', 'must be an array of globs such as "drafts/**"');
  if (o.filter !== undefined && typeof o.filter !== 'function')
    throw optionError('filter', 'must be a function (url) => boolean');
  let images: ResolvedViteOptions['images'] = {};
  if (o.images === false) images = false;
  else if (typeof o.images === 'object' && o.images !== null) {
    try {
      resolveImageFilter(o.images);
    } catch (e) {
      throw optionError('images', (e as Error).message.replace(/^images\./, ''));
    }
    images = o.images;
  } else if (o.images !== undefined && o.images !== true)
    throw optionError('images', `must be true, false or { maxShare, exclude }, not ${show(o.images)}`);
  if (
    o.maxUrlsPerFile !== undefined &&
    (typeof o.maxUrlsPerFile !== 'number' ||
      !Number.isInteger(o.maxUrlsPerFile) ||
      o.maxUrlsPerFile < 1 ||
      o.maxUrlsPerFile > 50_000)
  )
    throw optionError(
      'maxUrlsPerFile',
      `must be a whole number from 1 to 50,000, not ${show(o.maxUrlsPerFile)}`,
    );
  if (o.xsl !== undefined && typeof o.xsl !== 'boolean' && (typeof o.xsl !== 'string' || o.xsl === ''))
    throw optionError('xsl', 'must be true, false or the URL of a stylesheet');
  if (o.html !== undefined && typeof o.html !== 'boolean' && (typeof o.html !== 'object' || o.html === null))
    throw optionError('html', 'must be true, false or { siteName, linksPerPage }');
  // The writer's own checks of the names, now rather than after the bundle.
  for (const option of ['names', 'alwaysIndex'] as const) {
    if (o[option] === undefined) continue;
    try {
      resolveWriterOptions({ outDir: '.', baseUrl: baseUrl.href, [option]: o[option] });
    } catch (e) {
      throw optionError(option, (e as Error).message.replace(new RegExp(`^${option} `), ''));
    }
  }
  return {
    baseUrl,
    pages: flag('pages', o.pages, true),
    exclude: [...(o.exclude ?? [])],
    routes: resolveRoutes(o.routes),
    filter: o.filter,
    images,
    names: o.names,
    alwaysIndex: flag('alwaysIndex', o.alwaysIndex, false),
    gzip: flag('gzip', o.gzip, false),
    format: oneOf('format', o.format, ['xml', 'txt'] as const) ?? 'xml',
    maxUrlsPerFile: o.maxUrlsPerFile,
    xsl: o.xsl ?? false,
    html: o.html ?? false,
    robots: flag('robots', o.robots, false),
    onInvalid: oneOf('onInvalid', o.onInvalid, ['fail', 'skip', 'drop-field'] as const) ?? 'fail',
    lastmodPolicy: oneOf('lastmodPolicy', o.lastmodPolicy, ['warn', 'drop', 'keep'] as const),
  };
}

/**
 * The public URL of the output folder: `baseUrl`, or, when it has no path and Vite's `base` is an
 * absolute path (`/app/`), that path under it. A relative base (`./`) or a CDN URL says nothing
 * about where the pages are, so it leaves `baseUrl` as it is.
 */
export function siteUrl(baseUrl: URL, viteBase: string): string {
  const url = new URL(baseUrl.href);
  if (url.pathname === '/' && viteBase.startsWith('/') && !viteBase.startsWith('//')) url.pathname = viteBase;
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return url.href;
}
