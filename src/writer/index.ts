/** Writing sitemaps: the entry model and its normalisation, the pure engine, the sinks, `writeSitemaps()`. */
export type * from '../core/entry.js';
export * from '../core/limits.js';
export {
  type EntryProblem,
  type NormalizeOptions,
  type NormalizeResult,
  normalizeEntry,
} from '../core/normalize.js';
export {
  type ClosedFile,
  type EngineEvents,
  type EngineFile,
  type EngineOptions,
  SitemapEngine,
} from './engine.js';
export { buildFeed, FEED_NAME, type FeedDocumentOptions, type FeedText } from './feed.js';
export { DEFAULT_FEED_SIZE, type FeedItem, type FeedOptions, MAX_FEED_SIZE } from './feed-options.js';
export { LASTMOD_MIN_URLS, LASTMOD_NEAR_MS, type LastmodPolicy } from './lastmod-policy.js';
export {
  MANIFEST_NAME,
  type ManifestEntry,
  type ManifestFile,
  type ManifestHeader,
  readManifestEntries,
  readManifestHeader,
} from './manifest.js';
export { MemorySink } from './memory-sink.js';
export type { WriterOutput, WriteSitemapsOptions } from './options.js';
export { updateRobotsText } from './robots-line.js';
export type { Extension } from './serialize.js';
export type { CommitFile, CommitPlan, RobotsUpdate, Sink, SinkFile, SinkStart } from './sink.js';
export { type StreamFactory, WebStreamSink } from './web-stream-sink.js';
export {
  type EntrySource,
  ORIGIN,
  type RecordOrigin,
  UnreadableRecord,
  type UntypedRecords,
  untypedRecords,
  type WriteSitemapsResult,
  type WrittenFile,
  writeSitemaps,
} from './write-sitemaps.js';
