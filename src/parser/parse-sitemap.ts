import { readDocument } from './document.js';
import { closeHttp, resolveParseOptions } from './options.js';
import { checkAborted, ParseRun } from './run.js';
import { openSource } from './source.js';
import type { ParsedSitemap, ParseOptions, SitemapItem, SitemapParse, SitemapSource } from './types.js';

/** Items as lines of text: `count` lines, each ending with a newline. */
export interface TextLines {
  text: string;
  count: number;
}

/** How {@link parseSitemapLines} writes each item. */
export interface LineWriter {
  /** The name of the source in the lines (`"sitemap"` of sitemapkit parse's JSON lines). */
  name: string;
  /**
   * The line of `item` (with its newline); `nameJson` is `name` as JSON. A page may be the parser's
   * own record (see `SitemapParserOptions.onPage`): read its entry-model fields only.
   */
  line(item: SitemapItem, nameJson: string): string;
}

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

/**
 * {@link parseSitemap} written into lines of text as it is read (sitemapkit parse's JSON lines):
 * the same items in the same order, each `writer.line(item, JSON.stringify(writer.name))`, with the
 * same findings, facts and errors. When nothing else needs the entries, a page's line is written
 * straight from the parser's record, without the entry being built (issue 16). Yields a run of
 * lines per chunk read.
 */
export function parseSitemapLines(
  source: SitemapSource,
  options: ParseOptions,
  writer: LineWriter,
): SitemapParse<TextLines> {
  const o = resolveParseOptions(options);
  const run = new ParseRun(o);
  const nameJson = JSON.stringify(writer.name);
  const line = writer.line;
  return run.result(async function* () {
    try {
      checkAborted(o.http.signal, typeof source === 'string' ? source : '<source>');
      if (typeof source === 'string' || source instanceof URL) o.http.client.start(String(source));
      const opened = await openSource(source, o.http);
      let text = '';
      let count = 0;
      const direct = (item: SitemapItem): void => {
        text += line(item, nameJson);
        count++;
      };
      for await (const items of readDocument(opened, o, run, {}, direct)) {
        for (const item of items) direct(item);
        if (count === 0) continue;
        yield [{ text, count }];
        text = '';
        count = 0;
      }
      // What the end of the document completed (a text sitemap's last line without a newline).
      if (count > 0) yield [{ text, count }];
    } finally {
      await closeHttp(o.http);
    }
  });
}
