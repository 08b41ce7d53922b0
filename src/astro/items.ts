/**
 * From the pages read to the writer's records, through the steps `@astrojs/sitemap` users know
 * and in its order: `filter` on the URL, the `i18n` links, the `changefreq`/`priority`/`lastmod`
 * defaults, `serialize` (which may change or drop an item), then `chunks` (a section each).
 */
import { SitemapkitError } from '../core/errors.js';
import type { RecordOrigin } from '../writer/batches.js';
import { ORIGIN } from '../writer/write-sitemaps.js';
import type { ItemHook, LinkItem, ResolvedAstroOptions, SitemapItem } from './options.js';
import { i18nLinks } from './urls.js';

/** An item on its way, with the built file it was read from (for messages). */
export interface PageItem {
  item: SitemapItem;
  /** The built HTML file, when the URL is a page that was read. */
  file?: string;
}

/** Why URLs were left out, for the summary. */
export interface LeftOut {
  filtered: number;
  dropped: number;
}

/** `filter`, `i18n` and the defaults: what `serialize` then sees. */
export function prepareItems(
  items: readonly PageItem[],
  o: ResolvedAstroOptions,
  prefix: string,
): {
  kept: PageItem[];
  filtered: number;
} {
  const kept = o.filter === undefined ? [...items] : items.filter((p) => o.filter!(p.item.url));
  const links =
    o.i18n === undefined
      ? undefined
      : i18nLinks(
          kept.map((p) => p.item.url),
          prefix,
          o.i18n,
        );
  for (const p of kept) {
    const it = p.item;
    // The configured locales win over a page's own hreflang links: the user stated them.
    const group = links?.get(it.url);
    if (group !== undefined) it.links = group.map((l) => ({ ...l }));
    if (o.lastmod !== undefined) it.lastmod = o.lastmod;
    if (o.changefreq !== undefined) it.changefreq = o.changefreq;
    if (o.priority !== undefined) it.priority = o.priority;
  }
  return { kept, filtered: items.length - kept.length };
}

async function call(hook: ItemHook, item: SitemapItem, what: string): Promise<SitemapItem | undefined> {
  let out: Awaited<ReturnType<ItemHook>>;
  try {
    out = await hook(item);
  } catch (cause) {
    throw new SitemapkitError(
      'ERR_INPUT',
      `${what} threw for ${item.url}: ${(cause as Error)?.message ?? String(cause)}`,
      { cause, hint: `fix ${what}, or return undefined from it to leave the URL out` },
    );
  }
  if (out === undefined || out === null || out === false) return undefined;
  return out;
}

/**
 * `serialize`, then `chunks`: the items to write with their section (`''` without chunks), in
 * order. An item is in the first chunk whose function returns one for it; the rest are `pages`.
 */
export async function serializeItems(
  items: readonly PageItem[],
  o: ResolvedAstroOptions,
): Promise<{ out: Array<PageItem & { section: string }>; dropped: number }> {
  const out: Array<PageItem & { section: string }> = [];
  let dropped = 0;
  for (const p of items) {
    const item =
      o.serialize === undefined ? p.item : await call(o.serialize, p.item, 'sitemap({ serialize })');
    if (item === undefined) {
      dropped++;
      continue;
    }
    let section = '';
    let chosen = item;
    if (o.chunks.length > 0) {
      section = 'pages';
      for (const [name, fn] of o.chunks) {
        const got = await call(fn, item, `sitemap({ chunks.${name} })`);
        if (got !== undefined) {
          section = name;
          chosen = got;
          break;
        }
      }
    }
    out.push({ item: chosen, section, ...(p.file !== undefined && { file: p.file }) });
  }
  return { out, dropped };
}

/** A `links` list as the writer's alternates. */
const alternatesOf = (links: readonly LinkItem[]): Array<{ hreflang: string; href: string }> =>
  links.map((l) => ({ hreflang: l.hreflang ?? l.lang, href: l.url }));

/**
 * The writer's record for an item: whatever `serialize` returned goes through the writer's checks
 * (a bad value is then a finding naming the field, under `onInvalid`).
 */
export function toRecord(
  p: PageItem & { section: string },
  o: ResolvedAstroOptions,
): Record<string, unknown> {
  const it = p.item as SitemapItem & Record<string, unknown>;
  const rec: Record<string, unknown> & { [ORIGIN]?: RecordOrigin } = { loc: it.url };
  if (it.lastmod !== undefined) rec['lastmod'] = it.lastmod;
  if (it.changefreq !== undefined) rec['changefreq'] = it.changefreq;
  if (it.priority !== undefined) rec['priority'] = it.priority;
  if (o.images && Array.isArray(it.images) && it.images.length > 0) rec['images'] = it.images;
  if (o.hreflang && Array.isArray(it.links) && it.links.length > 0)
    rec['alternates'] = alternatesOf(it.links);
  if (typeof it.title === 'string' && it.title !== '') rec['title'] = it.title;
  if (p.section !== '') rec['section'] = p.section;
  if (p.file !== undefined) rec[ORIGIN] = { file: p.file };
  return rec;
}
