/**
 * Astro's URLs, pure: which built file is which page and under which URL (`build.format` and
 * `trailingSlash` decide it, not the file name), which pages are status pages, and the hreflang
 * groups of `i18n` computed from the URLs the way `@astrojs/sitemap` computes them.
 */
import type { LinkItem } from './options.js';

/** What of Astro's config decides a page's URL. */
export interface UrlRules {
  /** The public URL of the build output folder: `site` + `base`, ending in `/`. */
  prefix: string;
  trailingSlash: 'always' | 'never' | 'ignore';
}

/** `site` + `base` as the folder URL the built files are served under (always ending in `/`). */
export function sitePrefix(site: string, base: string): string {
  const url = new URL(base === '' ? '/' : base, site);
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

/** The page path (no leading `/`) with Astro's trailing-slash rule applied; `''` is the root. */
function withSlashRule(path: string, rules: UrlRules): string {
  if (path === '') return path;
  if (rules.trailingSlash === 'never') return path.replace(/\/+$/, '');
  if (rules.trailingSlash === 'always' && !path.endsWith('/')) return `${path}/`;
  return path;
}

const encodePath = (path: string): string =>
  path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');

/**
 * The URL of a built HTML file (`about/index.html`, `about.html`; relative to the output
 * folder, with `/`): `x/index.html` is `x/`, `x.html` is `x` (as `build.format` `directory`,
 * `file` and `preserve` write them), then `trailingSlash` applies.
 */
export function fileUrl(rel: string, rules: UrlRules): string {
  let path = rel;
  if (/(?:^|\/)index\.html$/i.test(path)) path = path.replace(/index\.html$/i, '');
  else path = path.replace(/\.html$/i, '');
  return rules.prefix + encodePath(withSlashRule(path, rules));
}

/** The URL of a file whose route names it (`src/pages/legacy.html.astro`): the file's own name. */
export function namedFileUrl(rel: string, prefix: string): string {
  return prefix + encodePath(rel);
}

/**
 * The URL of a route's static path (`/about`, from a route rendered on demand): a page route of
 * `build.format: 'directory'` ends in `/` unless `trailingSlash` is `never`, as the page built
 * for it would.
 */
export function routeUrl(
  pathname: string,
  rules: UrlRules,
  format: 'directory' | 'file' | 'preserve',
): string {
  let path = pathname.replace(/^\/+/, '');
  if (format === 'directory' && path !== '' && !path.endsWith('/')) path += '/';
  return rules.prefix + encodePath(withSlashRule(path, rules));
}

const STATUS = new Set(['404', '500']);

/**
 * The site's status pages (`404`, `500`, also under a locale: `fr/404`), which are no pages to
 * list: `@astrojs/sitemap` leaves out the same.
 */
export function isStatusPage(url: string, prefix: string, locales: readonly string[]): boolean {
  if (!url.startsWith(prefix)) return false;
  const path = decodeURIComponent(url.slice(prefix.length)).replace(/\/+$/, '');
  if (STATUS.has(path)) return true;
  const slash = path.indexOf('/');
  return slash > 0 && locales.includes(path.slice(0, slash)) && STATUS.has(path.slice(slash + 1));
}

/** A URL's locale and its path without the locale prefix (the default locale has none). */
function localeOf(
  url: string,
  prefix: string,
  defaultLocale: string,
  locales: Readonly<Record<string, string>>,
): { locale: string; path: string } | undefined {
  if (!url.startsWith(prefix)) return undefined;
  const rest = url.slice(prefix.length);
  const first = rest.split('/')[0]!;
  if (first !== '' && Object.hasOwn(locales, first)) {
    return { locale: first, path: rest.slice(first.length).replace(/^\//, '') };
  }
  return { locale: defaultLocale, path: rest };
}

/**
 * `@astrojs/sitemap`'s i18n rule over the whole list: URLs whose paths are equal once the locale
 * prefix is removed form a group, and each member lists every member (itself included) with the
 * locale's hreflang value. A URL alone in its group gets no links. Trailing slashes are ignored
 * when comparing, so `/fr/` and `/` pair.
 */
export function i18nLinks(
  urls: readonly string[],
  prefix: string,
  i18n: { defaultLocale: string; locales: Readonly<Record<string, string>> },
): Map<string, LinkItem[]> {
  const groups = new Map<string, LinkItem[]>();
  const keyOf = new Map<string, string>();
  for (const url of urls) {
    const l = localeOf(url, prefix, i18n.defaultLocale, i18n.locales);
    if (l === undefined) continue;
    const key = l.path.replace(/\/+$/, '');
    keyOf.set(url, key);
    const group = groups.get(key) ?? [];
    group.push({ url, lang: i18n.locales[l.locale]! });
    groups.set(key, group);
  }
  const out = new Map<string, LinkItem[]>();
  for (const [url, key] of keyOf) {
    const group = groups.get(key)!;
    if (group.length > 1) out.set(url, group);
  }
  return out;
}
