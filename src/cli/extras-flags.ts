/**
 * `generate`'s flags for issue 12's extras: the news window, the delta feed and the lastmod
 * policy, as commander options and as the writer's options. Checked with the library's own checks
 * (`core/checks.ts`, `writer/feed-options.ts`); only the wording names the flags.
 */
import { type Command, Option } from 'commander';
import { enNumber } from '../core/en-number.js';
import { MAX_FEED_SIZE } from '../writer/feed-options.js';
import type { WriteSitemapsOptions } from '../writer/options.js';
import { UsageError } from './exit.js';
import { durationFlag, wholeNumberArg } from './flags.js';

export interface ExtrasFlags {
  newsWindow?: string;
  feed?: 'atom' | 'rss';
  feedSize?: number;
  feedTitle?: string;
  lastmodPolicy: 'keep' | 'warn' | 'drop';
}

/** {@link ExtrasFlags} on `crawl`, where `--lastmod-policy` has no default. */
export interface CrawlExtrasFlags extends Omit<ExtrasFlags, 'lastmodPolicy'> {
  lastmodPolicy?: ExtrasFlags['lastmodPolicy'];
}

/** `--news-window DURATION`. */
export function newsWindowOption(): Option {
  return new Option(
    '--news-window <duration>',
    'news entries published longer ago than this lose their <news:news> block; the URL stays (default 2d; e.g. 36h; 0 or off keeps all)',
  );
}

/** `--feed atom|rss`. */
export function feedOption(): Option {
  return new Option(
    '--feed <format>',
    'also write feed.xml: the newest URLs by lastmod (or news date) as a delta feed',
  ).choices(['atom', 'rss']);
}

/** `--feed-size N`. */
export function feedSizeOption(): Option {
  return new Option(
    '--feed-size <n>',
    `with --feed: URLs it lists (default 100, at most ${enNumber(MAX_FEED_SIZE)})`,
  ).argParser(wholeNumberArg('--feed-size', 1, MAX_FEED_SIZE));
}

/** `--feed-title TEXT`. */
export function feedTitleOption(): Option {
  return new Option('--feed-title <text>', 'with --feed: its title (default: the host of --base-url)');
}

/** `--lastmod-policy keep|warn|drop`; `crawl` has no default of its own (see {@link crawlExtras}). */
export function lastmodPolicyOption(dflt: 'warn' | undefined = 'warn'): Option {
  const o = new Option(
    '--lastmod-policy <policy>',
    'when 20 or more lastmods are all one value, or all within 15 minutes of the build time: warn, drop them from the sitemaps, or keep them silently',
  ).choices(['keep', 'warn', 'drop']);
  return dflt === undefined ? o : o.default(dflt);
}

/** The extras' flags on `crawl`, after its other sitemap flags. */
export function extrasCrawlOptions(cmd: Command): Command {
  return cmd
    .addOption(newsWindowOption())
    .addOption(feedOption())
    .addOption(feedSizeOption())
    .addOption(feedTitleOption())
    .addOption(lastmodPolicyOption(undefined));
}

/**
 * The crawl's sitemap options the extras' flags ask for. Without `--lastmod-policy` the crawl
 * keeps its own default (the writer's `warn`; `keep` through the store, whose lastmods are the
 * crawl's observations).
 */
export function crawlExtras(
  flags: CrawlExtrasFlags,
): Pick<WriteSitemapsOptions, 'newsWindow' | 'feed' | 'lastmodPolicy'> {
  const { lastmodPolicy: _default, ...rest } = extrasWriterOptions({ ...flags, lastmodPolicy: 'warn' });
  return flags.lastmodPolicy === undefined ? rest : { ...rest, lastmodPolicy: flags.lastmodPolicy };
}

/** The writer options the flags ask for. */
export function extrasWriterOptions(
  flags: ExtrasFlags,
): Pick<WriteSitemapsOptions, 'newsWindow' | 'feed' | 'lastmodPolicy'> {
  const out: Pick<WriteSitemapsOptions, 'newsWindow' | 'feed' | 'lastmodPolicy'> = {
    lastmodPolicy: flags.lastmodPolicy,
  };
  if (flags.newsWindow !== undefined)
    out.newsWindow =
      flags.newsWindow.trim() === 'off' ? false : durationFlag('--news-window', flags.newsWindow, 's')!;
  if (flags.feed === undefined && (flags.feedSize !== undefined || flags.feedTitle !== undefined))
    throw new UsageError(
      `${flags.feedSize !== undefined ? '--feed-size' : '--feed-title'} needs --feed atom|rss`,
    );
  if (flags.feedTitle !== undefined && flags.feedTitle.trim() === '')
    throw new UsageError('--feed-title needs a title, such as --feed-title "Example news"');
  if (flags.feed !== undefined) {
    out.feed = {
      format: flags.feed,
      ...(flags.feedSize !== undefined && { size: flags.feedSize }),
      ...(flags.feedTitle !== undefined && { title: flags.feedTitle }),
    };
  }
  return out;
}
