export type { ClosedFile, EngineEvents, EngineFile, EngineOptions } from './engine.js';
export {
  MANIFEST_NAME,
  type ManifestEntry,
  type ManifestFile,
  type ManifestHeader,
  readManifestEntries,
  readManifestHeader,
} from './manifest.js';
export type { WriterOutput, WriteSitemapsOptions } from './options.js';
export { updateRobotsText } from './robots-line.js';
export type { Extension } from './serialize.js';
export type { CommitFile, CommitPlan, RobotsUpdate, Sink, SinkFile, SinkStart } from './sink.js';
export type { StreamFactory } from './web-stream-sink.js';
export {
  ORIGIN,
  type RecordOrigin,
  UnreadableRecord,
  type WriteSitemapsResult,
  type WrittenFile,
  writeSitemaps,
} from './write-sitemaps.js';
