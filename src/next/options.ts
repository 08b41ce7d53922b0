/**
 * The options of `generateNextSitemaps` (and `sitemapkit next`): next-sitemap 4's names and
 * meanings, so that its `next-sitemap.config.js` works as it is, plus sitemapkit's own. Resolved
 * once, each failure a sentence naming the option.
 */
import { closestWords, httpUrl, wholeNumber } from '../core/checks.js';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { MAX_URLS } from '../core/limits.js';

/** An entry as next-sitemap's `transform` and `additionalPaths` return it. */
export interface NextSitemapField {
  /** The path (`/about`) or absolute URL. */
  loc: string;
  lastmod?: string | undefined;
  changefreq?: string | undefined;
  priority?: number | undefined;
  /** Other language versions: `href` is a base the path is appended to, unless `hrefIsAbsolute`. */
  alternateRefs?: readonly NextAlternateRef[] | undefined;
  /** Whether the URL ends in a slash. @default the option `trailingSlash` */
  trailingSlash?: boolean | undefined;
  /** Other entry fields (`images`, `news`, …) are passed to the writer in sitemapkit's form. */
  [field: string]: unknown;
}

/** next-sitemap's `alternateRefs` item. */
export interface NextAlternateRef {
  href: string;
  hreflang: string;
  /** `href` is the whole alternate URL, not a base for the path. @default false */
  hrefIsAbsolute?: boolean;
}

/** A `robots.txt` group. */
export interface NextRobotsPolicy {
  userAgent: string;
  allow?: string | readonly string[];
  disallow?: string | readonly string[];
  crawlDelay?: number;
}

export interface NextRobotsTxtOptions {
  /** @default [{ userAgent: '*', allow: '/' }] */
  policies?: readonly NextRobotsPolicy[];
  /** More `Sitemap:` lines (a server-rendered sitemap, another generator's). @default [] */
  additionalSitemaps?: readonly string[];
  /** List the children too, not only the index. @default false */
  includeNonIndexSitemaps?: boolean;
  /** Rewrites the text before it is written. */
  transformRobotsTxt?: (config: NextSitemapOptions, text: string) => string | Promise<string>;
}

/** The options: next-sitemap's (`next-sitemap.config.js`), then sitemapkit's own. */
export interface NextSitemapOptions {
  /** The site's public URL (with the basePath, if any): `https://example.com`. Required. */
  siteUrl: string;
  /** The Next.js project folder. @default process.cwd() */
  dir?: string;
  /** next-sitemap's `sourceDir`: the build folder, relative to `dir`. @default '.next' */
  sourceDir?: string;
  /** Where the files go, relative to `dir`. @default the export folder, else `public` */
  outDir?: string;
  /** Paths to leave out: `['/secret', '/admin/*']` (`*` any characters, `!` keeps), or a function giving them. */
  exclude?: readonly string[] | (() => readonly string[] | Promise<readonly string[]>);
  /** Other language versions of every page (next-sitemap's multi-domain hreflang). */
  alternateRefs?: readonly NextAlternateRef[];
  /** Write robots.txt beside the sitemaps. @default false */
  generateRobotsTxt?: boolean;
  robotsTxtOptions?: NextRobotsTxtOptions;
  /**
   * Changes a page's entry, or leaves it out (return null or undefined). Called with the options and
   * the page's path; as next-sitemap's, it may be async.
   */
  transform?: (
    config: NextSitemapOptions,
    path: string,
  ) => NextSitemapField | null | undefined | Promise<NextSitemapField | null | undefined>;
  /** Entries to add (pages the build does not show); an entry of a page replaces its fields. */
  additionalPaths?: (
    config: NextSitemapOptions,
  ) => readonly NextSitemapField[] | Promise<readonly NextSitemapField[]>;
  /** Every entry's changefreq. @default none (next-sitemap: 'daily'; Google ignores it) */
  changefreq?: string;
  /** Every entry's priority. @default none (next-sitemap: 0.7; Google ignores it) */
  priority?: number;
  /** URLs a file. @default 50,000, the protocol's limit (next-sitemap: 5,000) */
  sitemapSize?: number;
  /**
   * lastmod from the time `next build` wrote the page's HTML (none for pages rendered on request).
   * Off by default, unlike next-sitemap's (the run's time): a build dates every page alike, and
   * search engines stop trusting a lastmod that does not follow real changes (the writer warns).
   * Give real dates with `transform` or `additionalPaths`. @default false
   */
  autoLastmod?: boolean;
  /** URLs end in a slash. @default the build's trailingSlash */
  trailingSlash?: boolean;
  /** The index's name without `.xml`; the children are `NAME-0.xml`, `NAME-1.xml`, … @default 'sitemap' */
  sitemapBaseFileName?: string;
  /** Write an index over the children; without it, one file is `NAME.xml`. @default true */
  generateIndexSitemap?: boolean;
  /** sitemapkit: list the pages' images (read from the HTML). @default true */
  images?: boolean;
  /** sitemapkit: also write gzip files. @default false */
  gzip?: boolean;
  onDiagnostic?: DiagnosticHandler;
  signal?: AbortSignal;
}

