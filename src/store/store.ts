/**
 * `openStore`: the site store. It holds every URL of a site with its entry, section, file, content
 * hash, lastmod and times (see docs/store.md), and builds the published set incrementally. Each
 * call is one transaction: an import lands whole or not at all, and `syncAndBuild` is one unit (a
 * refused or failed build leaves the store as it was).
 */
import type { SitemapEntryInput } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { formatUtc } from '../core/lastmod.js';
import { normalizeEntry } from '../core/normalize.js';
import { buildTimeFrom } from '../writer/options.js';
import type { EntrySource } from '../writer/write-sitemaps.js';
import type { FileRow, KnownRow, StoreBackend } from './backend.js';
import { type BuildOptions, type BuildResult, buildStore, childName } from './build.js';
import {
  askedSettings,
  HEADER_RESERVE,
  type ImportOptions,
  keepRemovedMs,
  mergeSettings,
  type StoreOptions,
  type StoreSettings,
} from './options.js';
import { openPostgresBackend, postgresTarget } from './postgres-open.js';
import { readFileEntries, readFiles, type StoreFile, type StoreReads } from './read.js';
import { openReadOnly, refusedBackend } from './read-open.js';
import { Shards } from './shards.js';
import { BuildSpool } from './spool.js';
import { openSqliteStore } from './sqlite-thread.js';
import { compact, type ImportContext, type ImportCounts, Importer, removeRows } from './sync.js';

export type { BuildOptions, BuildResult, ImportCounts, ImportOptions, StoreFile, StoreOptions };

/** A URL as `list()` gives it. */
export interface StoredUrl {
  loc: string;
  /** The lastmod it is published with (the input's, or the time a change was observed). */
  lastmod?: string;
  section?: string;
  /** The file it lives in (`sitemap-00003.xml`, without `.gz`). */
  file?: string;
  firstSeen: string;
  /** Removal time, for tombstones. */
  removedAt?: string;
}

export interface StoreStats {
  live: number;
  /** Removed URLs kept as tombstones. */
  removed: number;
  sections: Array<{ section: string; urls: number; files: number }>;
  files: Array<{ path: string; section: string; urls: number; bytes: number; news: number }>;
  /** URL changes not yet published. */
  pending: { added: number; changed: number; removed: number };
  /** The last build that published, if any. */
  lastBuild?: {
    at: string;
    outDir: string;
    urls: number;
    added: number;
    changed: number;
    removed: number;
    files: number;
    rewritten: number;
    deleted: number;
  };
  settings: StoreSettings;
}

const POSTGRES = /^postgres(?:ql)?:\/\//i;

const SETTING_KEYS = [
  'baseUrl',
  'format',
  'extensions',
  'maxUrlsPerFile',
  'maxBytesPerFile',
  'maxNewsPerFile',
] as const;

export class SiteStore {
  readonly path: string;
  readonly #b: StoreBackend;
  readonly #o: StoreOptions;
  readonly #keepMs: number;
  #settings: StoreSettings;
  #closed = false;
  readonly #reads: StoreReads;

  constructor(
    path: string,
    backend: StoreBackend,
    settings: StoreSettings,
    options: StoreOptions,
    reads: StoreReads = backend.reads(),
  ) {
    this.path = path;
    this.#b = backend;
    this.#reads = reads;
    this.#settings = settings;
    this.#o = options;
    this.#keepMs = keepRemovedMs(options.keepRemoved);
  }

