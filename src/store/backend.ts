/**
 * The persistence behind a site store: a small, batched interface, so that the import and build
 * logic (sync.ts, build.ts) runs unchanged over SQLite (sqlite.ts) or, later, PostgreSQL. Every
 * method may be asynchronous; the callers batch (a thousand URLs a call) so that a network round
 * trip per call stays cheap. Rows are read in pages keyed on the id, never with an open cursor
 * while writing (better-sqlite3 refuses that, and a PostgreSQL cursor would hold a snapshot).
 */
import type { StoreReads } from './read-types.js';

/** One URL of the store, live or a tombstone. */
export interface UrlRow {
  id: number;
  loc: string;
  /** '' for none. */
  section: string;
  /** The file (shard) it lives in; null for a tombstone. */
  file: number | null;
  /** Content hash of the entry without its lastmod. */
  hash: string;
  /** The lastmod the input gave, if any (it always wins). */
  inputLastmod: string | null;
  /** When an import first observed the current content (null: never observed a change). */
  changedAt: string | null;
  firstSeen: string;
  /** UTF-8 length of `fragment`. */
  len: number;
  /** 1 when the entry has a news block (the 1,000-a-file rule). */
  news: number;
  /** The normalised entry as JSON, when it holds more than loc, lastmod and section. */
  entry: string | null;
  /**
   * The entry as the store's format serialises it, with its published lastmod; null for a plain
   * entry (loc and lastmod alone), which a build serialises again from those two (a third of the
   * store's size at a million URLs).
   */
  fragment: string | null;
  /** The generation (write transaction) that made it live. */
  born: number;
  /** The generation of its last change of content or lastmod, or of its removal. */
  changed: number;
  /** When it was removed (tombstones only). */
  removedAt: string | null;
}

export type NewUrlRow = Omit<UrlRow, 'id'>;

/** What settles most URLs of an import: the same hash, input lastmod and section. */
export interface CompareRow {
  id: number;
  loc: string;
  hash: string;
  inputLastmod: string | null;
  section: string;
  file: number | null;
}

/** A row as an import compares it: without its serialised entry (rewritten on any change). */
export type KnownRow = Omit<UrlRow, 'fragment' | 'entry'>;

/** One file (shard) of a section. */
export interface FileRow {
  id: number;
  section: string;
  /** Its number in its section's series: `sitemap-SECTION-00003.xml` is 3. */
  num: number;
  urls: number;
  /** Sum of its entries' fragment lengths (without header and footer). */
  bytes: number;
  news: number;
  /** The generation that last changed what it holds. */
  changed: number;
}

/** A file of the published set, as the last build that went through left it. */
export interface PublishedRow {
  /** Name in the output folder (`sitemap-00003.xml.gz`). */
  path: string;
  /** SHA-256 of its uncompressed bytes (the manifest's). */
  sha256: string;
  /** Size and SHA-256 of the bytes on disk (compressed, for .gz): what a kept file is checked against. */
  size: number;
  disk: string;
  /** Uncompressed bytes. */
  bytes: number;
  urls: number;
  /** The lastmod the index gives it. */
  lastmod: string;
}

/**
 * What a build keeps of a published child besides its row: how to trust it without hashing it,
 * and its layout, to splice it (store/splice.ts). Moving rows between files drops the layouts of
 * both files (`move`), since a moved row is not a change the layout could see.
 */
export interface LayoutRow {
  /** Name in the output folder. */
  path: string;
  /** The file (shard) it was written from. */
  file: number;
  /** Device, inode, size and mtime of the file when published ('' when unknown). */
  stamp: string;
  /** Its entries' ids and byte lengths (store/layout.ts); null when not kept (gzip). */
  data: Uint8Array | null;
}

/** A row changed since the published build (added, changed, or a tombstone: `file` null). */
export type PendingEntry = FragmentRow & { file: number | null };

/** The layouts of the published children, and the rows a splice reads. */
export interface LayoutStore {
  /** Up to `limit` rows changed after generation `since` (tombstones too), by id. */
  pendingEntries(since: number, limit: number): Promise<PendingEntry[]>;
  get(path: string): Promise<LayoutRow | undefined>;
  /** Writes these layouts (by path) and deletes those of every path not in `keep`. */
  save(rows: readonly LayoutRow[], keep: readonly string[]): Promise<void>;
}

/** What a full-set sync needs of every row to find those the input no longer lists. */
export interface LightRow {
  id: number;
  file: number | null;
  len: number;
  news: number;
  born: number;
}

/** One entry of a file as a build writes it. */
export interface FragmentRow {
  id: number;
  fragment: string | null;
  loc: string;
  /** The published lastmod (for a plain entry, whose fragment is not stored). */
  lastmod: string | null;
  len: number;
  news: number;
  /** The entry as JSON, for a news entry only (the news window may rewrite it without its block). */
  entry: string | null;
}

