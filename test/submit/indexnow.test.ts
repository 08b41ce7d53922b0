import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { retryAfterMs } from '../../src/http/retry.js';
import {
  assertValidKey,
  generateKey,
  indexNowEndpoint,
  isValidKey,
  openSubmissionJournal,
  pingSitemap,
  submitToIndexNow,
  writeKeyFile,
} from '../../src/submit/index.js';
import { startServer, type TestServer, text } from '../support/http-server.js';
import { type Engine, startEngine } from './indexnow-server.js';

const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
let engine: Engine;
let site: TestServer;
let other: TestServer;
const sleeps: number[] = [];
const sleep = async (ms: number): Promise<void> => {
  sleeps.push(ms);
};

beforeAll(async () => {
  engine = await startEngine();
  site = await startServer({}, { keepAlive: false });
  other = await startServer({}, { keepAlive: false });
});
afterAll(async () => {
  await Promise.all([engine.close(), site.close(), other.close()]);
});
afterEach(() => {
  engine.posts.length = 0;
  engine.queue.length = 0;
  engine.pending = false;
  sleeps.length = 0;
  site.route(`/${KEY}.txt`, text(KEY));
});

const urls = (server: TestServer, n: number, prefix = 'p'): string[] =>
  Array.from({ length: n }, (_, i) => `${server.origin}/${prefix}/${i}`);
const endpoint = (): string => `${engine.origin}/indexnow`;

