/**
 * A local Bing Webmaster API (the JSON endpoint) on 127.0.0.1, following the documented shapes of
 * `IWebmasterApi`: `GET …/json/GetUrlSubmissionQuota?siteUrl=…&apikey=…` answers
 * `{"d":{"__type":"UrlSubmissionQuota:#Microsoft.Bing.Webmaster.Api","DailyQuota":n,"MonthlyQuota":n}}`;
 * `POST …/json/SubmitUrlBatch?apikey=…` takes `{"siteUrl","urlList"}` and `POST …/json/SubmitFeed`
 * `{"siteUrl","feedUrl"}`, both answering `{"d":null}`; `GET …/json/GetFeeds?siteUrl=…` answers
 * `{"d":[{"__type":"Feed:#…","Compressed","FileSize","LastCrawled","Status","Submitted","Type","Url","UrlCount"}]}`
 * with WCF dates (`/Date(ms)/`). Failures are ApiFaults, HTTP 400 `{"ErrorCode":n,"Message":"ERROR!!! …"}`:
 * 3 InvalidApiKey, 14 NotAuthorized (site not verified for the key), 7 InvalidUrl, 8
 * InvalidParameter (more than 500 URLs), and the quota message when a batch exceeds what is left.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startServer, type TestServer } from './http-server.js';

export const BING_PATH = '/webmaster/api.svc/json/';

export interface BingCallSeen {
  method: string;
  name: string;
  query: URLSearchParams;
  body: unknown;
  contentType: string | undefined;
}

export interface FakeBing extends TestServer {
  /** The API root to give the client: `http://127.0.0.1:PORT/webmaster/api.svc/json/`. */
  apiRoot: string;
  /** The one valid key. */
  key: string;
  /** Sites verified for the key (as Bing lists them, with the trailing slash). */
  sites: Set<string>;
  /** URLs the site may still submit today; each accepted batch spends its length. */
  daily: number;
  monthly: number;
  /** What GetUrlSubmissionQuota says, when it should differ from `daily` (spent by another tool meanwhile). */
  shownDaily: number | undefined;
  /** Every call, in order. */
  calls: BingCallSeen[];
  /** Accepted URLs, in order. */
  accepted: string[];
  /** Accepted sitemaps (feeds), in order. */
  feeds: Array<{ url: string; submitted: number }>;
  /** Answers to give before judging a call normally (e.g. 429 with Retry-After, a 500). */
  queue: Array<{ status: number; headers?: Record<string, string>; body?: string }>;
  reset(): void;
}

function fault(res: ServerResponse, code: number, message: string, status = 400): void {
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
    .end(JSON.stringify({ ErrorCode: code, Message: `ERROR!!! ${message}` }));
}

function ok(res: ServerResponse, d: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ d }));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => {
      raw += d;
    });
    req.on('end', () => resolve(raw));
  });
}

