export {
  MANIFEST_NAME,
  type ManifestEntry,
  type ManifestFile,
  type ManifestHeader,
  readManifestEntries,
  readManifestHeader,
} from './manifest.js';
export type { WriteSitemapsOptions } from './options.js';
export { updateRobotsText } from './robots-line.js';
export type { Extension } from './serialize.js';
export {
  ORIGIN,
  type RecordOrigin,
  UnreadableRecord,
  type WriteSitemapsResult,
  type WrittenFile,
  writeSitemaps,
} from './write-sitemaps.js';