describe('submitToIndexNow', () => {
  it('posts 25,000 URLs of one host as 3 batches of at most 10,000', async () => {
    site.route(`/${KEY}.txt`, text(KEY));
    const report = await submitToIndexNow(urls(site, 25_000), { endpoint: endpoint(), key: KEY, sleep });
    expect(engine.posts.map((p) => p.urlList.length)).toEqual([10_000, 10_000, 5_000]);
    expect(engine.posts.every((p) => p.host === new URL(site.origin).host && p.key === KEY)).toBe(true);
    expect(engine.posts.flatMap((p) => p.urlList)).toEqual(urls(site, 25_000));
    expect(report).toMatchObject({ submitted: 25_000, failed: 0, invalidCount: 0 });
    expect(report.batches.map((b) => [b.status, b.httpStatus, b.urls])).toEqual([
      ['submitted', 200, 10_000],
      ['submitted', 200, 10_000],
      ['submitted', 200, 5_000],
    ]);
    expect(report.hosts).toEqual([
      { host: new URL(site.origin).host, keyFile: `${site.origin}/${KEY}.txt`, verified: true },
    ]);
  });

  it('makes one post per host, each with its own key', async () => {
    const key2 = 'ffffeeeeddddcccc';
    other.route(`/${key2}.txt`, text(key2));
    const mixed = [...urls(site, 3), ...urls(other, 2), `${site.origin}/late`];
    const keys = { [new URL(other.origin).host]: key2 };
    const report = await submitToIndexNow(mixed, { endpoint: endpoint(), key: KEY, keys, sleep });
    expect(engine.posts.map((p) => [p.host, p.key, p.urlList.length])).toEqual([
      [new URL(site.origin).host, KEY, 4],
      [new URL(other.origin).host, key2, 2],
    ]);
    expect(report.submitted).toBe(6);
  });

  it('retries 429 after the Retry-After delay, then succeeds', async () => {
    engine.queue.push({ status: 429, headers: { 'retry-after': '7' } });
    const report = await submitToIndexNow(urls(site, 2), { endpoint: endpoint(), key: KEY, sleep });
    expect(sleeps).toEqual([7000]);
    expect(report.batches[0]).toMatchObject({ status: 'submitted', attempts: 2, httpStatus: 200 });
    expect(engine.posts).toHaveLength(1);
  });

  it('retries 5xx with exponential backoff, and 202 counts as accepted', async () => {
    engine.queue.push({ status: 503 }, { status: 500 }, { status: 502 });
    engine.pending = true;
    const report = await submitToIndexNow(urls(site, 1), {
      endpoint: endpoint(),
      key: KEY,
      sleep,
      backoffMs: 100,
    });
    expect(sleeps).toEqual([100, 200, 400]);
    expect(report.batches[0]).toMatchObject({ status: 'accepted', httpStatus: 202, attempts: 4 });
    expect(report.batches[0]?.message).toMatch(/still validating the key/);
  });

  it('gives up after the retries, with a clear error', async () => {
    for (let i = 0; i < 3; i++) engine.queue.push({ status: 429 });
    const report = await submitToIndexNow(urls(site, 5), {
      endpoint: endpoint(),
      key: KEY,
      sleep,
      retries: 2,
      backoffMs: 10,
    });
    expect(sleeps).toEqual([10, 20]);
    const b = report.batches[0]!;
    expect(b).toMatchObject({ status: 'failed', httpStatus: 429, attempts: 3 });
    expect(b.error?.code).toBe('ERR_INDEXNOW');
    expect(b.error?.message).toMatch(/HTTP 429: Too many requests.*gave up after 3 attempt/);
    expect(b.error?.hint).toMatch(/submit less often/);
    expect(report).toMatchObject({ submitted: 0, failed: 5 });
  });

  it('does not wait for a Retry-After longer than allowed', async () => {
    engine.queue.push({ status: 429, headers: { 'retry-after': '86400' } });
    const report = await submitToIndexNow(urls(site, 1), { endpoint: endpoint(), key: KEY, sleep });
    expect(sleeps).toEqual([]);
    expect(report.batches[0]?.error?.message).toMatch(/asks to wait 86400 s/);
  });

  it('403 from the engine when the site does not serve the key file (check skipped)', async () => {
    site.route(`/${KEY}.txt`, text('nope', 404));
    const report = await submitToIndexNow(urls(site, 3), {
      endpoint: endpoint(),
      key: KEY,
      sleep,
      verifyKey: false,
    });
    const b = report.batches[0]!;
    expect(b).toMatchObject({ status: 'failed', httpStatus: 403, attempts: 1 });
    expect(b.error?.message).toMatch(/Forbidden: the key is not valid/);
    expect(b.error?.hint).toMatch(/sitemapkit submit key --out DIR/);
    expect(sleeps).toEqual([]);
  });

  it('checks the key file before posting: a missing or wrong file fails the host and posts nothing', async () => {
    site.route(`/${KEY}.txt`, text('nope', 404));
    const before = engine.requests.length;
    const missing = await submitToIndexNow(urls(site, 3), { endpoint: endpoint(), key: KEY, sleep });
    expect(engine.requests.length).toBe(before);
    expect(missing.batches[0]).toMatchObject({ status: 'failed', attempts: 0 });
    expect(missing.batches[0]?.error?.message).toBe(
      `key file check failed: ${site.origin}/${KEY}.txt: it answered HTTP 404`,
    );
    expect(missing.hosts[0]?.verified).toBe(false);
    site.route(`/${KEY}.txt`, text('<html>a page</html>'));
    const wrong = await submitToIndexNow(urls(site, 3), { endpoint: endpoint(), key: KEY, sleep });
    expect(wrong.batches[0]?.error?.message).toMatch(
      /does not hold the key \(it starts "<html>a page<\/html>"\)/,
    );
  });

  it('422 when a URL of another host is in the list (as a proxy that merges lists would do)', async () => {
    // The client never mixes hosts; a fetch wrapper adds a foreign URL to reach the engine's check.
    const tampering: typeof fetch = (input, init) => {
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { urlList: string[] };
        body.urlList.push(`${other.origin}/foreign`);
        return fetch(input, { ...init, body: JSON.stringify(body) });
      }
      return fetch(input, init);
    };
    const report = await submitToIndexNow(urls(site, 2), {
      endpoint: endpoint(),
      key: KEY,
      sleep,
      fetch: tampering,
    });
    expect(report.batches[0]).toMatchObject({ status: 'failed', httpStatus: 422, attempts: 1 });
    expect(report.batches[0]?.error?.message).toMatch(
      /HTTP 422: Unprocessable: URLs don't belong to the host.*\(URLs do not belong to the host\)/,
    );
  });

  it('400 for a body the engine cannot read is not retried', async () => {
    const broken: typeof fetch = (input, init) =>
      fetch(input, init?.method === 'POST' ? { ...init, body: '{"host":' } : init);
    const report = await submitToIndexNow(urls(site, 1), {
      endpoint: endpoint(),
      key: KEY,
      sleep,
      fetch: broken,
    });
    expect(report.batches[0]).toMatchObject({ status: 'failed', httpStatus: 400, attempts: 1 });
  });

  it('retries network errors and reports them', async () => {
    const closed = await startServer({}, { keepAlive: false });
    const dead = `${closed.origin}/indexnow`;
    await closed.close();
    const report = await submitToIndexNow(urls(site, 1), {
      endpoint: dead,
      key: KEY,
      sleep,
      retries: 1,
      backoffMs: 5,
    });
    expect(sleeps).toEqual([5]);
    expect(report.batches[0]?.error?.message).toMatch(/network error: ECONNREFUSED; gave up after 2 attempt/);
  });

  it('leaves out URLs it cannot submit and says why', async () => {
    const report = await submitToIndexNow(
      ['not a url', 'ftp://x.y/z', 'https://unknown.example/a', ...urls(site, 1)],
      {
        endpoint: endpoint(),
        keys: { [new URL(site.origin).host]: KEY },
        sleep,
      },
    );
    expect(report.invalid.map((i) => i.reason)).toEqual([
      'not an absolute URL',
      'ftp: URLs cannot be submitted',
      'no key for unknown.example: pass one with key or keys',
    ]);
    expect(report).toMatchObject({ invalidCount: 3, submitted: 1 });
  });

  it('a keyLocation is checked there, sent along, and limits URLs to its folder', async () => {
    site.route(`/keys/${KEY}.txt`, text(KEY));
    const keyLocation = `${site.origin}/keys/${KEY}.txt`;
    const report = await submitToIndexNow([`${site.origin}/keys/a`, `${site.origin}/elsewhere`], {
      endpoint: endpoint(),
      key: KEY,
      keyLocation,
      sleep,
    });
    expect(engine.posts).toEqual([
      { host: new URL(site.origin).host, key: KEY, keyLocation, urlList: [`${site.origin}/keys/a`] },
    ]);
    expect(report.invalid[0]?.reason).toMatch(/outside .*\/keys\/, the folder of the key file/);
  });

  it('a dry run checks the key files and posts nothing', async () => {
    const before = engine.requests.length;
    const report = await submitToIndexNow(urls(site, 12), {
      endpoint: endpoint(),
      key: KEY,
      sleep,
      dryRun: true,
      batchSize: 5,
    });
    expect(engine.requests.length).toBe(before);
    expect(report.batches.map((b) => [b.status, b.urls])).toEqual([
      ['dry-run', 5],
      ['dry-run', 5],
      ['dry-run', 2],
    ]);
    expect(report.hosts[0]?.verified).toBe(true);
  });

  it('accepts async iterables and reports each batch as it goes', async () => {
    async function* gen(): AsyncGenerator<string> {
      yield* urls(site, 3);
    }
    const seen: number[] = [];
    await submitToIndexNow(gen(), {
      endpoint: endpoint(),
      key: KEY,
      sleep,
      batchSize: 2,
      onBatch: (b) => seen.push(b.urls),
    });
    expect(seen).toEqual([2, 1]);
  });

  it('rejects bad options with ERR_OPTIONS, and aborts with ERR_ABORTED', async () => {
    await expect(submitToIndexNow([], { endpoint: endpoint() })).rejects.toThrow(/no IndexNow key/);
    await expect(submitToIndexNow([], { endpoint: endpoint(), key: 'short' })).rejects.toThrow(
      /5 characters; IndexNow keys have 8 to 128/,
    );
    await expect(submitToIndexNow([], { endpoint: endpoint(), key: KEY, batchSize: 10_001 })).rejects.toThrow(
      /batchSize/,
    );
    await expect(submitToIndexNow([], { endpoint: 'ftp://x', key: KEY })).rejects.toThrow(/must be http/);
    const c = new AbortController();
    c.abort();
    await expect(
      submitToIndexNow(urls(site, 1), { endpoint: endpoint(), key: KEY, signal: c.signal }),
    ).rejects.toSatisfy((e: unknown) => isSitemapkitError(e, 'ERR_ABORTED'));
  });

  it('completes a bare endpoint with /indexnow', () => {
    expect(indexNowEndpoint('https://api.indexnow.org')).toBe('https://api.indexnow.org/indexnow');
    expect(indexNowEndpoint('yandex.com')).toBe('https://yandex.com/indexnow');
    expect(indexNowEndpoint('https://www.bing.com/indexnow')).toBe('https://www.bing.com/indexnow');
  });
});