export async function startFakeBing(
  init: { key?: string; site?: string; daily?: number } = {},
): Promise<FakeBing> {
  // Every path goes to the handler, which answers the API's methods under BING_PATH and 404 elsewhere.
  const server = await startServer(
    {},
    {
      keepAlive: false,
      fallback: (req, res) => {
        void handle(req, res);
      },
    },
  );
  const fake: FakeBing = Object.assign(server, {
    apiRoot: `${server.origin}${BING_PATH}`,
    key: init.key ?? 'f0e1d2c3b4a5968778695a4b3c2d1e0f',
    sites: new Set([init.site ?? 'https://www.example.com/']),
    daily: init.daily ?? 10_000,
    monthly: 300_000,
    shownDaily: undefined as number | undefined,
    calls: [] as BingCallSeen[],
    accepted: [] as string[],
    feeds: [] as FakeBing['feeds'],
    queue: [] as FakeBing['queue'],
    reset() {
      fake.daily = init.daily ?? 10_000;
      fake.monthly = 300_000;
      fake.shownDaily = undefined;
      fake.calls.length = 0;
      fake.accepted.length = 0;
      fake.feeds.length = 0;
      fake.queue.length = 0;
      fake.sites = new Set([init.site ?? 'https://www.example.com/']);
    },
  });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', server.origin);
    // WCF matches operation names without regard to case (the docs show SubmitUrlbatch too).
    if (!url.pathname.startsWith(BING_PATH)) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<p>Not found.</p>');
      return;
    }
    const name = url.pathname.slice(BING_PATH.length);
    const raw = req.method === 'POST' ? await readBody(req) : '';
    let body: unknown;
    if (raw !== '') {
      try {
        body = JSON.parse(raw);
      } catch {
        res
          .writeHead(400, { 'content-type': 'text/html' })
          .end('<p>The server encountered an error processing the request.</p>');
        return;
      }
    }
    fake.calls.push({
      method: req.method ?? '',
      name,
      query: url.searchParams,
      body,
      contentType: req.headers['content-type'],
    });
    const queued = fake.queue.shift();
    if (queued !== undefined) {
      res.writeHead(queued.status, queued.headers ?? {}).end(queued.body ?? '');
      return;
    }
    if (url.searchParams.get('apikey') !== fake.key) return fault(res, 3, 'InvalidApiKey');
    const op = name.toLowerCase();
    const post = body as { siteUrl?: unknown; urlList?: unknown; feedUrl?: unknown } | undefined;
    const siteUrl = req.method === 'GET' ? url.searchParams.get('siteUrl') : post?.siteUrl;
    const wants = (m: string): boolean => req.method === m;
    if (op === 'geturlsubmissionquota' || op === 'getfeeds') {
      if (!wants('GET')) return fault(res, 8, 'InvalidParameter');
    } else if (op === 'submiturlbatch' || op === 'submitfeed') {
      if (!wants('POST') || !/^application\/json/.test(req.headers['content-type'] ?? ''))
        return fault(res, 8, 'InvalidParameter');
    } else {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<p>Endpoint not found.</p>');
      return;
    }
    if (typeof siteUrl !== 'string' || siteUrl === '') return fault(res, 8, 'InvalidParameter');
    if (!fake.sites.has(siteUrl)) return fault(res, 14, 'NotAuthorized');
    if (op === 'geturlsubmissionquota') {
      return ok(res, {
        __type: 'UrlSubmissionQuota:#Microsoft.Bing.Webmaster.Api',
        DailyQuota: fake.shownDaily ?? fake.daily,
        MonthlyQuota: fake.monthly,
      });
    }
    if (op === 'getfeeds') {
      return ok(
        res,
        fake.feeds.map((f, i) => ({
          __type: 'Feed:#Microsoft.Bing.Webmaster.Api',
          Compressed: f.url.endsWith('.gz'),
          FileSize: 1024 * (i + 1),
          LastCrawled: i === 0 ? `/Date(${f.submitted + 3_600_000})/` : '/Date(-62135596800000)/',
          Status: i === 0 ? 'Success' : 'Pending',
          Submitted: `/Date(${f.submitted}-0000)/`,
          Type: 'Sitemap',
          Url: f.url,
          UrlCount: i === 0 ? 120 : 0,
        })),
      );
    }
    if (op === 'submitfeed') {
      if (typeof post?.feedUrl !== 'string' || !post.feedUrl.startsWith(siteUrl))
        return fault(res, 7, 'InvalidUrl');
      fake.feeds.push({ url: post.feedUrl, submitted: Date.UTC(2026, 10, 26, 9, 0, 0) });
      return ok(res, null);
    }
    const list = post?.urlList;
    if (!Array.isArray(list) || list.some((u) => typeof u !== 'string'))
      return fault(res, 8, 'InvalidParameter');
    if (list.length > 500) return fault(res, 8, 'InvalidParameter');
    if (list.some((u: string) => !u.startsWith(siteUrl))) return fault(res, 7, 'InvalidUrl');
    if (list.length > fake.daily || list.length > fake.monthly) {
      return fault(res, 2, `Quota remaining for today: ${fake.daily}, Submitted: ${list.length}`);
    }
    fake.daily -= list.length;
    fake.monthly -= list.length;
    fake.accepted.push(...(list as string[]));
    return ok(res, null);
  };
  return fake;
}
