/** Writer inputs: URL lists (txt, CSV, JSON Lines) and static site folders, as async iterables of records. */
export type { CsvOptions } from './csv.js';
export { readSql, redactDatabaseUrl, type SqlOptions } from './sql.js';
export { readStaticSite, type StaticSiteOptions } from './static-site.js';
export {
  formatFromName,
  type InputFormat,
  type InputOptions,
  readCsv,
  readInput,
  readJsonl,
  readTxt,
  type SourceRecord,
  type TextInputOptions,
} from './url-lists.js';