describe('keys', () => {
  it('generates hex keys of the asked length, all valid and distinct', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey()));
    expect(keys.size).toBe(200);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f]{32}$/);
    expect(generateKey(8)).toMatch(/^[0-9a-f]{8}$/);
    expect(generateKey(127)).toHaveLength(127);
    expect(() => generateKey(7)).toThrow(/8 to 128/);
  });

  it('validates 8–128 characters of a-zA-Z0-9-', () => {
    expect(isValidKey('abcd-EFG-1234')).toBe(true);
    expect(isValidKey('a'.repeat(128))).toBe(true);
    expect(isValidKey('a'.repeat(129))).toBe(false);
    expect(isValidKey('abc_defgh')).toBe(false);
    expect(() => assertValidKey('abc_defgh')).toThrow(/contains "_"/);
  });

  it('writes KEY.txt holding exactly the key, atomically, creating the folder', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'sitemapkit-key-')), 'public', 'nested');
    const key = generateKey();
    const path = await writeKeyFile(dir, key);
    expect(path).toBe(join(dir, `${key}.txt`));
    expect(readFileSync(path, 'utf8')).toBe(key);
    expect(readdirSync(dir)).toEqual([`${key}.txt`]);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP-dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('legacy ping', () => {
  it('sends GET ENDPOINT?sitemap=<encoded URL> to the named endpoint only', async () => {
    let seen = '';
    site.route('/ping?sitemap=https%3A%2F%2Fexample.com%2Fsitemap.xml%3Fa%3D1', (req, res) => {
      seen = req.url ?? '';
      res.end('ok');
    });
    const r = await pingSitemap(`${site.origin}/ping`, 'https://example.com/sitemap.xml?a=1');
    expect(r).toMatchObject({ httpStatus: 200, ok: true });
    expect(seen).toBe('/ping?sitemap=https%3A%2F%2Fexample.com%2Fsitemap.xml%3Fa%3D1');
    const gone = await pingSitemap(`${site.origin}/gone`, 'https://example.com/s.xml');
    expect(gone).toMatchObject({ httpStatus: 404, ok: false });
  });
});