/** The options, checked and with their defaults. */
export interface ResolvedNextOptions {
  siteUrl: string;
  dir: string;
  sourceDir: string;
  outDir: string | undefined;
  exclude: NextSitemapOptions['exclude'];
  alternateRefs: readonly NextAlternateRef[];
  generateRobotsTxt: boolean;
  policies: readonly NextRobotsPolicy[];
  additionalSitemaps: readonly string[];
  includeNonIndexSitemaps: boolean;
  transformRobotsTxt: NextRobotsTxtOptions['transformRobotsTxt'];
  transform: NextSitemapOptions['transform'];
  additionalPaths: NextSitemapOptions['additionalPaths'];
  changefreq: string | undefined;
  priority: number | undefined;
  sitemapSize: number;
  autoLastmod: boolean;
  trailingSlash: boolean | undefined;
  sitemapBaseFileName: string;
  generateIndexSitemap: boolean;
  images: boolean;
  gzip: boolean;
}

function bad(option: string, message: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', `${option} ${message}`);
}

function optionalBoolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw bad(name, `must be true or false, not ${JSON.stringify(value)}`);
  return value;
}

function optionalFunction<T>(name: string, value: T): T {
  if (value !== undefined && typeof value !== 'function') throw bad(name, 'must be a function');
  return value;
}

function stringList(name: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw bad(name, 'must be a list of strings');
  return value as string[];
}

function policies(value: unknown): readonly NextRobotsPolicy[] {
  if (value === undefined) return [{ userAgent: '*', allow: '/' }];
  if (!Array.isArray(value))
    throw bad('robotsTxtOptions.policies', 'must be a list of { userAgent, allow, disallow }');
  value.forEach((p: unknown, i) => {
    const name = `robotsTxtOptions.policies[${i}]`;
    const o = p as Record<string, unknown> | null;
    if (typeof o !== 'object' || o === null || typeof o['userAgent'] !== 'string' || o['userAgent'] === '')
      throw bad(name, 'needs a userAgent, such as "*"');
    for (const key of ['allow', 'disallow'] as const) {
      const v = o[key];
      if (
        v !== undefined &&
        typeof v !== 'string' &&
        !(Array.isArray(v) && v.every((s) => typeof s === 'string'))
      )
        throw bad(`${name}.${key}`, 'must be a path or a list of paths');
    }
    if (o['crawlDelay'] !== undefined && (typeof o['crawlDelay'] !== 'number' || !(o['crawlDelay'] >= 0)))
      throw bad(`${name}.crawlDelay`, 'must be a number of seconds');
  });
  return value as NextRobotsPolicy[];
}

function alternateRefs(value: unknown): readonly NextAlternateRef[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw bad('alternateRefs', 'must be a list of { href, hreflang }');
  value.forEach((a: unknown, i) => {
    const o = a as Record<string, unknown> | null;
    if (typeof o !== 'object' || o === null || typeof o['hreflang'] !== 'string')
      throw bad(`alternateRefs[${i}]`, 'needs an hreflang, such as "es"');
    httpUrl(`alternateRefs[${i}].href`, o['href']);
  });
  return value as NextAlternateRef[];
}

// Every option's name, next-sitemap's and sitemapkit's: a misspelt one is refused, not ignored.
const KNOWN: readonly string[] = [
  'siteUrl',
  'dir',
  'sourceDir',
  'outDir',
  'exclude',
  'alternateRefs',
  'generateRobotsTxt',
  'robotsTxtOptions',
  'transform',
  'additionalPaths',
  'changefreq',
  'priority',
  'sitemapSize',
  'autoLastmod',
  'trailingSlash',
  'sitemapBaseFileName',
  'generateIndexSitemap',
  'images',
  'gzip',
  'onDiagnostic',
  'signal',
  // next-sitemap's: sitemapkit reads whether the build is an export from the build itself.
  'output',
];
const KNOWN_ROBOTS: readonly string[] = [
  'policies',
  'additionalSitemaps',
  'includeNonIndexSitemaps',
  'transformRobotsTxt',
];

function knownKeys(prefix: string, value: object, known: readonly string[], where?: string): void {
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const near = closestWords(key, known);
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `${prefix}${key} is not an option of sitemapkit next or next-sitemap${near.length > 0 ? `: did you mean ${near.join(', ')}?` : ''}`,
      { hint: 'every option is in docs/next.md', ...(where === undefined ? {} : { where }) },
    );
  }
}

