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

import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { SitemapkitError } from '../core/errors.js';
import { FEED_NAME, type FeedText, feedDocument, NewestItems } from '../writer/feed.js';
import { type FeedOptions, type ResolvedFeed, resolveFeed } from '../writer/feed-options.js';
import type { ManifestHeader } from '../writer/manifest.js';
import type { StoreBackend } from './backend.js';

const PAGE = 5000;

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

function newsDate(entry: string | null): string | undefined {
  if (entry === null) return undefined;
  return (JSON.parse(entry) as { news?: { publication_date?: string } }).news?.publication_date;
}

/**
 * The feed of the store's live URLs: one walk of them (their times only, memory N items).
 * `firstBuild` is the generation the store's first published build made live (URLs born after it
 * were added later).
 */
export async function storeFeed(
  backend: StoreBackend,
  feed: ResolvedFeed,
  o: { baseUrl: string; emptyTime: Date; firstBuild: number },
): Promise<FeedText> {
  const newest = new NewestItems(feed.size);
  let after = 0;
  let lastTime = '';
  let lastMs = Number.NaN;
  for (;;) {
    const page = await backend.feedRows(after, PAGE);
    if (page.length === 0) break;
    for (const r of page) {
      const time =
        r.inputLastmod ??
        (r.news === 1 ? newsDate(r.entry) : undefined) ??
        r.changedAt ??
        (r.born > o.firstBuild ? r.firstSeen : undefined);
      if (time === undefined) continue;
      // Sets repeat times (one import's changes share one): the last one parsed is remembered.
      if (time !== lastTime) {
        lastTime = time;
        lastMs = Date.parse(time);
      }
      newest.offer(lastMs, r.loc, titleOf(r.entry));
    }
    after = page.at(-1)!.id;
  }
  return feedDocument(newest, {
    format: feed.format,
    baseUrl: o.baseUrl,
    title: feed.title,
    emptyTime: o.emptyTime,
  });
}

/**
 * A `feed.xml` in the output folder that no earlier set of sitemapkit wrote (a static site
 * generator's own feed, when the output is the site folder) is never replaced: refused, as
 * `generate --feed` refuses it.
 */
export async function checkFeedTarget(outDir: string, previous: ManifestHeader | undefined): Promise<void> {
  if ((previous?.files ?? []).some((p) => p.path === FEED_NAME)) return;
  const where = join(outDir, FEED_NAME);
  const there = await lstat(where).then(
    () => true,
    () => false,
  );
  if (there) {
    throw new SitemapkitError(
      'ERR_OUTPUT',
      `${where} exists and was not written by sitemapkit, so the delta feed would replace it; nothing was published`,
      { where, hint: 'move that file away, or write the sitemaps into another folder (--out)' },
    );
  }
}