describe('submitToIndexNow with the submission journal', () => {
  it('keeps a batch that failed for the next run, sends it first then, and drops URLs refused for good', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sk-inj-'));
    const open = () => openSubmissionJournal({ dir, channel: 'indexnow', target: endpoint() });
    // Run 1: the engine is down for the first batch (kept), the second goes through.
    engine.queue.push({ status: 503 });
    const first = await submitToIndexNow([...urls(site, 3), 'not a url', ...urls(site, 2, 'q')], {
      endpoint: endpoint(),
      key: KEY,
      sleep,
      retries: 0,
      batchSize: 3,
      journal: await open(),
    });
    expect(first.batches.map((b) => b.status)).toEqual(['failed', 'submitted']);
    expect(first.journal).toMatchObject({ fromEarlier: 0, kept: 3 });
    expect(engine.posts.flatMap((p) => p.urlList)).toEqual(urls(site, 2, 'q'));
    // Run 2: the kept batch goes first, then the new URLs; nothing of run 1's accepted batch again.
    engine.posts.length = 0;
    const second = await submitToIndexNow([...urls(site, 2, 'q'), `${site.origin}/new`], {
      endpoint: endpoint(),
      key: KEY,
      sleep,
      batchSize: 10,
      journal: await open(),
    });
    expect(engine.posts.flatMap((p) => p.urlList)).toEqual([
      ...urls(site, 3),
      ...urls(site, 2, 'q'),
      `${site.origin}/new`,
    ]);
    expect(second.journal).toMatchObject({ fromEarlier: 3, kept: 0 });
    expect(readdirSync(dir)).toEqual([]);
  });
});
