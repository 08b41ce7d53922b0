/**
 * `storeSource(store)`: the options that make `createSitemapHandler` serve a site store's own
 * files, under the names a store build publishes (`generate --store`), so that children keep
 * their URLs as the site changes. The version is the store's generation (it moves with every
 * write), and each child carries its file's own version, so a child that a write did not touch
 * keeps its ETag and its cached bytes.
 *
 * The news window is applied as a store build applies it: a news entry published before the
 * window is served without its `<news:news>` block. A block falls out of the window with time, not
 * with a write, so each file read remembers when its oldest remaining block expires (as a build
 * keeps `newsDue` per file); once that time has passed, the set's version and that file's version
 * move on, and only that file is generated again.
 */
import type { SitemapEntryInput } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import type { StoreFile } from '../store/read.js';
import { resolveNewsWindow } from '../writer/news-window.js';
import type { Extension } from '../writer/serialize.js';
import type { FileSource } from './types.js';

/** What `storeSource` reads of a store: a `SiteStore`, opened read-only or not. */
export interface ServableStore {
  readonly path: string;
  readonly settings: {
    baseUrl: string | undefined;
    extensions: readonly Extension[];
    /** The format its builds write (`txt`: children as text, the index as XML). @default 'xml' */
    format?: 'xml' | 'txt';
  };
  files(): Promise<{ generation: number; files: StoreFile[] }>;
  generation(): Promise<number>;
  fileEntries(name: string): AsyncIterable<SitemapEntryInput>;
}

/** Options of {@link storeSource}. */
export interface StoreServeOptions {
  /**
   * News entries published before this window lose their `<news:news>` block, as in a store
   * build (`generate --store --news-window`): a duration (`'2d'`, `'48h'`, milliseconds), or
   * `false` to keep every block. @default '2d'
   */
  newsWindow?: string | number | false;
  /** The clock of the news window. @default () => new Date() */
  now?: () => Date;
}

/** Options for `createSitemapHandler`, to spread (and override) in its options bag. */
export interface StoreSourceOptions {
  /** The store's base URL: its entries lie under it. */
  baseUrl: string;
  source: FileSource;
  /** The store's generation (and, with news, how many news blocks have expired since). */
  version: () => Promise<number | string>;
  /** The store's declared namespaces, so that a child's bytes are a store build's. */
  extensions: readonly Extension[];
  /** The store's format, so that its files are served under the names and types a build writes. */
  format: 'xml' | 'txt';
}

/** Per file name: when its oldest served news block leaves the window, and how often one has. */
interface NewsState {
  due: number | undefined;
  expired: number;
}

/**
 * The handler options serving `store` (see docs/serving.md, "From a site store"). Throws
 * `ERR_OPTIONS` for a store that has no base URL yet (nothing was ever imported), or a bad option.
 */
export function storeSource(store: ServableStore, options: StoreServeOptions = {}): StoreSourceOptions {
  const { baseUrl, extensions, format = 'xml' } = store.settings;
  if (baseUrl === undefined)
    throw new SitemapkitError('ERR_OPTIONS', 'this site store has no base URL yet: import into it first', {
      where: store.path,
    });
  const windowMs = resolveNewsWindow(options.newsWindow);
  const now = options.now ?? (() => new Date());
  const news = new Map<string, NewsState>();
  // The soonest `due` of all files, and how many times a block has expired across them.
  let nextDue = Number.POSITIVE_INFINITY;
  let expiries = 0;

  /** Moves on every file whose due time has passed; called on every request, so one comparison at first. */
  const expire = (): void => {
    const cutoff = now().getTime() - windowMs;
    if (!(nextDue < cutoff)) return;
    nextDue = Number.POSITIVE_INFINITY;
    for (const s of news.values()) {
      if (s.due !== undefined && s.due < cutoff) {
        s.due = undefined;
        s.expired++;
        expiries++;
      } else if (s.due !== undefined && s.due < nextDue) nextDue = s.due;
    }
  };

  async function* entries(name: string): AsyncGenerator<SitemapEntryInput, void, undefined> {
    const cutoff = windowMs === 0 ? Number.NEGATIVE_INFINITY : now().getTime() - windowMs;
    let due = Number.POSITIVE_INFINITY;
    for await (const e of store.fileEntries(name)) {
      const date = e.news?.publication_date;
      if (date === undefined || windowMs === 0) {
        yield e;
        continue;
      }
      // Normalised at import: a W3C Datetime with a zone, or a plain date (UTC midnight).
      const ms = typeof date === 'string' ? Date.parse(date) : new Date(date).getTime();
      if (ms < cutoff) {
        const { news: _dropped, ...rest } = e;
        yield rest;
      } else {
        if (ms < due) due = ms;
        yield e;
      }
    }
    // Read to the end: these bytes hold blocks until `due`.
    const s = news.get(name) ?? { due: undefined, expired: 0 };
    s.due = Number.isFinite(due) ? due : undefined;
    news.set(name, s);
    if (s.due !== undefined && s.due < nextDue) nextDue = s.due;
  }

  return {
    baseUrl,
    extensions: [...extensions],
    format,
    source: {
      files: async () =>
        (await store.files()).files.map((f) => {
          const expired = news.get(f.name)?.expired ?? 0;
          // Dated as the build that published its current bytes dated it, while no news block
          // has expired from them since (then the handler dates it by when it saw the change).
          if (expired === 0) return { name: f.name, version: f.version, lastmod: f.lastmod };
          return { name: f.name, version: `${f.version}.${expired}` };
        }),
      entries,
    },
    version: async () => {
      const generation = await store.generation();
      expire();
      return expiries === 0 ? generation : `${generation}.${expiries}`;
    },
  };
}
