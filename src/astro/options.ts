/**
 * The options of `sitemap()` from `sitemapkit/astro`: every option of `@astrojs/sitemap` 3.x under
 * its own name (so that a migration changes the import line only), then sitemapkit's extras.
 * Resolved once, in {@link resolveAstroOptions}; each failure is one `ERR_OPTIONS` sentence that
 * names the option as the user wrote it, `sitemap({ entryLimit })`.
 */
import { closestWords, wholeNumber } from '../core/checks.js';
import { SitemapkitError } from '../core/errors.js';
import { formatUtc } from '../core/lastmod.js';
import { CHANGEFREQS, MAX_URLS } from '../core/limits.js';
import type { ImageFilterOptions } from '../page/image-filter.js';
import type { OnInvalid } from '../writer/options.js';

export type ChangeFreq = (typeof CHANGEFREQS)[number];

/** An hreflang alternate as `@astrojs/sitemap` (and the `sitemap` package) spells it. */
export interface LinkItem {
  url: string;
  /** The hreflang value, e.g. `en-US` or `x-default`. */
  lang: string;
  /** Wins over `lang` when given, as in the `sitemap` package. */
  hreflang?: string;
}

/**
 * One URL as `serialize` and `chunks` see it: `@astrojs/sitemap`'s `SitemapItem` (`url`, `lastmod`,
 * `changefreq`, `priority`, `links`) plus what sitemapkit read from the built page.
 */
export interface SitemapItem {
  url: string;
  /** W3C Datetime (an ISO string); a `Date` is accepted on the way back. */
  lastmod?: string | Date;
  changefreq?: ChangeFreq;
  priority?: number;
  /** hreflang alternates, the page itself included. */
  links?: LinkItem[];
  /** The page's images (absolute URLs), as read from its `img src`/`srcset`. */
  images?: string[];
  /** The page's `<title>` (used by the HTML site map; never written into XML). */
  title?: string;
}

/** `serialize` and a chunk's function: the item (changed or not) to keep it, `undefined` to drop it. */
export type ItemHook = (
  item: SitemapItem,
) => SitemapItem | undefined | null | false | Promise<SitemapItem | undefined | null | false>;

/** Options of `sitemap()` (sitemapkit/astro). Every field is optional. */
export interface AstroSitemapOptions {
  /** Keep a page (its full URL) in the sitemap: return `false` to leave it out. @default every page */
  filter?: (page: string) => boolean;
  /** Extra URLs to list (full URLs under the site), e.g. pages rendered on demand. @default [] */
  customPages?: readonly string[];
  /** Other sitemaps (full URLs) to list in the sitemap index beside the generated ones. @default [] */
  customSitemaps?: readonly string[];
  /**
   * Locales to hreflang alternates, as `@astrojs/sitemap` does: URLs that differ only by their
   * locale prefix (`/fr/about/` and `/about/` for the default locale) list each other.
   * `locales` maps the path prefix to the hreflang value. Without it, the hreflang links of the
   * built pages are used. @default none
   */
  i18n?: { defaultLocale: string; locales: Readonly<Record<string, string>> };
  /** URLs per sitemap file, 1 to 50,000. @default 50000 (the protocol's limit; `@astrojs/sitemap` used 45,000) */
  entryLimit?: number;
  /** `changefreq` of every URL (`serialize` may change it). @default none */
  changefreq?: ChangeFreq;
  /** `lastmod` of every URL (`serialize` may change it). @default none */
  lastmod?: Date;
  /** `priority` of every URL, 0 to 1. @default none */
  priority?: number;
  /** Change an item, or drop it by returning `undefined`; may be async. Runs after `filter`. */
  serialize?: ItemHook;
  /**
   * Named groups with their own files: each URL goes to the first chunk whose function returns an
   * item for it (`sitemap-blog-0.xml`, …), the others to `pages`. @default none
   */
  chunks?: Readonly<Record<string, ItemHook>>;
  /** URL (absolute, or relative to the site) of an XSL stylesheet the sitemaps reference. @default none */
  xslURL?: string;
  /**
   * `image: false` leaves images out and `xhtml: false` hreflang alternates; sitemapkit declares
   * only the namespaces a file uses, so `news` and `video` change nothing. @default all true
   */
  namespaces?: { news?: boolean; xhtml?: boolean; image?: boolean; video?: boolean };
  /** The files' name: `${filenameBase}-index.xml`, `${filenameBase}-0.xml`, …. @default 'sitemap' */
  filenameBase?: string;

  // sitemapkit's own

