/**
 * next-sitemap's per-entry options on what the HTML of a page shows: the URL built from `siteUrl`
 * and the path (with `trailingSlash`), `changefreq`, `priority`, `alternateRefs`, the user's
 * `transform` (which may leave a page out) and `additionalPaths`. A field the transform returns
 * replaces the one read from the page; a field it does not name keeps what the page shows (title,
 * images, hreflang).
 */
import type { SourceRecord } from '../sources/record.js';
import type {
  NextAlternateRef,
  NextSitemapField,
  NextSitemapOptions,
  ResolvedNextOptions,
} from './options.js';

export interface NextEntryShaper {
  /** The public URL of the site root, ending in `/`: the writer's base URL. */
  readonly base: string;
  /** The absolute URL of a path (or an absolute URL as it is). */
  url(pathOrUrl: string, trailingSlash: boolean): string;
  /** A page's record with the options applied; undefined when the transform left it out. */
  entry(rec: SourceRecord, path: string): Promise<SourceRecord | undefined>;
  /** Calls `additionalPaths` once; its entries for pages of the build are merged into theirs. */
  additions(): Promise<{ rest(): SourceRecord[] }>;
}

const ABSOLUTE = /^https?:\/\//i;

/** Percent-encodes what a path must not carry raw, keeping what is already encoded. */
function encodePath(path: string): string {
  return path
    .split('/')
    .map((s) => encodeURIComponent(safeDecode(s)))
    .join('/');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The absolute URL of a page path (an absolute URL stays as it is) on a site whose public URL is
 * `siteUrl` (which may carry the basePath: https://example.com/docs).
 */
export function nextPageUrl(siteUrl: string, pathOrUrl: string, trailingSlash: boolean): string {
  if (ABSOLUTE.test(pathOrUrl)) return pathOrUrl;
  const prefix = siteUrl.replace(/\/+$/, '');
  const path = pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`;
  if (path === '/') return `${prefix}/`;
  return `${prefix}${encodePath(path.replace(/\/+$/, ''))}${trailingSlash ? '/' : ''}`;
}

export function nextEntryShaper(
  r: ResolvedNextOptions,
  config: NextSitemapOptions,
  trailingSlash: boolean,
): NextEntryShaper {
  // siteUrl may carry the basePath (https://example.com/docs): the pages live under it.
  const prefix = r.siteUrl.replace(/\/+$/, '');
  const base = `${prefix}/`;
  const url = (pathOrUrl: string, slash: boolean): string => nextPageUrl(prefix, pathOrUrl, slash);
  const alternates = (refs: readonly NextAlternateRef[], path: string, loc: string, slash: boolean) => {
    const out = refs.map((a) => ({
      hreflang: a.hreflang,
      href:
        a.hrefIsAbsolute === true
          ? a.href
          : `${a.href.replace(/\/+$/, '')}${url(path, slash).slice(prefix.length)}`,
    }));
    // Google reads a group only when each page lists itself too; next-sitemap's alternateRefs name
    // the other sites only, so the page stands as the default version.
    if (!out.some((a) => a.href === loc)) out.push({ hreflang: 'x-default', href: loc });
    return out;
  };
  const pending = new Map<string, NextSitemapField>();
  const apply = (rec: SourceRecord, field: NextSitemapField | undefined, path: string): SourceRecord => {
    const slash = field?.trailingSlash ?? trailingSlash;
    if (field !== undefined) {
      rec['loc'] = url(field.loc, slash);
      for (const key of ['lastmod', 'changefreq', 'priority'] as const) {
        if (!(key in field)) continue;
        if (field[key] === undefined || field[key] === null) delete rec[key];
        else rec[key] = field[key];
      }
      const images = imagesOf(field['images']);
      if (images !== undefined) rec['images'] = images;
    } else {
      if (r.changefreq !== undefined) rec['changefreq'] = r.changefreq;
      if (r.priority !== undefined) rec['priority'] = r.priority;
    }
    const refs = field?.alternateRefs ?? r.alternateRefs;
    if (refs.length > 0) rec['alternates'] = alternates(refs, path, rec['loc'] as string, slash);
    return rec;
  };
  return {
    base,
    url,
    async entry(rec, path) {
      let field: NextSitemapField | undefined;
      if (r.transform !== undefined) {
        const got = await r.transform(config, path);
        if (got === null || got === undefined || typeof got !== 'object' || !got.loc) return undefined;
        field = got;
      }
      const shaped = apply(rec, field, path);
      const extra = pending.get(shaped['loc'] as string);
      if (extra !== undefined) {
        pending.delete(shaped['loc'] as string);
        return apply(shaped, { ...field, ...extra }, path);
      }
      return shaped;
    },
    async additions() {
      const list = r.additionalPaths === undefined ? [] : await r.additionalPaths(config);
      for (const field of list ?? []) {
        if (typeof field !== 'object' || field === null || !field.loc) continue;
        pending.set(url(field.loc, field.trailingSlash ?? trailingSlash), field);
      }
      return {
        rest: () =>
          [...pending.values()].map((field) => {
            const path = ABSOLUTE.test(field.loc) ? new URL(field.loc).pathname : field.loc;
            return apply({ loc: '' }, field, path);
          }),
      };
    },
  };
}

/** next-sitemap's `images: [{ loc: URL | string }]` as the writer's image URLs. */
function imagesOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: string[] = [];
  for (const item of value) {
    const loc = typeof item === 'string' ? item : (item as { loc?: unknown } | null)?.loc;
    if (loc instanceof URL) out.push(loc.href);
    else if (typeof loc === 'string') out.push(loc);
    else if (typeof (loc as { href?: unknown } | undefined)?.href === 'string')
      out.push((loc as { href: string }).href);
  }
  return out;
}
