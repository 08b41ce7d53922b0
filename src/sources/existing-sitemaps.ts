/**
 * A site's published sitemaps as a writer input (`generate --from-sitemap`): index trees, gzip,
 * text sitemaps and RSS/Atom feeds, read through the parser, every entry with its fields (lastmod,
 * changefreq, priority, images, videos, news, alternates) as a record. For migrating a site onto
 * sitemapkit (and into its store).
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { HashedStringSet } from '../core/hash.js';
import { parseSitemapTree } from '../parser/tree.js';
import type { TreeEntry, TreeOptions } from '../parser/types.js';
import { type BatchedSource, batchedSource } from '../writer/batches.js';
import type { SeenUrls, SourceRecord } from './record.js';

/** Options of {@link readSitemaps}: the parser's tree options (HTTP, address policy, caps). */
export interface ExistingSitemapsOptions extends TreeOptions {
  /**
   * URLs other inputs listed before this one (in their normal form): not yielded again, counted
   * as duplicates. The URLs this source yields are added to it. @default a set of its own
   */
  seen?: SeenUrls | undefined;
}

/** What a read of existing sitemaps found, complete once the iteration ends. */
export interface ExistingSitemapsResult {
  /** Sitemaps read (indexes and roots included) and those that failed. */
  sitemaps: number;
  /** Error diagnostics: a child that could not be fetched or read, a broken document. */
  errors: number;
  /** Entries yielded (after duplicates were merged). */
  entries: number;
  /** Entries left out because their URL was listed before. */
  duplicates: number;
}

/** The records of {@link readSitemaps}, with what the read found. */
export interface ExistingSitemaps extends BatchedSource<SourceRecord> {
  readonly result: ExistingSitemapsResult;
}

const BATCH = 512;

/**
 * Reads sitemaps (paths or http(s) URLs) and every index below them into records. A child that
 * fails is a diagnostic (`fetch-failed`, `fetch-status`, …) and counts in `result.errors`, so a
 * partial migration can be told apart from a whole one; a single root that cannot be opened
 * throws, as `parseSitemapTree` does. A URL listed twice is kept once (the first), with one
 * `url-duplicate` warning at the end. `links` (app deep links, separate mobile URLs) are no field
 * the writer writes: they are left out, with one `entry-unknown-field` warning.
 */
export function readSitemaps(
  roots: string | readonly string[],
  options: ExistingSitemapsOptions = {},
): ExistingSitemaps {
  const result: ExistingSitemapsResult = { sitemaps: 0, errors: 0, entries: 0, duplicates: 0 };
  const list = typeof roots === 'string' ? [roots] : [...roots];
  const source = batchedSource<SourceRecord>(async function* () {
    const seen = options.seen ?? new HashedStringSet();
    let links = 0;
    const report = (d: Diagnostic): void => {
      // A URL outside its old sitemap's folder is a fault of the old set that the new one, written
      // at the base URL, does not have (the writer judges every loc against it): the entry is
      // taken over, so the migration is whole.
      if (d.code === 'url-outside-location' && d.severity === 'error') {
        const { fix: _moveIt, ...rest } = d;
        options.onDiagnostic?.({
          ...rest,
          severity: 'warning',
          message: `${d.message} (in the old set; the entry was taken over and is judged against the new base URL)`,
        });
        return;
      }
      if (d.severity === 'error') result.errors++;
      options.onDiagnostic?.(d);
    };
    const { seen: _shared, ...treeOptions } = options;
    const tree = parseSitemapTree(list, {
      ...treeOptions,
      onDiagnostic: report,
      onSitemap: (info) => {
        result.sitemaps++;
        options.onSitemap?.(info);
      },
    });
    // A batch holds entries of one sitemap, so that a record the writer refuses is named by it.
    let items: SourceRecord[] = [];
    let file = '';
    for await (const entry of tree) {
      if (!seen.add(entry.loc)) {
        result.duplicates++;
        continue;
      }
      const { sitemap: _from, links: dropped, ...fields } = entry as TreeEntry;
      if (dropped !== undefined && dropped.length > 0) links++;
      if (items.length === BATCH || (items.length > 0 && entry.sitemap !== file)) {
        yield { items, file };
        items = [];
      }
      file = entry.sitemap;
      items.push(fields);
      result.entries++;
    }
    if (items.length > 0) yield { items, file };
    if (result.duplicates > 0)
      options.onDiagnostic?.({
        code: 'url-duplicate',
        severity: 'warning',
        message: `${result.duplicates.toLocaleString('en-US')} URL${result.duplicates === 1 ? ' was' : 's were'} listed more than once (in two sitemaps, or also in another input); the first listing of each was kept`,
        sitemap: list.join(', '),
      });
    if (links > 0)
      options.onDiagnostic?.({
        code: 'entry-unknown-field',
        severity: 'warning',
        message: `${links.toLocaleString('en-US')} entr${links === 1 ? 'y carries' : 'ies carry'} other <xhtml:link> elements (app deep links, separate mobile URLs), which sitemapkit does not write: left out`,
        sitemap: list.join(', '),
        field: 'links',
      });
  });
  return Object.assign(source, { result });
}
