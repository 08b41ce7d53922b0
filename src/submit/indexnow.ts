/**
 * IndexNow bulk submission (indexnow.org/documentation, PROTOCOL.md §5): URLs are grouped by host,
 * each host is checked to serve its key file, then posted to one endpoint (engines share what
 * they receive) in batches of at most 10,000, retrying 429 and 5xx with the HTTP layer's retry
 * policy (exponential backoff that honours `Retry-After`). Network, sleep and clock are injected;
 * one exchange is in `indexnow-post.ts`.
 */
import { wholeNumber } from '../core/checks.js';
import { SitemapkitError } from '../core/errors.js';
import type { AddressPolicy } from '../http/address.js';
import { type ApiHttp, type ApiHttpOptions, apiHttp } from './api-http.js';
import { type PostContext, postBatch, verifyKeyFile } from './indexnow-post.js';
import type { IndexNowBatchResult } from './indexnow-result.js';
import type { JournalReport, SubmissionJournal } from './journal.js';
import { assertValidKey } from './key.js';

export type { IndexNowBatchResult, IndexNowBatchStatus } from './indexnow-result.js';

/** URLs per POST: the protocol's maximum. */
export const INDEXNOW_MAX_URLS = 10_000;

/** A key and, optionally, where its file lives when not at the host root. */
export interface IndexNowKey {
  key: string;
  /** Absolute URL of the key file on the same host; URLs must then lie in its folder. */
  keyLocation?: string;
}

/** Options of {@link submitToIndexNow}. */
export interface IndexNowOptions extends ApiHttpOptions {
  /** The engine's endpoint, e.g. `https://api.indexnow.org/indexnow`; a bare origin gets `/indexnow`. */
  endpoint: string;
  /** The key for every host without an entry in `keys`. */
  key?: string;
  /** Where the key file of `key` is, when not at `https://HOST/KEY.txt` (used for its own host). */
  keyLocation?: string;
  /** Keys per host (`www.example.com` or `host:port`): each host proves its own key. */
  keys?: Record<string, string | IndexNowKey>;
  /** See `ParseOptions.addressPolicy`; the endpoint and the key files count as starts. @default 'default' */
  addressPolicy?: AddressPolicy;
  /** Check that each host serves its key file before posting. @default true */
  verifyKey?: boolean;
  /** URLs per POST, 1 to 10,000. @default 10000 */
  batchSize?: number;
  /** Check the key files and form the batches, but post nothing. @default false */
  dryRun?: boolean;
  /** Called after each batch (progress, printing). */
  onBatch?: (batch: IndexNowBatchResult) => void;
  /**
   * The submission journal of the `indexnow` channel: what earlier runs kept is posted first,
   * each settled batch (200, 202, or refused for good: 400, 422) is recorded before the next is
   * posted, and the rest (403, 429, 5xx, a failed key check, a crash) stays for the next run.
   */
  journal?: SubmissionJournal;
}

/** A URL that was not submitted, and why. */
export interface IndexNowInvalidUrl {
  url: string;
  reason: string;
}

/** What {@link submitToIndexNow} did. */
export interface IndexNowReport {
  endpoint: string;
  batches: IndexNowBatchResult[];
  /** URLs in batches answered 200 or 202 (or, in a dry run, that would be posted). */
  submitted: number;
  /** URLs in failed batches. */
  failed: number;
  /** URLs left out before posting (not http(s), no key for the host, outside keyLocation's folder). */
  invalidCount: number;
  /** The first 100 of them. */
  invalid: IndexNowInvalidUrl[];
  /** Each host's key file URL and whether it was verified. */
  hosts: Array<{ host: string; keyFile: string; verified: boolean | undefined }>;
  /** With a journal: its file, what earlier runs had kept, and what it keeps for the next run. */
  journal?: JournalReport;
}

/** Whether a batch is done with: accepted, or refused in a way another try would not change. */
function settledBatch(b: IndexNowBatchResult): boolean {
  if (b.status === 'submitted' || b.status === 'accepted') return true;
  return b.status === 'failed' && (b.httpStatus === 400 || b.httpStatus === 422);
}

