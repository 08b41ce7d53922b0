/**
 * The end of a run for issue 12's extras, between closing the children and building the indexes:
 * the news window's finding, the lastmod verdict (and, under `drop`, the children written again
 * without lastmod), and the delta feed as a supporting file of the commit.
 */

import { SitemapkitError } from '../core/errors.js';
import { FEED_NAME, feedDocument, NewestItems } from './feed.js';
import { dropLastmods } from './lastmod-drop.js';
import { lastmodFinding } from './lastmod-policy.js';
import type { ManifestFile, ManifestHeader } from './manifest.js';
import type { Child, Run } from './run.js';
import type { CommitFile } from './sink.js';

/** Reports the set-wide findings; returns the children to publish and whether lastmods were dropped. */
export async function judgeValues(
  run: Run,
  children: Child[],
): Promise<{ children: Child[]; dropped: boolean }> {
  const news = run.news.finding();
  if (news !== undefined) run.findings.report(news);
  const verdict = run.lastmods?.verdict();
  if (verdict === undefined) return { children, dropped: false };
  const drop = run.o.lastmodPolicy === 'drop';
  run.findings.report(lastmodFinding(verdict, run.o.buildTime, drop));
  if (!drop) return { children, dropped: false };
  return { children: await dropLastmods(run, children), dropped: true };
}

/**
 * Writes `feed.xml` into the sink when a feed is asked for: its manifest line and commit step. A
 * folder's own `feed.xml` (a static site generator's feed, when the output is the site folder) is
 * never replaced: only one the previous set wrote.
 */
/**
 * A `feed.xml` in the output folder that no earlier set of sitemapkit wrote (a static site
 * generator's own feed, when the output is the site folder) is never replaced: refused before
 * anything is published. Shared by `generate --feed` and store builds.
 */
export async function checkFeedTarget(outDir: string, previous: ManifestHeader | undefined): Promise<void> {
  if ((previous?.files ?? []).some((p) => p.path === FEED_NAME)) return;
  // Loaded here only: the writer's module graph stays free of the file system otherwise.
  const { join } = await import('node:path');
  const { lstat } = await import('node:fs/promises');
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

export async function writeFeed(
  run: Run,
  previous: ManifestHeader | undefined,
): Promise<{ file: ManifestFile; commit: CommitFile } | undefined> {
  const f = run.o.feed;
  if (f === undefined) return undefined;
  const out = run.o.output;
  if (out.kind === 'folder') await checkFeedTarget(out.dir, previous);
  let newest = run.feed;
  if (newest === undefined) {
    newest = new NewestItems(f.size);
    for await (const item of f.items ?? []) newest.offerItem(item);
  }
  const doc = feedDocument(newest, {
    format: f.format,
    baseUrl: run.o.baseUrl,
    title: f.title,
    emptyTime: run.o.buildTime,
  });
  // Plain whatever the set's gzip: feed readers and search engines fetch feeds uncompressed.
  await run.sink.put(FEED_NAME, doc.data);
  return {
    file: {
      path: FEED_NAME,
      url: run.o.baseUrl + FEED_NAME,
      kind: 'feed',
      urls: doc.items,
      bytes: doc.data.length,
      sha256: doc.sha256,
    },
    commit: { name: FEED_NAME, as: FEED_NAME, sha256: doc.sha256 },
  };
}

/** The feed URLs of an earlier set, whose `Sitemap:` lines a robots.txt update replaces. */
export function previousFeeds(previous: ManifestHeader | undefined): string[] {
  return (previous?.files ?? []).filter((f) => f.kind === 'feed' && f.url !== undefined).map((f) => f.url!);
}
