import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { BingError, bingDate, redactUrl } from '../../src/submit/bing/api.js';
import { getBingFeeds, submitSitemapsToBing, submitUrlsToBing } from '../../src/submit/bing/submit.js';
import { type FakeBing, startFakeBing } from '../support/bing-server.js';

const SITE = 'https://www.example.com/';
let bing: FakeBing;
const sleeps: number[] = [];
const sleep = async (ms: number): Promise<void> => {
  sleeps.push(ms);
};

beforeAll(async () => {
  bing = await startFakeBing({ site: SITE });
});
afterAll(async () => {
  await bing.close();
});
afterEach(() => {
  bing.reset();
  sleeps.length = 0;
});

const urls = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `${SITE}p/${from + i}`);
const options = () => ({ siteUrl: SITE, apiKey: bing.key, apiRoot: bing.apiRoot, sleep });

describe('submitUrlsToBing against the fake Bing Webmaster API', () => {
  it('reads the quota first, then posts {siteUrl, urlList} batches of at most 500 with the key in the query', async () => {
    const report = await submitUrlsToBing(urls(1200), options());
    expect(bing.calls.map((c) => `${c.method} ${c.name}`)).toEqual([
      'GET GetUrlSubmissionQuota',
      'POST SubmitUrlBatch',
      'POST SubmitUrlBatch',
      'POST SubmitUrlBatch',
    ]);
    expect(bing.calls[0]!.query.get('siteUrl')).toBe(SITE);
    for (const c of bing.calls.slice(1)) {
      expect(c.query.get('apikey')).toBe(bing.key);
      expect(c.contentType).toMatch(/^application\/json/);
      expect(Object.keys(c.body as object)).toEqual(['siteUrl', 'urlList']);
    }
    expect((bing.calls[1]!.body as { urlList: string[] }).urlList).toHaveLength(500);
    expect(bing.accepted).toEqual(urls(1200));
    expect(report).toMatchObject({
      submitted: 1200,
      failed: 0,
      kept: 0,
      quota: { DailyQuota: 10_000 },
      quotaLeft: 8800,
    });
  });

  it('never sends past the daily quota: the rest is kept, and the report says what is left', async () => {
    bing.daily = 700;
    const report = await submitUrlsToBing(urls(1800), options());
    expect(bing.accepted).toEqual(urls(700));
    const sizes = bing.calls.slice(1).map((c) => (c.body as { urlList: string[] }).urlList.length);
    expect(sizes).toEqual([500, 200]);
    expect(report).toMatchObject({ submitted: 700, kept: 1100, quotaLeft: 0, failed: 0 });
    const kept = report.batches.filter((b) => b.status === 'kept').flatMap((b) => b.urlList);
    expect(kept).toEqual(urls(1100, 700));
    expect(report.batches.every((b) => b.settled === (b.status === 'submitted'))).toBe(true);
  });

  it('a quota spent at Bing part-way through (another tool) keeps that batch and the rest', async () => {
    bing.daily = 600;
    bing.shownDaily = 5000; // the quota read first says more than is really left
    const report = await submitUrlsToBing(urls(1500), options());
    expect(bing.accepted).toEqual(urls(500));
    expect(report.submitted).toBe(500);
    expect(report.kept).toBe(1000);
    expect(report.failed).toBe(0);
    expect(report.quotaLeft).toBe(0);
    const kept = report.batches.filter((b) => b.status === 'kept').flatMap((b) => b.urlList);
    expect(kept).toEqual(urls(1000, 500));
    // After the refusal nothing more was sent.
    expect(bing.calls.filter((c) => c.name === 'SubmitUrlBatch')).toHaveLength(2);
  });

  it('leaves out URLs that are not of the site, and never sends them', async () => {
    const report = await submitUrlsToBing(
      [`${SITE}a`, 'https://other.example/x', 'ftp://www.example.com/f', 'not a url', `${SITE}b`],
      options(),
    );
    expect(bing.accepted).toEqual([`${SITE}a`, `${SITE}b`]);
    expect(report.invalidCount).toBe(3);
    expect(report.invalid.map((i) => i.reason)).toEqual([
      `not of the site ${SITE}`,
      'ftp: URLs cannot be submitted',
      'not an absolute URL',
    ]);
  });

  it('an invalid key is an ERR_BING error with reason invalid-key, and the key never appears in it', async () => {
    const wrong = 'deadbeefdeadbeefdeadbeefdeadbeef';
    const e = await submitUrlsToBing(urls(3), { ...options(), apiKey: wrong }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BingError);
    expect(isSitemapkitError(e, 'ERR_BING')).toBe(true);
    const err = e as BingError;
    expect(err.reason).toBe('invalid-key');
    expect(err.bingCode).toBe(3);
    expect(err.message).toMatch(/^HTTP 400: Bing does not accept the API key \(ERROR!!! InvalidApiKey\)/);
    expect(`${err.message} ${err.where} ${err.hint}`).not.toContain(wrong);
    expect(err.where).toContain('apikey=REDACTED');
    expect(bing.accepted).toEqual([]);
  });

  it('a site not verified for the key says so (reason not-verified)', async () => {
    const e = (await submitUrlsToBing(['https://shop.example.com/a'], {
      ...options(),
      siteUrl: 'https://shop.example.com/',
    }).catch((x: unknown) => x)) as BingError;
    expect(e.reason).toBe('not-verified');
    expect(e.message).toContain('not verified in Bing Webmaster Tools');
    expect(e.hint).toContain('verify the site');
  });

  it('retries 429 honouring Retry-After and 5xx with backoff, through the shared retry policy', async () => {
    bing.queue.push({ status: 429, headers: { 'retry-after': '7' } });
    bing.queue.push({ status: 503 });
    const report = await submitUrlsToBing(urls(2), { ...options(), backoffMs: 100 });
    expect(sleeps).toEqual([7000, 200]);
    expect(report.submitted).toBe(2);
    expect(report.batches[0]).toMatchObject({ status: 'submitted', attempts: 1 });
  });

  it("Bing's throttle fault (HTTP 400, ErrorCode 4) is retried like a 429", async () => {
    bing.daily = 10;
    const report = await submitUrlsToBing(urls(2), { ...options(), backoffMs: 50 });
    expect(report.submitted).toBe(2);
    bing.queue.push({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: '{"ErrorCode":4,"Message":"ERROR!!! ThrottleUser"}',
    });
    sleeps.length = 0;
    const again = await submitUrlsToBing(urls(1, 5), { ...options(), backoffMs: 50 });
    expect(sleeps).toEqual([50]);
    expect(again.submitted).toBe(1);
  });

  it('a server error that outlasts the retries fails the batch and keeps the rest', async () => {
    // The quota answer goes first in the queue, then the 500 for the first batch.
    bing.queue.push({ status: 200, body: '{"d":{"DailyQuota":9,"MonthlyQuota":9}}' });
    bing.queue.push({ status: 500 });
    const failed = await submitUrlsToBing(urls(3, 10), { ...options(), batchSize: 1, retries: 0 });
    expect(failed.failed).toBe(1);
    expect(failed.kept).toBe(2);
    expect(failed.batches[0]).toMatchObject({ status: 'failed', settled: false, httpStatus: 500 });
    expect(failed.batches[0]!.message).toMatch(/^HTTP 500: Bing had a server error; gave up after 1 attempt/);
  });

  it('a dry run sends nothing and shows every request with the key redacted', async () => {
    const report = await submitUrlsToBing(urls(600), { ...options(), dryRun: true });
    expect(bing.calls).toEqual([]);
    expect(report.requests.map((r) => `${r.method} ${r.name}`)).toEqual([
      'GET GetUrlSubmissionQuota',
      'POST SubmitUrlBatch',
      'POST SubmitUrlBatch',
    ]);
    for (const r of report.requests) {
      expect(r.url).toContain('apikey=REDACTED');
      expect(r.url).not.toContain(bing.key);
    }
    expect(JSON.parse(report.requests[2]!.body!)).toEqual({ siteUrl: SITE, urlList: urls(100, 500) });
  });
});