/**
 * Throws `ERR_OPTIONS` naming `where` (a config file) for an option name that neither sitemapkit
 * nor next-sitemap has, at the top or in `robotsTxtOptions`.
 */
export function checkNextOptionNames(o: object, where?: string): void {
  knownKeys('', o, KNOWN, where);
  const robots = (o as { robotsTxtOptions?: unknown }).robotsTxtOptions;
  if (typeof robots === 'object' && robots !== null)
    knownKeys('robotsTxtOptions.', robots, KNOWN_ROBOTS, where);
}

/** Checks the options once; every failure is an `ERR_OPTIONS` sentence naming the option. */
export function resolveNextOptions(o: NextSitemapOptions): ResolvedNextOptions {
  if (typeof o !== 'object' || o === null) throw bad('the options', 'must be an object');
  checkNextOptionNames(o);
  const output = (o as { output?: unknown }).output;
  if (output !== undefined && output !== 'export' && output !== 'standalone')
    throw bad('output', `must be "export" or "standalone", not ${JSON.stringify(output)}`);
  if (o.siteUrl === undefined || o.siteUrl === '')
    throw new SitemapkitError('ERR_OPTIONS', 'siteUrl is missing: give the public URL of the site', {
      hint: "set siteUrl: 'https://example.com' in the config, or pass --site-url",
    });
  const site = httpUrl('siteUrl', o.siteUrl);
  if (o.exclude !== undefined && typeof o.exclude !== 'function') stringList('exclude', o.exclude);
  const robots = o.robotsTxtOptions ?? {};
  if (typeof robots !== 'object' || robots === null)
    throw bad('robotsTxtOptions', 'must be an object: { policies, additionalSitemaps }');
  const additional = stringList('robotsTxtOptions.additionalSitemaps', robots.additionalSitemaps);
  for (const [i, u] of additional.entries()) httpUrl(`robotsTxtOptions.additionalSitemaps[${i}]`, u);
  if (o.changefreq !== undefined && typeof o.changefreq !== 'string')
    throw bad('changefreq', 'must be one of always, hourly, daily, weekly, monthly, yearly, never');
  if (o.priority !== undefined && (typeof o.priority !== 'number' || !(o.priority >= 0 && o.priority <= 1)))
    throw bad(
      'priority',
      `must be a number from 0 to 1, not ${typeof o.priority === 'string' ? JSON.stringify(o.priority) : String(o.priority)}`,
    );
  const base = o.sitemapBaseFileName ?? 'sitemap';
  if (typeof base !== 'string' || base === '' || /[/\\]/.test(base) || base.startsWith('.'))
    throw bad(
      'sitemapBaseFileName',
      `must be a file name without a folder or extension, such as "sitemap", not ${JSON.stringify(base)}`,
    );
  for (const name of ['dir', 'sourceDir', 'outDir'] as const) {
    const v = o[name];
    if (v !== undefined && (typeof v !== 'string' || v === '')) throw bad(name, 'must be a folder path');
  }
  return {
    siteUrl: site.href,
    dir: o.dir ?? process.cwd(),
    sourceDir: o.sourceDir ?? '.next',
    outDir: o.outDir,
    exclude: o.exclude,
    alternateRefs: alternateRefs(o.alternateRefs),
    generateRobotsTxt: optionalBoolean('generateRobotsTxt', o.generateRobotsTxt, false),
    policies: policies(robots.policies),
    additionalSitemaps: additional,
    includeNonIndexSitemaps: optionalBoolean(
      'robotsTxtOptions.includeNonIndexSitemaps',
      robots.includeNonIndexSitemaps,
      false,
    ),
    transformRobotsTxt: optionalFunction('robotsTxtOptions.transformRobotsTxt', robots.transformRobotsTxt),
    transform: optionalFunction('transform', o.transform),
    additionalPaths: optionalFunction('additionalPaths', o.additionalPaths),
    changefreq: o.changefreq,
    priority: o.priority,
    sitemapSize: wholeNumber('sitemapSize', o.sitemapSize, MAX_URLS, { min: 1, max: MAX_URLS }),
    autoLastmod: optionalBoolean('autoLastmod', o.autoLastmod, false),
    trailingSlash:
      o.trailingSlash === undefined ? undefined : optionalBoolean('trailingSlash', o.trailingSlash, false),
    sitemapBaseFileName: base,
    generateIndexSitemap: optionalBoolean('generateIndexSitemap', o.generateIndexSitemap, true),
    images: optionalBoolean('images', o.images, true),
    gzip: optionalBoolean('gzip', o.gzip, false),
  };
}