  /**
   * File names: `'astro'` keeps `@astrojs/sitemap`'s (`sitemap-index.xml`, `sitemap-0.xml`, …, an
   * index even for one file), `'sitemapkit'` uses sitemapkit's (`sitemap.xml` alone for one
   * file, else `sitemap-00001.xml`, … under `sitemap.xml`). @default 'astro'
   */
  names?: 'astro' | 'sitemapkit';
  /** Compress every sitemap (`.xml.gz`). @default false */
  gzip?: boolean;
  /** Copy sitemapkit's stylesheet as `sitemap.xsl` and reference it (a readable view in browsers). @default false */
  xsl?: boolean;
  /** Also write the HTML site map for people (`sitemap.html` and its pages). @default false */
  html?: boolean | { siteName?: string; linksPerPage?: number };
  /**
   * The robots.txt `Sitemap:` line: `'update'` adds it to the robots.txt of the build output when
   * there is one, `'create'` also creates one, `false` leaves robots.txt alone. @default 'update'
   */
  robotsTxt?: 'update' | 'create' | false;
  /** List each page's images (read from the built HTML). @default true */
  images?: boolean;
  /** Which images are listed: those on more than `maxShare` of the pages (a logo) are not. @default { maxShare: 0.5 } */
  imageFilter?: ImageFilterOptions;
  /**
   * What an invalid value does (a bad `serialize` result, a broken hreflang group, a URL outside
   * the site): `drop-field` drops the field, or the URL when its `url` is bad, with a warning;
   * `skip` drops the URL; `fail` fails the build. @default 'drop-field'
   */
  onInvalid?: OnInvalid;
  /** Validate the written sitemaps (the protocol and quality rules); findings go to Astro's log. @default true */
  validate?: boolean;
}

/** The options after {@link resolveAstroOptions}. */
export interface ResolvedAstroOptions {
  filter: ((page: string) => boolean) | undefined;
  customPages: readonly string[];
  customSitemaps: readonly string[];
  i18n: { defaultLocale: string; locales: Readonly<Record<string, string>> } | undefined;
  entryLimit: number;
  changefreq: ChangeFreq | undefined;
  lastmod: string | undefined;
  priority: number | undefined;
  serialize: ItemHook | undefined;
  chunks: ReadonlyArray<readonly [string, ItemHook]>;
  xslURL: string | undefined;
  names: 'astro' | 'sitemapkit';
  filenameBase: string;
  gzip: boolean;
  xsl: boolean;
  html: false | { siteName?: string; linksPerPage?: number };
  robotsTxt: 'update' | 'create' | false;
  images: boolean;
  hreflang: boolean;
  imageFilter: ImageFilterOptions | undefined;
  onInvalid: OnInvalid;
  validate: boolean;
}

const KNOWN = new Set([
  'filter',
  'customPages',
  'customSitemaps',
  'i18n',
  'entryLimit',
  'changefreq',
  'lastmod',
  'priority',
  'serialize',
  'chunks',
  'xslURL',
  'namespaces',
  'filenameBase',
  'names',
  'gzip',
  'xsl',
  'html',
  'robotsTxt',
  'images',
  'imageFilter',
  'onInvalid',
  'validate',
]);

/** `sitemap({ name })`: how messages name an option. */
export const optionName = (name: string): string => `sitemap({ ${name} })`;

function bad(name: string, message: string, hint?: string): SitemapkitError {
  return new SitemapkitError(
    'ERR_OPTIONS',
    `${optionName(name)} ${message}`,
    hint === undefined ? {} : { hint },
  );
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

function func<T>(name: string, value: unknown): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw bad(name, `must be a function, not ${show(value)}`);
  return value as T;
}

function boolean(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw bad(name, `must be true or false, not ${show(value)}`);
  return value;
}

function urlList(name: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw bad(name, 'must be an array of full URLs');
  for (const u of value) {
    if (typeof u !== 'string' || !URL.canParse(u) || !/^https?:$/.test(new URL(u).protocol))
      throw bad(
        name,
        `must hold full http(s) URLs, not ${show(u)}`,
        'write them like https://example.com/page',
      );
  }
  return [...(value as string[])];
}

function oneOf<T extends string | false>(
  name: string,
  value: unknown,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T))
    throw bad(name, `must be ${allowed.map(show).join(', ')}, not ${show(value)}`);
  return value as T;
}

function resolveI18n(value: unknown): ResolvedAstroOptions['i18n'] {
  if (value === undefined) return undefined;
  const v = value as { defaultLocale?: unknown; locales?: unknown };
  if (typeof v !== 'object' || v === null || typeof v.locales !== 'object' || v.locales === null)
    throw bad(
      'i18n',
      "must be { defaultLocale, locales }, e.g. { defaultLocale: 'en', locales: { en: 'en-US', fr: 'fr-FR' } }",
    );
  const locales = v.locales as Record<string, unknown>;
  for (const [key, lang] of Object.entries(locales)) {
    if (key === '' || typeof lang !== 'string' || !/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]+)*$/.test(lang))
      throw bad(
        'i18n',
        `locale ${show(key)} must map to an hreflang value such as 'fr-FR', not ${show(lang)}`,
      );
  }
  if (typeof v.defaultLocale !== 'string' || !(v.defaultLocale in locales))
    throw bad('i18n', `defaultLocale ${show(v.defaultLocale)} must be one of the keys of locales`);
  return { defaultLocale: v.defaultLocale, locales: { ...(locales as Record<string, string>) } };
}

