/**
 * `sitemapkit status --engine bing --site SITE`: the sitemaps and feeds Bing Webmaster Tools knows
 * for the site (`GetFeeds`), as a table, or with `--json` as `{ "feeds": [...] }` with Bing's own
 * field names (dates as Bing sends them, `/Date(ms)/`) so that scripts can rely on them.
 */
import { bingDate } from '../../submit/bing/api.js';
import { getBingFeeds } from '../../submit/bing/submit.js';
import type { CliContext } from '../context.js';
import { EXIT_OK } from '../exit.js';
import { writeOut } from '../io.js';
import { bingOptionsOf, type EngineFlags } from './submit-bing.js';

export interface BingStatusFlags extends EngineFlags {
  json?: boolean;
}

/** Runs `status --engine bing`; returns the exit code. */
export async function runBingStatus(flags: BingStatusFlags, ctx: CliContext): Promise<number> {
  const options = bingOptionsOf(flags, ctx);
  const feeds = await getBingFeeds(options);
  if (flags.json === true) {
    await writeOut(
      ctx.stdout,
      `${JSON.stringify({ engine: 'bing', siteUrl: new URL(options.siteUrl).href, feeds })}\n`,
    );
    return EXIT_OK;
  }
  if (feeds.length === 0) {
    await writeOut(
      ctx.stdout,
      `Bing knows no sitemap of ${options.siteUrl} (submit one with submit --engine bing --sitemap URL)\n`,
    );
    return EXIT_OK;
  }
  const day = (v: string | null | undefined): string => bingDate(v)?.slice(0, 16).replace('T', ' ') ?? '-';
  const rows = [
    ['sitemap', 'type', 'status', 'submitted (UTC)', 'last crawled (UTC)', 'URLs', 'size'],
    ...feeds.map((f) => [
      f.Url,
      f.Type ?? '-',
      f.Status ?? '-',
      day(f.Submitted),
      day(f.LastCrawled),
      f.UrlCount === undefined ? '-' : String(f.UrlCount),
      f.FileSize === undefined ? '-' : `${f.FileSize}${f.Compressed === true ? ' (gz)' : ''}`,
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const text = rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
  await writeOut(ctx.stdout, `${text}\n`);
  return EXIT_OK;
}
