import { readDocument } from './document.js';
import { closeHttp, resolveParseOptions } from './options.js';
import { checkAborted, ParseRun } from './run.js';
import { openSource } from './source.js';
import type { ParsedSitemap, ParseOptions, SitemapItem, SitemapParse, SitemapSource } from './types.js';

/**
 * Reads one sitemap: page entries (the entry model, no `kind`) and, for an index, its children as
 * `{ kind: 'sitemap', loc, lastmod }` (not followed: see {@link parseSitemapTree}). Findings go to
 * `options.onDiagnostic` and onto the result.
 *
 * Throws (when iterated) `ERR_INPUT` for a file that cannot be opened, `ERR_HTTP` when a URL
 * cannot be fetched at all, `ERR_OPTIONS` for bad options, `ERR_ABORTED` on abort. Whatever the
 * content, it never throws: bad content is diagnostics.
 *
 * @example
 * for await (const item of parseSitemap('https://www.example.com/sitemap.xml')) {
 *   if (!('kind' in item)) console.log(item.loc, item.lastmod);
 * }
 */
export function parseSitemap(source: SitemapSource, options: ParseOptions = {}): SitemapParse<SitemapItem> {
  const o = resolveParseOptions(options);
  const run = new ParseRun(o);
  return run.result(async function* () {
    try {
      checkAborted(o.http.signal, typeof source === 'string' ? source : '<source>');
      if (typeof source === 'string' || source instanceof URL) o.http.client.start(String(source));
      const opened = await openSource(source, o.http);
      yield* readDocument(opened, o, run);
    } finally {
      await closeHttp(o.http);
    }
  });
}

/** {@link parseSitemap}, collected: every item, the diagnostics and the facts about the sitemap. */
export async function parseSitemapToArray(
  source: SitemapSource,
  options: ParseOptions = {},
): Promise<ParsedSitemap> {
  const result = parseSitemap(source, options);
  const items: SitemapItem[] = [];
  for await (const item of result) items.push(item);
  return {
    items,
    diagnostics: [...result.diagnostics],
    sitemaps: [...result.sitemaps],
    errorCount: result.errorCount,
  };
}