/** Checks and completes the options once; the caller's object is never modified. */
export function resolveAstroOptions(input: AstroSitemapOptions | undefined): ResolvedAstroOptions {
  const o = (input ?? {}) as Record<string, unknown>;
  if (typeof o !== 'object' || o === null || Array.isArray(o))
    throw new SitemapkitError('ERR_OPTIONS', 'sitemap(options) takes an object of options, or nothing');
  for (const key of Object.keys(o)) {
    if (!KNOWN.has(key)) {
      const near = closestWords(key, [...KNOWN]);
      throw bad(
        key,
        `is not an option${near.length > 0 ? `: did you mean ${near.join(', ')}?` : ''}`,
        'see docs/astro.md for the options and what each of @astrojs/sitemap maps to',
      );
    }
  }
  const changefreq = oneOf<ChangeFreq | false>('changefreq', o['changefreq'], CHANGEFREQS, false);
  let lastmod: string | undefined;
  if (o['lastmod'] !== undefined) {
    const d = o['lastmod'];
    if (!(d instanceof Date) || Number.isNaN(d.getTime()))
      throw bad('lastmod', `must be a valid Date, not ${show(d)}`);
    lastmod = formatUtc(d);
  }
  let priority: number | undefined;
  if (o['priority'] !== undefined) {
    const p = o['priority'];
    if (typeof p !== 'number' || !(p >= 0 && p <= 1))
      throw bad('priority', `must be a number from 0 to 1, not ${show(p)}`);
    priority = p;
  }
  const chunks: Array<readonly [string, ItemHook]> = [];
  if (o['chunks'] !== undefined) {
    const c = o['chunks'];
    if (typeof c !== 'object' || c === null)
      throw bad('chunks', 'must be an object of functions, e.g. { blog: (item) => … }');
    for (const [name, fn] of Object.entries(c)) {
      if (!/^[a-z0-9][a-z0-9_-]*$/i.test(name) || name === 'pages')
        throw bad(
          'chunks',
          `has the name ${show(name)}: use letters, digits, - and _ (and not "pages", the rest's name)`,
        );
      chunks.push([name, func<ItemHook>(`chunks.${name}`, fn)!]);
    }
  }
  let xslURL: string | undefined;
  if (o['xslURL'] !== undefined) {
    if (typeof o['xslURL'] !== 'string' || o['xslURL'] === '') throw bad('xslURL', 'must be a URL');
    xslURL = o['xslURL'];
  }
  const xsl = boolean('xsl', o['xsl'], false);
  if (xsl && xslURL !== undefined)
    throw bad('xsl', 'and xslURL both name a stylesheet: give one', 'xsl: true copies sitemapkit’s own');
  const namespaces = (o['namespaces'] ?? {}) as Record<string, unknown>;
  if (typeof namespaces !== 'object' || namespaces === null) throw bad('namespaces', 'must be an object');
  for (const key of Object.keys(namespaces)) {
    if (!['news', 'xhtml', 'image', 'video'].includes(key))
      throw bad(`namespaces.${key}`, 'is not a namespace: news, xhtml, image or video');
    boolean(`namespaces.${key}`, namespaces[key], true);
  }
  const filenameBase = o['filenameBase'] ?? 'sitemap';
  if (typeof filenameBase !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(filenameBase))
    throw bad(
      'filenameBase',
      `must be a file name without extension, such as "sitemap", not ${show(filenameBase)}`,
    );
  const names = oneOf('names', o['names'], ['astro', 'sitemapkit'] as const, 'astro');
  if (names === 'sitemapkit' && o['filenameBase'] !== undefined)
    throw bad(
      'filenameBase',
      "names the files @astrojs/sitemap's way; leave it out with names: 'sitemapkit'",
    );
  const html = o['html'];
  if (html !== undefined && typeof html !== 'boolean' && (typeof html !== 'object' || html === null))
    throw bad('html', 'must be true, false or { siteName, linksPerPage }');
  return {
    filter: func('filter', o['filter']),
    customPages: urlList('customPages', o['customPages']),
    customSitemaps: urlList('customSitemaps', o['customSitemaps']),
    i18n: resolveI18n(o['i18n']),
    entryLimit: wholeNumber(optionName('entryLimit'), o['entryLimit'], MAX_URLS, { min: 1, max: MAX_URLS }),
    changefreq: changefreq === false ? undefined : changefreq,
    lastmod,
    priority,
    serialize: func('serialize', o['serialize']),
    chunks,
    xslURL,
    names,
    filenameBase,
    gzip: boolean('gzip', o['gzip'], false),
    xsl,
    html: html === true ? {} : typeof html === 'object' && html !== null ? { ...html } : false,
    robotsTxt: oneOf('robotsTxt', o['robotsTxt'], ['update', 'create', false] as const, 'update'),
    images: boolean('images', o['images'], true) && boolean('namespaces.image', namespaces['image'], true),
    hreflang: boolean('namespaces.xhtml', namespaces['xhtml'], true),
    imageFilter: o['imageFilter'] as ImageFilterOptions | undefined,
    onInvalid: oneOf('onInvalid', o['onInvalid'], ['fail', 'skip', 'drop-field'] as const, 'drop-field'),
    validate: boolean('validate', o['validate'], true),
  };
}
