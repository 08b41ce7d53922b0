import type { RecordOrigin } from '../writer/batches.js';
import type { ORIGIN } from '../writer/write-sitemaps.js';

/** A record as the writer receives it: an entry input, or anything (the writer reports what is wrong). */
export type SourceRecord = Record<string, unknown> & { [ORIGIN]?: RecordOrigin };

/**
 * URLs already listed, shared between sources so that a URL several inputs hold is written once:
 * `add` returns false when the URL was there. sitemapkit's hashed set (about 8 bytes a URL) is
 * one; over a `Set`: `{ add: (u) => !set.has(u) && set.add(u) !== undefined }`.
 */
export interface SeenUrls {
  add(url: string): boolean;
}
