/**
 * Submitting to Bing Webmaster Tools: URL batches within the site's quota (`GetUrlSubmissionQuota`
 * first, never past it: what does not fit is kept for the next run), and sitemaps (`SubmitFeed`).
 * Each batch or sitemap is reported as it settles through `onBatch`, so that the submission
 * journal can record it before the next one is sent.
 */
import { SitemapkitError } from '../../core/errors.js';
import type { JournalReport, SubmissionJournal } from '../journal.js';
import {
  BING_MAX_BATCH,
  type BingError,
  type BingFeed,
  type BingQuota,
  type BingRequest,
  isOnSite,
} from './api.js';
import { BingClient, type BingOptions } from './client.js';

/** `submitted`: Bing accepted it. `failed`: Bing refused it or could not be reached. `kept`: not sent (quota, or a failure before it). `dry-run`. */
export type BingBatchStatus = 'submitted' | 'failed' | 'kept' | 'dry-run';

/** One `SubmitUrlBatch` or `SubmitFeed`, or URLs kept for the next run. */
export interface BingBatchResult {
  kind: 'urls' | 'sitemap';
  status: BingBatchStatus;
  /** URLs in it (1 for a sitemap). */
  urls: number;
  /** The URLs, or the sitemap URL. */
  urlList: string[];
  /**
   * Whether the batch is done with: accepted, or refused for good (a URL Bing will never take).
   * What is not settled is what a submission journal keeps for the next run.
   */
  settled: boolean;
  httpStatus?: number;
  attempts: number;
  message: string;
  error?: BingError | SitemapkitError;
  /** In a dry run: the request that would be sent, key redacted. */
  request?: BingRequest;
}

/** Options of {@link submitUrlsToBing} and {@link submitSitemapsToBing}. */
export interface BingSubmitOptions extends BingOptions {
  /** URLs per `SubmitUrlBatch`, 1 to 500 (also bounded by what is left of the quota). @default 500 */
  batchSize?: number;
  /** Build the requests and report them; send nothing (not even the quota request). @default false */
  dryRun?: boolean;
  /**
   * The submission journal of this channel (`bing-urls` or `bing-sitemaps`): what earlier runs
   * kept is sent first, every settled batch is recorded before the next is sent, and what is not
   * accepted stays in it for the next run. See `openSubmissionJournal`.
   */
  journal?: SubmissionJournal;
  /** Called as each batch or sitemap settles (and for URLs kept), before the next is sent. */
  onBatch?: (batch: BingBatchResult) => void | Promise<void>;
}

export type { JournalReport } from '../journal.js';

/** What a Bing submission did. */
export interface BingReport {
  siteUrl: string;
  /** The quota read before sending (URLs: not read in a dry run). */
  quota?: BingQuota;
  /** What is left of the day's quota after this run (URLs: undefined in a dry run). */
  quotaLeft?: number;
  batches: BingBatchResult[];
  /** URLs (or sitemaps) Bing accepted (in a dry run: that would be sent). */
  submitted: number;
  /** Refused or failed. */
  failed: number;
  /** Not sent: beyond the quota, or after a failure that stopped the run. */
  kept: number;
  /** URLs left out before sending (not http(s), not of the site). */
  invalidCount: number;
  /** The first 100 of them. */
  invalid: Array<{ url: string; reason: string }>;
  /** In a dry run: every request that would be sent, in order, key redacted. */
  requests: BingRequest[];
  /** With a journal: its file, what earlier runs had kept, and what it keeps for the next run. */
  journal?: JournalReport;
}

function emptyReport(siteUrl: string): BingReport {
  return {
    siteUrl,
    batches: [],
    submitted: 0,
    failed: 0,
    kept: 0,
    invalidCount: 0,
    invalid: [],
    requests: [],
  };
}

/** Reasons that stop the run: nothing else would be accepted either. */
function stops(e: BingError | SitemapkitError): boolean {
  return !('reason' in e) || e.reason !== 'invalid-url';
}

/**
 * Submits URLs with `SubmitUrlBatch`, at most `batchSize` a call, never more than the quota
 * (`GetUrlSubmissionQuota`, the lesser of daily and monthly) allows. What does not fit, or comes
 * after a failure that stops the run (invalid key, site not verified, quota spent at Bing's side,
 * server errors after retries), is reported as `kept`. Throws `ERR_OPTIONS`, `ERR_ABORTED`, and
 * `ERR_BING` when the quota cannot be read.
 *
 * @example
 * const report = await submitUrlsToBing(['https://www.example.com/new'], {
 *   siteUrl: 'https://www.example.com/',
 *   apiKey: process.env.BING_WEBMASTER_API_KEY!,
 * });
 * report.quotaLeft; // what is left of today's quota
 */
