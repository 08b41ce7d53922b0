/** Writer inputs: URL lists (txt, CSV, JSON Lines) and static site folders, as async iterables of records. */
export { readStaticSite, type StaticSiteOptions } from './static-site.js';
export {
  formatFromName,
  type InputFormat,
  readCsv,
  readInput,
  readJsonl,
  readTxt,
  type SourceRecord,
} from './url-lists.js';