interface HostState {
  host: string;
  key: string;
  keyLocation: string | undefined;
  keyFile: string;
  scope: string | undefined;
  buffer: string[];
  verified: boolean | undefined;
  verifyError: SitemapkitError | undefined;
}

/** `https://api.indexnow.org` → `https://api.indexnow.org/indexnow`; validates the URL. */
export function indexNowEndpoint(endpoint: string): string {
  let u: URL;
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(endpoint) ? endpoint : `https://${endpoint}`);
  } catch (cause) {
    throw new SitemapkitError('ERR_OPTIONS', `"${endpoint}" is not a URL`, {
      cause,
      hint: 'e.g. https://api.indexnow.org/indexnow',
    });
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw new SitemapkitError('ERR_OPTIONS', `the IndexNow endpoint must be http(s), not ${u.protocol}`, {
      where: endpoint,
    });
  }
  if (u.pathname === '/') u.pathname = '/indexnow';
  return u.href;
}

function batchSizeOf(options: IndexNowOptions): number {
  return wholeNumber('batchSize', options.batchSize, INDEXNOW_MAX_URLS, { min: 1, max: INDEXNOW_MAX_URLS });
}

/**
 * Submits URLs to an IndexNow endpoint. Resolves with a report of every batch; a rejected batch
 * is a `failed` result with an error, not an exception. Throws `ERR_OPTIONS` for bad options and
 * `ERR_ABORTED` when `signal` aborts.
 *
 * @example
 * const report = await submitToIndexNow(['https://www.example.com/new'], {
 *   endpoint: 'https://api.indexnow.org/indexnow',
 *   key: '3f2b9c1d4e5a6b7c8d9e0f1a2b3c4d5e',
 * });
 */
export async function submitToIndexNow(
  urls: Iterable<string> | AsyncIterable<string>,
  options: IndexNowOptions,
): Promise<IndexNowReport> {
  const endpoint = indexNowEndpoint(options.endpoint);
  const batchSize = batchSizeOf(options);
  const http = apiHttp(options, { maxRetryAfterMs: 3_600_000 });
  http.client.start(endpoint);
  try {
    return await submitWith(http, endpoint, batchSize, urls, options);
  } finally {
    await http.client.close();
  }
}

