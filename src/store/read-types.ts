/**
 * The shapes of the store's read path (read.ts), apart so that backend.ts can name them without
 * importing the read path itself.
 */

/** One live file as a read gives it. */
export interface FileReadRow {
  id: number;
  section: string;
  num: number;
  urls: number;
  /** The generation that last changed what it holds. */
  changed: number;
}

/** One entry of a file as a read gives it. */
export interface EntryReadRow {
  id: number;
  loc: string;
  /** The published lastmod (the input's, or the time a change was observed). */
  lastmod: string | null;
  /** The normalised entry as JSON, when it holds more than loc, lastmod and section. */
  entry: string | null;
}

/** The reads a backend offers (the read-write backends and the read-only openers alike). */
export interface StoreReads {
  /** The generation and the live files (those holding URLs), in one snapshot. */
  files(): Promise<{ generation: number; files: FileReadRow[] }>;
  /** The generation and up to `limit` entries of file `file` after id `after`, by id, in one snapshot. */
  entries(file: number, after: number, limit: number): Promise<{ generation: number; rows: EntryReadRow[] }>;
  /** The generation alone (asked on every request a handler answers). @default from `files()` */
  generation?(): Promise<number>;
  /**
   * The last published build: the generation it published, and each file it published with the
   * lastmod its index gave it. Absent: files are not dated by their builds.
   */
  published?(): Promise<{ generation: number; files: Array<{ path: string; lastmod: string }> }>;
}