  get settings(): StoreSettings {
    return { ...this.#settings, extensions: [...this.#settings.extensions] };
  }

  #check(write = true): void {
    if (this.#closed)
      throw new SitemapkitError('ERR_STATE', 'the site store is closed', { where: this.path });
    if (write && this.#o.readOnly === true)
      throw new SitemapkitError('ERR_STATE', 'the site store was opened read-only', {
        where: this.path,
        hint: 'open it without readOnly to change it (one writer at a time)',
      });
  }

  /**
   * The live files, as a build publishes them (names without extension, in index order), with a
   * version each that changes exactly when the file's content does, and the store's generation.
   * `ERR_BUSY` on a read-only SQLite store that a writer holds right now (retryable).
   */
  async files(): Promise<{ generation: number; files: StoreFile[] }> {
    this.#check(false);
    return readFiles(this.#reads);
  }

  /**
   * The store's generation: it moves with every write (what `storeSource` gives the handler as its
   * version). A read-only SQLite store answers from the file's times while nothing changed.
   */
  async generation(): Promise<number> {
    this.#check(false);
    const r = this.#reads;
    return r.generation === undefined ? (await r.files()).generation : r.generation();
  }

  /**
   * The entries of one file (a name `files()` gave), in file order, read a page at a time.
   * `ERR_BUSY` when a writer holds the store, or changed it during the read (read again).
   */
  fileEntries(name: string): AsyncGenerator<SitemapEntryInput, void, undefined> {
    this.#check(false);
    return readFileEntries(this.#reads, name, this.path);
  }

  async #step(name: string): Promise<void> {
    if (name === 'build:published') this.#published = true;
    await this.#o.onStep?.(name);
  }

  /** Set once a build's files are in place: from then on a failure is the store's record alone. */
  #published = false;

  /**
   * A transaction around a build. The files are published before the store records them (in the
   * same transaction); a failure after that (the connection lost at COMMIT, a full disk) must not
   * be reported as if nothing had happened: the set is live and the next build converges.
   */
  async #publishing<T>(outDir: string, fn: () => Promise<T>): Promise<T> {
    this.#published = false;
    try {
      return await this.#b.transaction(fn);
    } catch (cause) {
      if (!this.#published) throw cause;
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new SitemapkitError(
        'ERR_STATE',
        `the sitemaps in ${outDir} were published, but the site store could not record it: ${why}`,
        {
          where: this.path,
          cause,
          hint: 'run the same build again: it checks the published files against the store, rewrites what differs and records them',
        },
      );
    } finally {
      this.#published = false;
    }
  }

  #now(): string {
    return formatUtc(buildTimeFrom(this.#o.now));
  }

  /** A write: a new generation, the shard planner, and the settings saved. */
  async #write<T>(fn: (c: ImportContext) => Promise<T>, spool?: BuildSpool): Promise<T> {
    const b = this.#b;
    const gen = Number((await b.getMeta('generation')) ?? '0') + 1;
    const s = this.#settings;
    const shards = new Shards(
      await b.files(),
      { maxUrls: s.maxUrlsPerFile, maxBytes: s.maxBytesPerFile - HEADER_RESERVE, maxNews: s.maxNewsPerFile },
      gen,
    );
    const now = this.#now();
    const c: ImportContext = {
      backend: b,
      shards,
      settings: s,
      gen,
      published: Number((await b.getMeta('published')) ?? '0'),
      now,
      step: (n) => this.#step(n),
      spool,
    };
    const out = await fn(c);
    await compact(c);
    const { rows, deleted } = shards.changes();
    await b.saveFiles(rows, deleted);
    await b.purge(formatUtc(new Date(Date.parse(now) - this.#keepMs)), c.published);
    for (const key of SETTING_KEYS) {
      const v = s[key];
      if (v !== undefined) await b.setMeta(`setting.${key}`, JSON.stringify(v));
    }
    await b.setMeta('generation', String(gen));
    await this.#step('import:applied');
    return out;
  }

  /** Adds or updates entries (one transaction); nothing is removed. */
  async add(entries: EntrySource, options: ImportOptions = {}): Promise<ImportCounts> {
    this.#check();
    return this.#b.transaction(() =>
      this.#write(async (c) => {
        const im = new Importer(c, options);
        await im.read(entries);
        return im.counts;
      }),
    );
  }

  /** Synchronises the store with the whole set: new and changed entries in, the others removed. */
  async sync(entries: EntrySource, options: ImportOptions = {}): Promise<ImportCounts> {
    this.#check();
    return this.#b.transaction(() => this.#sync(entries, options));
  }

  #sync(entries: EntrySource, options: ImportOptions, spool?: BuildSpool): Promise<ImportCounts> {
    return this.#write(async (c) => {
      const im = new Importer(c, options);
      await im.read(entries);
      await im.removeUnseen();
      return im.counts;
    }, spool);
  }

