/**
 * The plug-in's route list as writer records: paths resolved under the site's URL (so an app's
 * router table can be handed over as it is), each failure of the list a sentence naming the option.
 */
import { SitemapkitError } from '../core/errors.js';
import type { SourceRecord } from '../sources/record.js';
import { ORIGIN } from '../writer/write-sitemaps.js';
import type { RouteList } from './options.js';

const WHERE = 'sitemapkit({ routes })';
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A path under the site (`/about` and `about` alike, `/` the site itself) or a full URL, kept as it is. */
export function routeUrl(path: string, site: string): string {
  if (SCHEME.test(path)) return path;
  return new URL(path.replace(/^[/\\]+/, ''), site).href;
}

function show(v: unknown): string {
  const text = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function listFailed(cause: unknown): SitemapkitError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new SitemapkitError('ERR_INPUT', `${WHERE}: the route list failed: ${why}; no sitemap was written`, {
    where: WHERE,
    hint: 'fix the function or iterable given as routes (it threw while the routes were read)',
    cause,
  });
}

/** One route as a record: a copy of the entry with its URLs resolved. */
function toRecord(route: unknown, n: number, site: string): SourceRecord {
  if (typeof route === 'string') {
    if (route.trim() === '')
      throw new SitemapkitError(
        'ERR_INPUT',
        `${WHERE}: route ${n} is an empty string; give a path such as "/about"`,
        {
          where: WHERE,
        },
      );
    return { loc: routeUrl(route.trim(), site) };
  }
  if (typeof route !== 'object' || route === null || typeof (route as { loc?: unknown }).loc !== 'string') {
    throw new SitemapkitError(
      'ERR_INPUT',
      `${WHERE}: route ${n} is ${show(route)}, not a path, a URL or an entry with a loc`,
      { where: WHERE, hint: "for example '/about' or { loc: '/blog/hello', lastmod: '2024-05-01' }" },
    );
  }
  const rec: SourceRecord = { ...(route as Record<string, unknown>) };
  rec['loc'] = routeUrl((rec['loc'] as string).trim(), site);
  if (Array.isArray(rec['images'])) {
    rec['images'] = (rec['images'] as unknown[]).map((img) => {
      if (typeof img === 'string') return routeUrl(img, site);
      if (typeof img === 'object' && img !== null && typeof (img as { loc?: unknown }).loc === 'string')
        return { ...img, loc: routeUrl((img as { loc: string }).loc, site) };
      return img;
    });
  }
  if (Array.isArray(rec['alternates'])) {
    rec['alternates'] = (rec['alternates'] as unknown[]).map((a) =>
      typeof a === 'object' && a !== null && typeof (a as { href?: unknown }).href === 'string'
        ? { ...a, href: routeUrl((a as { href: string }).href, site) }
        : a,
    );
  }
  rec[ORIGIN] = { file: `${WHERE}[${n - 1}]` };
  return rec;
}

/**
 * Reads the route list (calling it when it is a function) into records, in the order given. A
 * list that throws, or a route that is neither a path nor an entry, is an `ERR_INPUT` naming
 * `sitemapkit({ routes })`; the values of an entry are checked later by the writer, as any input's.
 */
export async function readRoutes(
  routes: () => RouteList | Promise<RouteList>,
  site: string,
): Promise<SourceRecord[]> {
  let list: RouteList;
  try {
    list = await routes();
  } catch (cause) {
    throw listFailed(cause);
  }
  if (
    typeof list !== 'object' ||
    list === null ||
    !(Symbol.iterator in list || Symbol.asyncIterator in list)
  ) {
    throw new SitemapkitError(
      'ERR_INPUT',
      `${WHERE}: the function returned ${show(list)}, not an array or iterable of routes`,
      { where: WHERE, hint: 'return an array of paths or entries (or a promise of one)' },
    );
  }
  const out: SourceRecord[] = [];
  let n = 0;
  try {
    for await (const route of list) out.push(toRecord(route, ++n, site));
  } catch (cause) {
    if (cause instanceof SitemapkitError) throw cause;
    throw listFailed(cause);
  }
  return out;
}
