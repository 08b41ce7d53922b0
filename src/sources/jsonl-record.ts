/**
 * One JSONL line as a record, on its own: the JSONL reader's worker (`jsonl-worker.ts`) imports
 * this and not `url-lists.ts`, whose imports (the whole writer, the CSV reader) took the worker's
 * start, on the way to the first batch, from about 20 to about 50 ms.
 */
import { UnreadableRecord } from '../writer/intake.js';
import type { SourceRecord } from './record.js';

/** Keys people write for the URL of an entry, letter case aside. */
const LOC_LIKE = new Set(['loc', 'url', 'link', 'href', 'uri', 'location', 'address', 'page', 'permalink']);

/**
 * A JSONL line's URL field: `url` is read as `loc` (as in CSV); a near-miss (`Loc`, `link`, …)
 * without a `loc` is unreadable with a suggestion, rather than "loc is missing" beside an
 * "unknown field" warning that leaves the reader to connect the two.
 */
function locField(v: SourceRecord): SourceRecord | UnreadableRecord {
  if ('loc' in v) return v;
  if ('url' in v) {
    const { url, ...rest } = v;
    return { loc: url, ...rest };
  }
  const near = Object.keys(v).find((k) => LOC_LIKE.has(k.toLowerCase()));
  if (near !== undefined)
    return new UnreadableRecord(`the entry has no "loc" field but has "${near}": did you mean loc?`);
  return v;
}

/**
 * One JSONL line as a record: undefined for a blank line, an `UnreadableRecord` for a line that is
 * not a JSON object (the writer reports it like any other invalid record).
 */
export function jsonlRecord(raw: string): SourceRecord | UnreadableRecord | undefined {
  if (raw.trim() === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch (e) {
    return new UnreadableRecord(`the line is not valid JSON (${(e as Error).message})`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return new UnreadableRecord(
      'the line is not a JSON object; each line must be one entry such as {"loc": "https://…"}',
    );
  }
  return locField(v as SourceRecord);
}
