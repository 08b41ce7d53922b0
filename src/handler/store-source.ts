/**
 * `storeSource(store)`: the options that make `createSitemapHandler` serve a site store's own
 * files, under the names a store build publishes (`generate --store`), so that children keep
 * their URLs as the site changes. The version is the store's generation (it moves with every
 * write), and each child carries its file's own version, so a child that a write did not touch
 * keeps its ETag and its cached bytes.
 */
import type { SitemapEntryInput } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import type { StoreFile } from '../store/read.js';
import type { Extension } from '../writer/serialize.js';
import type { FileSource } from './types.js';

/** What `storeSource` reads of a store: a `SiteStore`, opened read-only or not. */
export interface ServableStore {
  readonly path: string;
  readonly settings: { baseUrl: string | undefined; extensions: readonly Extension[] };
  files(): Promise<{ generation: number; files: StoreFile[] }>;
  generation(): Promise<number>;
  fileEntries(name: string): AsyncIterable<SitemapEntryInput>;
}

/** Options for `createSitemapHandler`, to spread (and override) in its options bag. */
export interface StoreSourceOptions {
  /** The store's base URL: its entries lie under it. */
  baseUrl: string;
  source: FileSource;
  /** The store's generation. */
  version: () => Promise<number>;
  /** The store's declared namespaces, so that a child's bytes are a store build's. */
  extensions: readonly Extension[];
}

/**
 * The handler options serving `store` (see docs/serving.md, "From a site store"). Throws
 * `ERR_OPTIONS` for a store that has no base URL yet (nothing was ever imported).
 */
export function storeSource(store: ServableStore): StoreSourceOptions {
  const { baseUrl, extensions } = store.settings;
  if (baseUrl === undefined)
    throw new SitemapkitError('ERR_OPTIONS', 'this site store has no base URL yet: import into it first', {
      where: store.path,
    });
  return {
    baseUrl,
    extensions: [...extensions],
    source: {
      files: async () => (await store.files()).files.map((f) => ({ name: f.name, version: f.version })),
      entries: (name) => store.fileEntries(name),
    },
    version: () => store.generation(),
  };
}
