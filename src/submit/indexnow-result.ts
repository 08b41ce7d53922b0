/** The outcome of one IndexNow POST: shared by the submission loop and the exchange. */
import type { SitemapkitError } from '../core/errors.js';

/** `submitted` (200), `accepted` (202: key validation pending), `failed`, or `dry-run`. */
export type IndexNowBatchStatus = 'submitted' | 'accepted' | 'failed' | 'dry-run';

/** The outcome of one POST (one host, at most 10,000 URLs). */
export interface IndexNowBatchResult {
  host: string;
  urls: number;
  status: IndexNowBatchStatus;
  /** The last HTTP status, when the engine answered. */
  httpStatus?: number;
  attempts: number;
  message: string;
  /** In a dry run: the URLs of the batch, so that only what would really be posted is shown. */
  urlList?: string[];
  /** Why it failed, with a stable code (`ERR_INDEXNOW`, or `ERR_HTTP` for the key file check). */
  error?: SitemapkitError;
}