export async function submitUrlsToBing(
  urls: Iterable<string> | AsyncIterable<string>,
  options: BingSubmitOptions,
): Promise<BingReport> {
  const client = new BingClient(options);
  try {
    return await submitUrls(client, urls, options);
  } finally {
    await client.close();
  }
}

async function submitUrls(
  client: BingClient,
  urls: Iterable<string> | AsyncIterable<string>,
  options: BingSubmitOptions,
): Promise<BingReport> {
  const batchSize = batchSizeOf(options.batchSize);
  const dry = options.dryRun === true;
  const report = emptyReport(client.siteUrl);
  const journal = options.journal;
  if (journal !== undefined) {
    report.journal = { path: journal.path, fromEarlier: journal.state.pending };
    urls = await journal.plan(urls, dry);
  }
  let left = Number.POSITIVE_INFINITY;
  if (dry) {
    report.requests.push(client.shown(client.quotaRequest()));
  } else {
    const quota = await client.quota();
    report.quota = quota;
    left = Math.max(0, Math.min(quota.DailyQuota, quota.MonthlyQuota));
    report.quotaLeft = left;
  }
  let stopped: string | undefined = left === 0 ? 'the daily URL quota of the site is spent' : undefined;
  let buffer: string[] = [];
  let keptList: string[] = [];

  const dropped: string[] = [];
  const emit = async (b: BingBatchResult): Promise<void> => {
    report.batches.push(b);
    if (journal !== undefined && !dry) {
      await journal.settle(b.settled ? [...dropped.splice(0), ...b.urlList] : dropped.splice(0));
    }
    await options.onBatch?.(b);
  };
  const keep = async (): Promise<void> => {
    if (keptList.length === 0) return;
    const list = keptList;
    keptList = [];
    report.kept += list.length;
    await emit({
      kind: 'urls',
      status: 'kept',
      urls: list.length,
      urlList: list,
      settled: false,
      attempts: 0,
      message: `${list.length} URL(s) kept for the next run: ${stopped ?? 'not sent'}`,
    });
  };
  const flush = async (): Promise<void> => {
    const list = buffer;
    buffer = [];
    if (list.length === 0) return;
    const request = client.submitUrlBatchRequest(list);
    if (dry) {
      const shown = client.shown(request);
      report.requests.push(shown);
      report.submitted += list.length;
      await emit({
        kind: 'urls',
        status: 'dry-run',
        urls: list.length,
        urlList: list,
        settled: false,
        attempts: 0,
        message: `would submit ${list.length} URL(s) with SubmitUrlBatch`,
        request: shown,
      });
      return;
    }
    try {
      const call = await client.call(request);
      left -= list.length;
      report.quotaLeft = left;
      report.submitted += list.length;
      await emit({
        kind: 'urls',
        status: 'submitted',
        urls: list.length,
        urlList: list,
        settled: true,
        httpStatus: call.status,
        attempts: call.attempts,
        message: `HTTP ${call.status}: ${list.length} URL(s) submitted to Bing for ${client.siteUrl}`,
      });
    } catch (e) {
      if (!(e instanceof SitemapkitError) || e.code === 'ERR_ABORTED') throw e;
      const error = e as BingError;
      if (error.reason === 'quota') {
        // Spent at Bing's side meanwhile (another tool, another run): the batch waits for tomorrow.
        left = 0;
        report.quotaLeft = 0;
        stopped = 'Bing says the URL quota is spent';
        keptList.push(...list);
        await keep();
        return;
      }
      report.failed += list.length;
      const settled = !stops(error);
      if (!settled) stopped = `stopped after a failure: ${error.message}`;
      await emit({
        kind: 'urls',
        status: 'failed',
        urls: list.length,
        urlList: list,
        settled,
        ...(error.status === undefined ? {} : { httpStatus: error.status }),
        attempts: 0,
        message: error.message,
        error,
      });
    }
  };

  for await (const raw of urls) {
    if (options.signal?.aborted === true)
      throw new SitemapkitError('ERR_ABORTED', 'Bing submission aborted', { where: client.siteUrl });
    const url = raw.trim();
    if (url === '') continue;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      invalid(report, url, 'not an absolute URL', dropped);
      continue;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      invalid(report, url, `${u.protocol} URLs cannot be submitted`, dropped);
      continue;
    }
    if (!isOnSite(u, client.siteUrl)) {
      invalid(report, url, `not of the site ${client.siteUrl}`, dropped);
      continue;
    }
    if (stopped !== undefined) {
      keptList.push(u.href);
      if (keptList.length >= BING_MAX_BATCH) await keep();
      continue;
    }
    buffer.push(u.href);
    if (buffer.length >= Math.min(batchSize, left)) {
      await flush();
      if (stopped === undefined && left <= 0) stopped = 'the daily URL quota of the site is spent';
    }
  }
  if (stopped === undefined) await flush();
  else if (buffer.length > 0) {
    keptList.push(...buffer);
    buffer = [];
  }
  await keep();
  if (journal !== undefined && !dry) {
    await journal.settle(dropped.splice(0));
    report.journal!.kept = await journal.finish();
  }
  return report;
}

