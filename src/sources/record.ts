import type { RecordOrigin } from '../writer/batches.js';
import type { ORIGIN } from '../writer/write-sitemaps.js';

/** A record as the writer receives it: an entry input, or anything (the writer reports what is wrong). */
export type SourceRecord = Record<string, unknown> & { [ORIGIN]?: RecordOrigin };