/** A URL change not yet published: added, changed or removed since the last build. */
export interface PendingRow {
  id: number;
  /** The generation of the change (pages are keyed on it and the id). */
  gen: number;
  loc: string;
  change: 'added' | 'changed' | 'removed';
  lastmod: string | null;
  at: string;
}

/** A candidate of the delta feed: a live URL, its time (see store/feed.ts) and its entry JSON. */
export interface FeedRow {
  loc: string;
  time: string;
  entry: string | null;
}

export interface StoreBackend {
  /** The read path for serving (store/read.ts), over this backend's own connection. */
  reads(): StoreReads;
  /** Runs `fn` in one transaction: all of it lands, or (on a throw or a crash) none of it. */
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Runs a first import into an empty store (a backend may load in bulk); inside a transaction. */
  bulk<T>(fn: () => Promise<T>): Promise<T>;
  getMeta(key: string): Promise<string | undefined>;
  setMeta(key: string, value: string): Promise<void>;
  /** The rows (live or tombstone) of these locs. */
  lookup(locs: readonly string[]): Promise<Map<string, KnownRow>>;
  /** What an import compares first, for these locs (present ones only). */
  compare(locs: readonly string[]): Promise<Map<string, CompareRow>>;
  /** Rows by id. */
  rows(ids: readonly number[]): Promise<Map<number, KnownRow>>;
  /** The live rows whose id `seen` does not know (what a full-set sync removes). */
  unseen(seen: (id: number) => boolean): Promise<LightRow[]>;
  /** Inserts rows; returns their ids in order. */
  insert(rows: readonly NewUrlRow[]): Promise<number[]>;
  /** Replaces rows by id. */
  update(rows: readonly UrlRow[]): Promise<void>;
  deleteIds(ids: readonly number[]): Promise<void>;
  /**
   * Moves live rows into another file (not a change of the URL: the files record that); drops the
   * layouts of the files they leave and enter.
   */
  move(ids: readonly number[], file: number): Promise<void>;
  /** Up to `limit` live rows after id `after`, by id. */
  liveRows(after: number, limit: number): Promise<UrlRow[]>;
  /** Up to `limit` rows (live or not) after id `after`, by id, with what a removal needs. */
  scan(after: number, limit: number): Promise<LightRow[]>;
  /** Makes these live rows tombstones, removed at `at` in generation `gen`. */
  bury(ids: readonly number[], at: string, gen: number): Promise<void>;
  /** The serialised entries of one file, in its stable order (by id), after id `after`. */
  fragments(file: number, after: number, limit: number): Promise<FragmentRow[]>;
  /**
   * The `limit` newest live URLs by their feed time (input lastmod, else news publication date,
   * else observed change, else first seen when born after generation `firstBuild`), newest first,
   * ties by loc; URLs without a time are left out.
   */
  newestUrls(firstBuild: number, limit: number): Promise<FeedRow[]>;
  /**
   * The input lastmods of the live URLs, for the lastmod policy: how many, the least (as text),
   * whether all are one text, and whether all lie within `nearMs` of `buildMs`.
   */
  inputLastmods(
    buildMs: number,
    nearMs: number,
  ): Promise<{ count: number; first: string | null; same: boolean; near: boolean }>;
  /** Up to `limit` tombstones after id `after`, by id. */
  tombstones(after: number, limit: number): Promise<UrlRow[]>;
  /** Changes after generation `since`, by generation and id, after the `after` key. */
  pending(since: number, after: { gen: number; id: number }, limit: number): Promise<PendingRow[]>;
  /** Changes after generation `since`, counted by kind. */
  countPending(since: number): Promise<Record<PendingRow['change'], number>>;
  /** Tombstones removed after generation `since`. */
  countRemovedSince(since: number): Promise<number>;
  /** Deletes tombstones removed before `before` whose removal has been published (generation ≤ `published`). */
  purge(before: string, published: number): Promise<number>;
  files(): Promise<FileRow[]>;
  /** Writes these files (by id) and deletes those ids. */
  saveFiles(rows: readonly FileRow[], deleted: readonly number[]): Promise<void>;
  published(): Promise<PublishedRow[]>;
  setPublished(rows: readonly PublishedRow[]): Promise<void>;
  /** What splicing a child needs (store/splice.ts). */
  readonly layouts: LayoutStore;
  /**
   * The caller writes files for a while and waits for no answer: a backend may do deferred work
   * now (the SQLite worker thread builds the indexes of a bulk load while a first build's files
   * are written and flushed).
   */
  idle?(): void;
  close(): Promise<void>;
}