/** Leaves a URL out; with a journal, it is settled (refused for good) with the next batch. */
function invalid(report: BingReport, url: string, reason: string, dropped?: string[]): void {
  report.invalidCount++;
  if (report.invalid.length < 100) report.invalid.push({ url, reason });
  dropped?.push(url);
}

function batchSizeOf(value: unknown): number {
  if (value === undefined) return BING_MAX_BATCH;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > BING_MAX_BATCH) {
    throw new SitemapkitError('ERR_OPTIONS', `batchSize must be a whole number from 1 to ${BING_MAX_BATCH}`, {
      where: String(value),
    });
  }
  return value;
}

/**
 * Submits sitemaps (or RSS/Atom feeds) with `SubmitFeed`, one call each, in order. A failure that
 * stops the run (invalid key, site not verified, no network) keeps the remaining sitemaps; when it
 * comes at the first call, it is thrown (`ERR_BING`): nothing could be submitted. Throws
 * `ERR_OPTIONS` and `ERR_ABORTED` too.
 */
export async function submitSitemapsToBing(
  sitemaps: Iterable<string> | AsyncIterable<string>,
  options: BingSubmitOptions,
): Promise<BingReport> {
  const client = new BingClient(options);
  const report = emptyReport(client.siteUrl);
  const journal = options.journal;
  const dry = options.dryRun === true;
  let stopped: string | undefined;
  const dropped: string[] = [];
  const emit = async (b: BingBatchResult): Promise<void> => {
    report.batches.push(b);
    if (journal !== undefined && !dry) {
      await journal.settle(b.settled ? [...dropped.splice(0), ...b.urlList] : dropped.splice(0));
    }
    await options.onBatch?.(b);
  };
  try {
    if (journal !== undefined) {
      report.journal = { path: journal.path, fromEarlier: journal.state.pending };
      sitemaps = await journal.plan(sitemaps, dry);
    }
    for await (const raw of sitemaps) {
      const url = raw.trim();
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        invalid(report, url, 'not an absolute URL: Bing fetches the sitemap from its public URL', dropped);
        continue;
      }
      if (!isOnSite(u, client.siteUrl)) {
        invalid(report, url, `not of the site ${client.siteUrl}`, dropped);
        continue;
      }
      const request = client.submitFeedRequest(u.href);
      const base = { kind: 'sitemap' as const, urls: 1, urlList: [u.href] };
      if (stopped !== undefined) {
        report.kept++;
        await emit({ ...base, status: 'kept', settled: false, attempts: 0, message: `kept: ${stopped}` });
        continue;
      }
      if (options.dryRun === true) {
        const shown = client.shown(request);
        report.requests.push(shown);
        report.submitted++;
        await emit({
          ...base,
          status: 'dry-run',
          settled: false,
          attempts: 0,
          message: `would submit the sitemap ${u.href} with SubmitFeed`,
          request: shown,
        });
        continue;
      }
      try {
        const call = await client.call(request);
        report.submitted++;
        await emit({
          ...base,
          status: 'submitted',
          settled: true,
          httpStatus: call.status,
          attempts: call.attempts,
          message: `HTTP ${call.status}: sitemap ${u.href} submitted to Bing`,
        });
      } catch (e) {
        if (!(e instanceof SitemapkitError) || e.code === 'ERR_ABORTED') throw e;
        // Nothing accepted yet and nothing would be (a wrong key, no network): the run could not
        // run at all, as when the URL quota cannot be read. The journal keeps every sitemap.
        if (report.submitted === 0 && report.failed === 0 && stops(e)) throw e;
        report.failed++;
        const settled = !stops(e);
        if (!settled) stopped = `stopped after a failure: ${e.message}`;
        await emit({
          ...base,
          status: 'failed',
          settled,
          ...((e as BingError).status === undefined ? {} : { httpStatus: (e as BingError).status! }),
          attempts: 0,
          message: e.message,
          error: e,
        });
      }
    }
    if (journal !== undefined && !dry) {
      await journal.settle(dropped.splice(0));
      report.journal!.kept = await journal.finish();
    }
  } finally {
    await client.close();
  }
  return report;
}

/** `GetFeeds`: the sitemaps and feeds submitted for the site, with Bing's own field names. */
export async function getBingFeeds(options: BingOptions): Promise<BingFeed[]> {
  const client = new BingClient(options);
  try {
    return await client.feeds();
  } finally {
    await client.close();
  }
}
