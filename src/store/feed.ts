/**
 * The delta feed of a store build (`feed.xml`, issue 12): the newest N URLs the store knows as
 * added or changed, through the writer's own feed code (`NewestItems`, `feedDocument`), so a store
 * build and `generate --feed` write the same document for the same items.
 *
 * A URL's time in the feed is the time it is published with, or the time the store saw it arrive:
 * - its input lastmod (the input always wins);
 * - else its news publication date (as `generate --feed` does);
 * - else the time an import observed a change of its content (its published lastmod);
 * - else, for a URL added after the store's first published build, the time an import first saw
 *   it. The URLs of the initial set have no such time: a first import of a million URLs does not
 *   claim they are all new today (see "Honest lastmod" in docs/store.md).
 * URLs with none of these are not listed. Removed URLs are never listed.
 */

import { SitemapkitError } from '../core/errors.js';
import { type FeedText, feedDocument, NewestItems } from '../writer/feed.js';
import { type FeedOptions, type ResolvedFeed, resolveFeed } from '../writer/feed-options.js';
import type { StoreBackend } from './backend.js';

/** The `feed` option of a store build: the format, size and title (the store supplies the items). */
export type StoreFeedOptions = Omit<FeedOptions, 'items'>;

/** Checks a store build's `feed` option once; the items are the store's own, never the caller's. */
export function resolveStoreFeed(value: StoreFeedOptions | undefined): ResolvedFeed | undefined {
  if (value !== undefined && typeof value === 'object' && value !== null && 'items' in value) {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      'feed.items cannot be given to a store build: the feed lists the URLs the store saw added or changed',
    );
  }
  return resolveFeed(value);
}

/** The title an entry's JSON gives (its own, else its news title), read only when it has one. */
function titleOf(entry: string | null): string | undefined {
  if (entry === null || !entry.includes('"title"')) return undefined;
  const e = JSON.parse(entry) as { title?: string; news?: { title?: string } };
  return e.title ?? e.news?.title;
}

/**
 * The feed of the store's live URLs (memory: N items).
 * `firstBuild` is the generation the store's first published build made live (URLs born after it
 * were added later).
 */
export async function storeFeed(
  backend: StoreBackend,
  feed: ResolvedFeed,
  o: { baseUrl: string; emptyTime: Date; firstBuild: number },
): Promise<FeedText> {
  // The store picks the newest (in SQL, one walk); the writer's heap orders them exactly as
  // `generate --feed` would.
  const newest = new NewestItems(feed.size);
  for (const r of await backend.newestUrls(o.firstBuild, feed.size))
    newest.offer(Date.parse(r.time), r.loc, titleOf(r.entry));
  return feedDocument(newest, {
    format: feed.format,
    baseUrl: o.baseUrl,
    title: feed.title,
    emptyTime: o.emptyTime,
  });
}
