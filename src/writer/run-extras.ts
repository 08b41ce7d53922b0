/**
 * The end of a run for issue 12's extras, between closing the children and building the indexes:
 * the news window's finding, the lastmod verdict (and, under `drop`, the children written again
 * without lastmod), and the delta feed as a supporting file of the commit.
 */

import { SitemapkitError } from '../core/errors.js';
import { XSL_NAME } from './bundled-xsl.js';
import { FEED_NAME, feedDocument, NewestItems } from './feed.js';
import { dropLastmods } from './lastmod-drop.js';
import { lastmodFinding } from './lastmod-policy.js';
import type { ManifestFile, ManifestHeader } from './manifest.js';
import type { Child, Run } from './run.js';
import type { CommitFile, SinkStart } from './sink.js';

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
 * A supporting file (`feed.xml`, `sitemap.xsl`, `sitemap.html` and its pages) that is in the output
 * folder but that sitemapkit did not write (a static site generator's own feed or site map page,
 * when the output is the site folder) is never replaced: refused before anything is published.
 * sitemapkit's own are the previous manifest's files and those an interrupted commit published.
 * Shared by `generate` and store builds; a `false` in `names` is a file not asked for.
 */
export async function checkOwnTargets(start: SinkStart, names: ReadonlyArray<string | false>): Promise<void> {
  const outDir = start.folder;
  if (outDir === undefined) return;
  const own = new Set([...(start.previous?.files ?? []).map((p) => p.path), ...(start.inherited ?? [])]);
  const unknown = names.filter((name): name is string => name !== false && !own.has(name));
  if (unknown.length === 0) return;
  // Loaded here only: the writer's module graph stays free of the file system otherwise.
  const { join } = await import('node:path');
  const { lstat } = await import('node:fs/promises');
  for (const name of unknown) {
    const where = join(outDir, name);
    const there = await lstat(where).then(
      () => true,
      () => false,
    );
    if (there) {
      throw new SitemapkitError(
        'ERR_OUTPUT',
        `${where} exists and was not written by sitemapkit, so ${supportName(name)} would replace it; nothing was published`,
        { where, hint: 'move that file away, or write the sitemaps into another folder (--out)' },
      );
    }
  }
}

function supportName(name: string): string {
  if (name === FEED_NAME) return 'the delta feed';
  if (name === XSL_NAME) return 'the XSL stylesheet';
  return 'a page of the HTML site map';
}

/** Writes `feed.xml` into the sink when a feed is asked for: its manifest line and commit step. */
export async function writeFeed(run: Run): Promise<{ file: ManifestFile; commit: CommitFile } | undefined> {
  const f = run.o.feed;
  if (f === undefined) return undefined;
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
