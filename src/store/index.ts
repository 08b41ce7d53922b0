/** `sitemapkit/store`: the site store, stable shards and incremental builds. */
export type { FileRow, NewUrlRow, PendingRow, PublishedRow, StoreBackend, UrlRow } from './backend.js';
export type { BuildOptions, BuildResult, BuiltFile } from './build.js';
export type { ImportOptions, MaxDrop, StoreOptions, StoreSettings } from './options.js';
export type { StoreFile } from './read.js';
export { openStore, SiteStore, type StoredUrl, type StoreStats } from './store.js';
export type { ImportCounts } from './sync.js';