  /** Removes URLs (tombstones until the removal is published and `keepRemoved` has passed). */
  async remove(
    locs: Iterable<string> | AsyncIterable<string>,
  ): Promise<{ removed: number; unknown: number }> {
    this.#check();
    return this.#b.transaction(() =>
      this.#write(async (c) => {
        let removed = 0;
        let unknown = 0;
        let batch: string[] = [];
        const flush = async (): Promise<void> => {
          const found = await c.backend.lookup(batch);
          const live: KnownRow[] = [];
          for (const loc of batch) {
            const r = found.get(loc);
            if (r === undefined || r.file === null) unknown++;
            else live.push(r);
          }
          removed += await removeRows(c, live);
          batch = [];
        };
        const seen = new Set<string>();
        for await (const raw of locs) {
          const loc = this.#canonical(raw);
          if (seen.has(loc)) continue;
          seen.add(loc);
          batch.push(loc);
          if (batch.length >= 1000) await flush();
        }
        if (batch.length > 0) await flush();
        return { removed, unknown };
      }),
    );
  }

  /** A loc as the store keys it (the writer's serialised form of the URL). */
  #canonical(raw: string): string {
    const r = normalizeEntry({ loc: raw.trim() });
    return r.ok ? r.entry.loc : raw.trim();
  }

  /** Builds from the store and publishes (one transaction: the store records it only once published). */
  async build(options: BuildOptions): Promise<BuildResult> {
    this.#check();
    return this.#publishing(options.outDir, () => this.#build(options));
  }

  /** `sync` then `build` as one unit: a refused or failed build leaves the store as it was. */
  async syncAndBuild(
    entries: EntrySource,
    options: BuildOptions & ImportOptions,
  ): Promise<BuildResult & { import: ImportCounts }> {
    this.#check();
    // A first import keeps its texts for the build (store/spool.ts): beside an SQLite store.
    const spool = BuildSpool.create(this.path, !POSTGRES.test(this.path));
    try {
      return await this.#publishing(options.outDir, async () => {
        const counts = await this.#sync(entries, options, spool);
        return { ...(await this.#build(options, spool)), import: counts };
      });
    } finally {
      spool.dispose();
    }
  }

  async #build(options: BuildOptions, spool?: BuildSpool): Promise<BuildResult> {
    const b = this.#b;
    const result = await buildStore(
      {
        backend: b,
        settings: this.#settings,
        gen: Number((await b.getMeta('generation')) ?? '0'),
        published: Number((await b.getMeta('published')) ?? '0'),
        publishedUrls: Number((await b.getMeta('publishedUrls')) ?? '0'),
        now: this.#now(),
        step: (n) => this.#step(n),
        spool,
      },
      options,
    );
    await b.purge(
      formatUtc(new Date(Date.parse(result.builtAt) - this.#keepMs)),
      Number((await b.getMeta('published')) ?? '0'),
    );
    return result;
  }

  /** Live URLs (or, with `removed`, the tombstones), in the order they were added. */
  async *list(options: { removed?: boolean } = {}): AsyncGenerator<StoredUrl> {
    this.#check(false);
    const names = new Map<number, string>();
    const ext = this.#settings.format;
    for (const f of await this.#b.files()) names.set(f.id, childName(f, ext));
    let after = 0;
    for (;;) {
      const page =
        options.removed === true
          ? await this.#b.tombstones(after, 1000)
          : await this.#b.liveRows(after, 1000);
      if (page.length === 0) return;
      for (const r of page) {
        const out: StoredUrl = { loc: r.loc, firstSeen: r.firstSeen };
        const lastmod = r.inputLastmod ?? r.changedAt;
        if (lastmod !== null) out.lastmod = lastmod;
        if (r.section !== '') out.section = r.section;
        if (r.file !== null) out.file = names.get(r.file) ?? '';
        if (r.removedAt !== null) out.removedAt = r.removedAt;
        yield out;
      }
      after = page.at(-1)!.id;
    }
  }

  async stats(): Promise<StoreStats> {
    this.#check(false);
    const b = this.#b;
    const files: FileRow[] = await b.files();
    const sections = new Map<string, { urls: number; files: number }>();
    for (const f of files) {
      const s = sections.get(f.section) ?? { urls: 0, files: 0 };
      s.urls += f.urls;
      s.files++;
      sections.set(f.section, s);
    }
    const pending = await b.countPending(Number((await b.getMeta('published')) ?? '0'));
    const removed = await b.countRemovedSince(-1);
    const last = await b.getMeta('lastBuild');
    const out: StoreStats = {
      live: files.reduce((n, f) => n + f.urls, 0),
      removed,
      sections: [...sections].map(([section, v]) => ({ section, ...v })),
      files: files.map((f) => ({
        path: childName(f, this.#settings.format),
        section: f.section,
        urls: f.urls,
        bytes: f.bytes,
        news: f.news,
      })),
      pending,
      settings: this.settings,
    };
    if (last !== undefined) out.lastBuild = JSON.parse(last) as NonNullable<StoreStats['lastBuild']>;
    return out;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#b.close();
  }
}

/**
 * Opens the site store at `path`: an SQLite file (created when missing), or a PostgreSQL schema
 * given as `postgres://USER:PASSWORD@HOST:PORT/DATABASE?schema=NAME` (created when missing;
 * `sitemapkit` by default). Locked for this process until `close()`. Throws `ERR_STATE` (locked,
 * not a store, cannot connect) or `ERR_OPTIONS` (a setting that differs from the store's).
 */
export async function openStore(path: string, options: StoreOptions = {}): Promise<SiteStore> {
  if (typeof path !== 'string' || path === '')
    throw new SitemapkitError('ERR_OPTIONS', 'openStore needs the path of the store file');
  const pg = POSTGRES.test(path) ? postgresTarget(path) : undefined;
  const asked = askedSettings(options);
  keepRemovedMs(options.keepRemoved);
  // A wrong type would quietly mean the default (a write to a store meant read-only).
  for (const key of ['readOnly', 'worker'] as const) {
    const v: unknown = options[key];
    if (v !== undefined && typeof v !== 'boolean')
      throw new SitemapkitError(
        'ERR_OPTIONS',
        `openStore's ${key} must be true or false, got ${JSON.stringify(v)}`,
      );
  }
  if (options.readOnly === true) {
    const r = await openReadOnly(path, pg);
    const stored: Partial<StoreSettings> = {};
    for (const key of SETTING_KEYS) {
      const v = r.meta.get(`setting.${key}`);
      if (v !== undefined) (stored as Record<string, unknown>)[key] = JSON.parse(v);
    }
    const name = pg?.shown ?? path;
    try {
      const settings = mergeSettings(stored, asked, name);
      return new SiteStore(name, refusedBackend(name, r.close), settings, options, r.reads);
    } catch (error) {
      await r.close();
      throw error;
    }
  }
  const backend =
    pg === undefined
      ? await openSqliteStore(path, { worker: options.worker, onStep: options.onStep })
      : await openPostgresBackend(pg);
  try {
    const stored: Partial<StoreSettings> = {};
    for (const key of SETTING_KEYS) {
      const v = await backend.getMeta(`setting.${key}`);
      if (v !== undefined) (stored as Record<string, unknown>)[key] = JSON.parse(v);
    }
    // A PostgreSQL store is named without its password, in messages and in `path`.
    const name = pg?.shown ?? path;
    return new SiteStore(name, backend, mergeSettings(stored, asked, name), options);
  } catch (error) {
    await backend.close();
    throw error;
  }
}
