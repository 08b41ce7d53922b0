/**
 * One document, end to end: decoded bytes into the parser, items out as they are complete,
 * deferred location findings settled against robots.txt cross-submits, and the facts about the
 * sitemap at the end.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { SitemapParser } from './core.js';
import { type DecodeStats, decodeBody } from './decode.js';
import { FetchFailure } from './http.js';
import type { ResolvedParseOptions } from './options.js';
import { checkAborted, markPlain, type ParseRun } from './run.js';
import type { OpenedSource } from './source.js';
import type { ItemPosition, SitemapInfo, SitemapItem } from './types.js';

/** What a document reports to: a {@link ParseRun}, or a recorder that keeps it for later (a tree's read-ahead). */
export type DocumentRun = Pick<ParseRun, 'onDiagnostic' | 'addSitemap' | 'crossSubmits'>;

export interface DocumentPlace {
  parent?: string;
  depth?: number;
}

/**
 * Yields the items of one opened source, in batches (one per chunk read, so that each item costs
 * its consumer one await, not one per layer), and returns its {@link SitemapInfo} (also given to
 * the run). Never throws for what the document or the server does mid-body; throws `ERR_ABORTED`.
 */
export async function* readDocument(
  opened: OpenedSource,
  o: ResolvedParseOptions,
  run: DocumentRun,
  place: DocumentPlace = {},
): AsyncGenerator<SitemapItem[], SitemapInfo> {
  const queue: SitemapItem[] = [];
  const sitemapUrls = opened.fetched
    ? [...new Set([opened.requested!, opened.url!])]
    : o.sitemapUrl === undefined
      ? []
      : [o.sitemapUrl];
  const crossSubmit = sitemapUrls.length > 0 && (o.crossSubmit ?? opened.fetched);
  const deferred = new Map<SitemapItem, Diagnostic>();
  const onItem = o.onItem;
  // A tree follows and de-duplicates children by their normal form: only pages go out as written.
  const rawRefs = o.rawUrls && place.depth === undefined;
  const asWritten = (item: SitemapItem, where: ItemPosition): SitemapItem => {
    if (where.written === undefined || ('kind' in item && !rawRefs)) return item;
    const raw = { ...item, loc: where.written };
    const d = deferred.get(item);
    if (d !== undefined) {
      deferred.delete(item);
      deferred.set(raw, d);
    }
    return raw;
  };
  const parser = new SitemapParser({
    sitemap: opened.name,
    sitemapUrl: sitemapUrls,
    allowHosts: o.allowHosts,
    maxBytes: o.maxBytes,
    maxElementDepth: o.maxElementDepth,
    onItem: o.rawUrls
      ? (item, where) => {
          const out = asWritten(item, where);
          queue.push(out);
          onItem?.(out, opened.name, where);
        }
      : onItem === undefined
        ? (item) => queue.push(item)
        : (item, where) => {
            queue.push(item);
            onItem(item, opened.name, where);
          },
    onDiagnostic: run.onDiagnostic,
    ...(crossSubmit
      ? { onOutsideLocation: (d: Diagnostic, item: SitemapItem) => deferred.set(item, d) }
      : {}),
  });
  const stats: DecodeStats = { gzip: false, downloadedBytes: 0, inflatedBytes: 0 };

  let plainBefore = 0;
  /** The items read so far, once the cross-submit checks they wait for are settled. */
  async function take(): Promise<SitemapItem[]> {
    const items = queue.splice(0, queue.length);
    // Every item read since the last batch is in this one: when all were plain, so is the batch.
    const plain = parser.plainEntries;
    if (plain - plainBefore === items.length) markPlain(items);
    plainBefore = plain;
    if (deferred.size > 0) {
      for (const item of items) {
        const d = deferred.get(item);
        if (d === undefined) continue;
        deferred.delete(item);
        if (!(await run.crossSubmits(item.loc, sitemapUrls, o.http))) parser.report(d);
      }
    }
    return items;
  }

  try {
    for await (const chunk of decodeBody(opened.body, o, stats, (code, m) => parser.fail(code, m))) {
      checkAborted(o.http.signal, opened.name);
      parser.write(chunk);
      if (queue.length > 0) yield await take();
      if (parser.done) break;
    }
    parser.end();
  } catch (error) {
    if (!(error instanceof FetchFailure)) throw error;
    parser.fail('fetch-failed', `the response broke off: ${error.message}; entries read before are kept`);
  } finally {
    opened.cancel();
  }
  if (queue.length > 0) yield await take();
  const info: SitemapInfo = {
    sitemap: opened.name,
    gzip: stats.gzip,
    entries: parser.entries,
    sitemaps: parser.sitemaps,
    bytes: parser.bytes,
    downloadedBytes: stats.downloadedBytes,
    inflatedBytes: stats.inflatedBytes,
    errors: parser.rep.errors,
    warnings: parser.rep.warnings,
  };
  if (opened.url !== undefined) info.url = opened.url;
  if (parser.format !== undefined) info.format = parser.format;
  if (place.parent !== undefined) info.parent = place.parent;
  if (place.depth !== undefined) info.depth = place.depth;
  run.addSitemap(info);
  return info;
}