describe('sitemaps and their status', () => {
  it('SubmitFeed posts {siteUrl, feedUrl}; GetFeeds lists them with Bing field names', async () => {
    const report = await submitSitemapsToBing([`${SITE}sitemap.xml`, `${SITE}news.xml.gz`], options());
    expect(report.submitted).toBe(2);
    expect(bing.calls.map((c) => c.body)).toEqual([
      { siteUrl: SITE, feedUrl: `${SITE}sitemap.xml` },
      { siteUrl: SITE, feedUrl: `${SITE}news.xml.gz` },
    ]);
    const feeds = await getBingFeeds(options());
    expect(feeds).toHaveLength(2);
    expect(Object.keys(feeds[0]!).sort()).toEqual(
      ['Compressed', 'FileSize', 'LastCrawled', 'Status', 'Submitted', 'Type', 'Url', 'UrlCount'].sort(),
    );
    expect(feeds[0]).toMatchObject({ Url: `${SITE}sitemap.xml`, Status: 'Success', UrlCount: 120 });
    expect(bingDate(feeds[0]!.Submitted)).toBe('2026-11-26T09:00:00.000Z');
    expect(bingDate(feeds[1]!.LastCrawled)).toBeUndefined();
  });

  it('a sitemap of another site is left out; a refusal that stops the run keeps the rest', async () => {
    const r1 = await submitSitemapsToBing(['https://elsewhere.example/sitemap.xml'], options());
    expect(r1.invalidCount).toBe(1);
    bing.queue.push({ status: 200, body: '{"d":null}' });
    bing.queue.push({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: '{"ErrorCode":14,"Message":"ERROR!!! NotAuthorized"}',
    });
    const r2 = await submitSitemapsToBing([`${SITE}a.xml`, `${SITE}b.xml`, `${SITE}c.xml`], options());
    expect(r2.failed).toBe(1);
    expect(r2.kept).toBe(1);
    expect(r2.batches.map((b) => b.status)).toEqual(['submitted', 'failed', 'kept']);
    // Refused at the very first call, nothing could be submitted: the error is thrown.
    bing.queue.push({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: '{"ErrorCode":3,"Message":"ERROR!!! InvalidApiKey"}',
    });
    const e = await submitSitemapsToBing([`${SITE}a.xml`], options()).catch((x: unknown) => x);
    expect((e as BingError).reason).toBe('invalid-key');
  });
});

describe('pure parts', () => {
  it('redacts the key wherever a URL is shown', () => {
    expect(redactUrl('https://x/json/GetFeeds?siteUrl=a&apikey=SECRET')).toBe(
      'https://x/json/GetFeeds?siteUrl=a&apikey=REDACTED',
    );
  });
  it('reads WCF dates with and without an offset', () => {
    // The milliseconds are UTC; the offset only says the server's zone.
    expect(bingDate('/Date(1316213995266-0700)/')).toBe('2011-09-16T22:59:55.266Z');
    expect(bingDate('/Date(0)/')).toBe('1970-01-01T00:00:00.000Z');
    expect(bingDate('yesterday')).toBeUndefined();
  });
});