async function submitWith(
  http: ApiHttp,
  endpoint: string,
  batchSize: number,
  urls: Iterable<string> | AsyncIterable<string>,
  options: IndexNowOptions,
): Promise<IndexNowReport> {
  const { client } = http;
  if (options.key !== undefined) assertValidKey(options.key, '--key');
  const perHost = new Map<string, IndexNowKey>();
  for (const [host, k] of Object.entries(options.keys ?? {})) {
    const entry = typeof k === 'string' ? { key: k } : k;
    assertValidKey(entry.key, `key of ${host}`);
    perHost.set(host.toLowerCase(), entry);
  }
  if (options.key === undefined && perHost.size === 0) {
    throw new SitemapkitError('ERR_OPTIONS', 'no IndexNow key given', {
      hint: 'pass key (one for every host) or keys (per host)',
    });
  }
  let defaultLocation: URL | undefined;
  if (options.keyLocation !== undefined) {
    try {
      defaultLocation = new URL(options.keyLocation);
    } catch (cause) {
      throw new SitemapkitError(
        'ERR_OPTIONS',
        `keyLocation "${options.keyLocation}" is not an absolute URL`,
        { cause },
      );
    }
  }

  const report: IndexNowReport = {
    endpoint,
    batches: [],
    submitted: 0,
    failed: 0,
    invalidCount: 0,
    invalid: [],
    hosts: [],
  };
  const hosts = new Map<string, HostState | null>();
  const journal = options.journal;
  const journaling = journal !== undefined && options.dryRun !== true;
  // URLs left out are refused for good: settled in the journal with the next batch.
  const dropped: string[] = [];
  const reject = (url: string, reason: string): void => {
    report.invalidCount++;
    if (report.invalid.length < 100) report.invalid.push({ url, reason });
    if (journaling) dropped.push(url);
  };
  if (journal !== undefined) {
    report.journal = { path: journal.path, fromEarlier: journal.state.pending };
    urls = await journal.plan(urls, options.dryRun === true);
  }
  // A function, not an inline test: TypeScript would keep a narrowing of `aborted` across awaits.
  const isAborted = (): boolean => options.signal?.aborted === true;
  const aborted = (): SitemapkitError =>
    new SitemapkitError('ERR_ABORTED', 'IndexNow submission aborted', { where: endpoint });

  const hostFor = (u: URL): HostState | null => {
    const name = u.host.toLowerCase();
    let state = hosts.get(name);
    if (state !== undefined) return state;
    const entry =
      perHost.get(name) ??
      perHost.get(u.hostname.toLowerCase()) ??
      (options.key === undefined ? undefined : { key: options.key });
    if (entry === undefined) {
      hosts.set(name, null);
      return null;
    }
    let location = entry.keyLocation;
    if (
      location === undefined &&
      defaultLocation !== undefined &&
      defaultLocation.host.toLowerCase() === name &&
      entry.key === options.key
    ) {
      location = defaultLocation.href;
    }
    const keyFile = location ?? `${u.protocol}//${u.host}/${entry.key}.txt`;
    // The hosts whose URLs are submitted are the caller's own: their key files are starts.
    client.start(keyFile);
    state = {
      host: name,
      key: entry.key,
      keyLocation: location,
      keyFile,
      scope: location === undefined ? undefined : location.slice(0, location.lastIndexOf('/') + 1),
      buffer: [],
      verified: undefined,
      verifyError: undefined,
    };
    hosts.set(name, state);
    report.hosts.push({ host: name, keyFile, verified: undefined });
    return state;
  };

  const ctx: PostContext = { ...http, endpoint };

  const verify = async (h: HostState): Promise<void> => {
    if (h.verified !== undefined || options.verifyKey === false) return;
    const problem = await verifyKeyFile(ctx, h.keyFile, h.key);
    h.verified = problem === undefined;
    const entry = report.hosts.find((x) => x.host === h.host);
    if (entry !== undefined) entry.verified = h.verified;
    if (problem !== undefined) {
      h.verifyError = new SitemapkitError('ERR_HTTP', `key file check failed: ${h.keyFile}: ${problem}`, {
        where: h.keyFile,
        hint: 'publish the file made by `sitemapkit submit key --out DIR` at the site root, then submit again',
      });
    }
  };

  const post = async (h: HostState, urlList: string[]): Promise<IndexNowBatchResult> => {
    const base = {
      host: h.host,
      urls: urlList.length,
      ...(options.dryRun === true ? { urlList } : {}),
    };
    await verify(h);
    if (h.verifyError !== undefined) {
      return { ...base, status: 'failed', attempts: 0, message: h.verifyError.message, error: h.verifyError };
    }
    if (options.dryRun === true) {
      return {
        ...base,
        status: 'dry-run',
        attempts: 0,
        message: `would post ${urlList.length} URL(s) for ${h.host}`,
      };
    }
    return postBatch(ctx, h, urlList);
  };

  const flush = async (h: HostState): Promise<void> => {
    const list = h.buffer;
    h.buffer = [];
    const result = await post(h, list);
    if (journaling)
      await journal!.settle(settledBatch(result) ? [...dropped.splice(0), ...list] : dropped.splice(0));
    report.batches.push(result);
    if (result.status === 'failed') report.failed += result.urls;
    else report.submitted += result.urls;
    options.onBatch?.(result);
  };

  for await (const raw of urls) {
    if (isAborted()) throw aborted();
    const url = raw.trim();
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      reject(url, 'not an absolute URL');
      continue;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      reject(url, `${u.protocol} URLs cannot be submitted`);
      continue;
    }
    const h = hostFor(u);
    if (h === null) {
      reject(url, `no key for ${u.host}: pass one with key or keys`);
      continue;
    }
    if (h.scope !== undefined && !u.href.startsWith(h.scope)) {
      reject(
        url,
        `outside ${h.scope}, the folder of the key file (a keyLocation key covers only its folder)`,
      );
      continue;
    }
    h.buffer.push(u.href);
    if (h.buffer.length >= batchSize) await flush(h);
  }
  for (const h of hosts.values()) if (h !== null && h.buffer.length > 0) await flush(h);
  if (journaling) {
    await journal!.settle(dropped.splice(0));
    report.journal!.kept = await journal!.finish();
  }
  return report;
}
