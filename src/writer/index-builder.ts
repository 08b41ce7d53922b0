/**
 * Index files over a set's children, as strings (pure). The entry point holds the first
 * children; more than one index's worth goes into `sitemap-index-2.xml`, … (an index never lists
 * an index: robots.txt names each root).
 */
import { utf8Length } from '../core/utf8.js';
import { indexFileName } from './file-names.js';
import { INDEX_CLOSE, indexItem, indexOpen } from './serialize.js';

export interface IndexChild {
  /** Public name, relative to the base URL. */
  name: string;
  lastmod: string;
}

export interface IndexFile {
  /** `sitemap.xml[.gz]` for the first, `sitemap-index-N.xml[.gz]` after (see {@link indexFileName}). */
  name: string;
  text: string;
  /** UTF-8 length of `text`. */
  bytes: number;
  /** Children it lists. */
  urls: number;
}

export interface IndexOptions {
  baseUrl: string;
  xslHref: string | undefined;
  maxSitemapsPerIndex: number;
  maxBytesPerFile: number;
  /** '' or '.gz'. */
  suffix: string;
  /** The entry point's name without extension. @default 'sitemap' */
  indexName?: string;
}

export function buildIndexes(children: readonly IndexChild[], o: IndexOptions): IndexFile[] {
  const head = indexOpen(o.xslHref);
  const headBytes = utf8Length(head);
  const out: IndexFile[] = [];
  let parts: string[] = [];
  let bytes = 0;
  const flush = (): void => {
    const g = out.length;
    out.push({
      name: `${indexFileName(o.indexName ?? 'sitemap', g)}.xml${o.suffix}`,
      text: head + parts.join('') + INDEX_CLOSE,
      bytes: bytes + INDEX_CLOSE.length,
      urls: parts.length,
    });
    parts = [];
  };
  for (const c of children) {
    const item = indexItem(o.baseUrl + c.name, c.lastmod);
    const len = utf8Length(item);
    if (
      parts.length > 0 &&
      (parts.length >= o.maxSitemapsPerIndex || bytes + len + INDEX_CLOSE.length > o.maxBytesPerFile)
    ) {
      flush();
    }
    if (parts.length === 0) bytes = headBytes;
    parts.push(item);
    bytes += len;
  }
  flush();
  return out;
}
