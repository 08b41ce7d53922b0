import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import type { PageResponse, ResponseHeaders as PageResponseHeaders } from '../../src/crawler/fetch-page.js';
import type { CrawlOptions } from '../../src/crawler/options.js';
import type { Prior } from '../../src/crawler/records.js';
import { conditionalHeaders, observe, observeRefused } from '../../src/crawler/recrawl.js';
import { readPageMeta } from '../../src/page/page-meta.js';
import { parseChangeSetLine } from '../../src/writer/change-set.js';
import { answer, html, type Route, type TestServer as Site, startServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';

const sites: Site[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});
beforeAll(() => assertXmllint());

const ROBOTS: Route = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };
const T1 = Date.parse('2026-11-20T08:00:00Z');
const T2 = Date.parse('2026-11-21T08:00:00Z');
const T3 = Date.parse('2026-11-22T08:00:00Z');

/** url → lastmod (or null) of the sitemap's <url>s. */
function sitemap(dir: string): Map<string, string | null> {
  const xml = readFileSync(join(dir, 'out/sitemap.xml'), 'utf8');
  expect(xmllint(join(dir, 'out/sitemap.xml'))).toMatchObject({ ok: true });
  const out = new Map<string, string | null>();
  for (const m of xml.matchAll(/<url><loc>([^<]*)<\/loc>(?:<lastmod>([^<]*)<\/lastmod>)?/g)) {
    out.set(new URL(m[1]!).pathname, m[2] ?? null);
  }
  return out;
}

function changeSet(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => parseChangeSetLine(l))
    .filter((r) => r !== undefined)
    .map((r) => {
      if (typeof r === 'string' || r.kind !== 'url') throw new Error(`bad change line: ${String(r)}`);
      return `${r.change} ${new URL(r.loc).pathname} at=${r.at} lastmod=${r.lastmod ?? '-'}`;
    })
    .sort();
}

/**
 * A site whose pages change between crawls (`phase` 1, then 2): text changes, per-request noise,
 * validators answered with 304, pages that disappear, turn noindex, fail, and a new one.
 */
async function livingSite(): Promise<{ s: Site; phase: { n: number } }> {
  const phase = { n: 1 };
  const links = (): string =>
    ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', ...(phase.n >= 2 ? ['new'] : [])]
      .map((p) => `<a href="/${p}">${p}</a>`)
      .join(' ');
  const routes: Record<string, Route> = {
    '/robots.txt': ROBOTS,
    '/': answer(() => html('Home', `<p>Welcome</p>${links()}`)),
    '/a': answer(() => html('A', `<p>Alpha ${phase.n === 1 ? 'one' : 'two'}</p>`)),
    // The same text, with a new CSRF token, nonce and timestamp on every request.
    '/b': answer((_req, ctx) =>
      html(
        'B',
        `<form><input type="hidden" name="csrf" value="tok-${ctx.hit}"></form><p>Bravo</p><script>var t=${ctx.hit}</script>`,
        `<meta name="csrf-token" content="tok-${ctx.hit}"><meta name="generated" content="2026-11-2${ctx.hit}T00:00:00Z">`,
      ),
    ),
    // ETag: 304 when the validator comes back.
    '/c': answer((req) =>
      req.headers['if-none-match'] === '"c-v1"'
        ? { status: 304, headers: { etag: '"c-v1"' } }
        : { ...html('C', '<p>Charlie</p>'), headers: { 'content-type': 'text/html', etag: '"c-v1"' } },
    ),
    // Last-Modified (an old, trustworthy one): 304 for If-Modified-Since.
    '/d': answer((req) =>
      req.headers['if-modified-since'] === 'Tue, 01 Sep 2020 10:00:00 GMT'
        ? { status: 304 }
        : {
            ...html('D', '<p>Delta</p>'),
            headers: { 'content-type': 'text/html', 'last-modified': 'Tue, 01 Sep 2020 10:00:00 GMT' },
          },
    ),
    '/e': answer(() => (phase.n === 1 ? html('E', '<p>Echo</p>') : { status: 404, body: 'gone' })),
    '/f': answer(() => (phase.n === 1 ? html('F', '<p>Foxtrot</p>') : { status: 410, body: 'gone' })),
    '/g': answer(() =>
      phase.n === 1
        ? html('G', '<p>Golf</p>')
        : html('G', '<p>Golf</p>', '<meta name="robots" content="noindex">'),
    ),
    // Its own date (JSON-LD) wins over the observation time.
    '/h': answer(() => {
      const date = phase.n === 1 ? '2026-01-01T00:00:00Z' : '2026-11-21T06:30:00Z';
      return html(
        'H',
        `<p>Hotel ${phase.n === 1 ? 'one' : 'two'}</p>`,
        `<script type="application/ld+json">{"dateModified":"${date}"}</script>`,
      );
    }),
    // Fails on the recrawl: kept as it was.
    '/i': answer(() => (phase.n === 2 ? { status: 503, body: 'down' } : html('I', '<p>India</p>'))),
    // Redirected, and canonicalised elsewhere: gone from the sitemap.
    '/j': answer(() =>
      phase.n === 1 ? html('J', '<p>Juliett</p>') : { status: 301, headers: { location: '/a' } },
    ),
    '/k': answer(() =>
      phase.n === 1 ? html('K', '<p>Kilo</p>') : html('K', '<p>Kilo</p>', '<link rel="canonical" href="/a">'),
    ),
    '/new': html('New', '<p>November</p>'),
  };
  const s = await startServer(routes);
  sites.push(s);
  return { s, phase };
}

function options(s: Site, dir: string, at: number, extra: Partial<CrawlOptions> = {}): CrawlOptions {
  return {
    start: `${s.origin}/`,
    outDir: join(dir, 'out'),
    state: join(dir, 'state.db'),
    report: join(dir, 'report'),
    retries: 0,
    now: () => at,
    ...extra,
  };
}

describe('crawl with recrawl', () => {
  it('a first crawl publishes no made-up lastmod; a recrawl observes what changed, when, and what is gone', async () => {
    const { s, phase } = await livingSite();
    const dir = tempDir('sk-recrawl');
    // The cron job's first run: recrawl with no state yet is a first crawl that fingerprints.
    const first = await crawl(options(s, dir, T1, { recrawl: true, changes: join(dir, 'changes-1.jsonl') }));
    expect(first.stats.changes).toBeUndefined();
    expect(Object.fromEntries(sitemap(dir))).toEqual({
      '/': null,
      '/a': null,
      '/b': null,
      '/c': null,
      // Their own dates: a trustworthy Last-Modified, JSON-LD.
      '/d': '2020-09-01T10:00:00Z',
      '/e': null,
      '/f': null,
      '/g': null,
      '/h': '2026-01-01T00:00:00Z',
      '/i': null,
      '/j': null,
      '/k': null,
    });
    // A first crawl adds every page, and claims no change time.
    expect(changeSet(join(dir, 'changes-1.jsonl'))).toHaveLength(12);
    expect(changeSet(join(dir, 'changes-1.jsonl'))[0]).toBe('added / at=2026-11-20T08:00:00Z lastmod=-');

    phase.n = 2;
    const before = s.requests.length;
    const second = await crawl(options(s, dir, T2, { recrawl: true, changes: join(dir, 'changes-2.jsonl') }));
    const asked = s.requests.slice(before);
    // The validators went back; the 304s cost no body.
    const c = asked.find((q) => q.path === '/c')!;
    expect(c.headers['if-none-match']).toBe('"c-v1"');
    expect(c.status).toBe(304);
    const d = asked.find((q) => q.path === '/d')!;
    expect(d.headers['if-modified-since']).toBe('Tue, 01 Sep 2020 10:00:00 GMT');
    expect(d.status).toBe(304);
    expect(asked.find((q) => q.path === '/a')!.headers['if-none-match']).toBeUndefined();
    expect(second.stats.changes).toEqual({
      unchanged: 3,
      notModified: 2,
      changed: 3,
      added: 1,
      removed: 5,
      kept: 1,
    });
    const T2s = '2026-11-21T08:00:00Z';
    expect(Object.fromEntries(sitemap(dir))).toEqual({
      '/': T2s,
      '/a': T2s,
      '/b': null,
      '/c': null,
      '/d': '2020-09-01T10:00:00Z',
      '/h': '2026-11-21T06:30:00Z',
      '/i': null,
      '/new': null,
    });
    expect(changeSet(join(dir, 'changes-2.jsonl'))).toEqual([
      `added /new at=${T2s} lastmod=-`,
      `changed / at=${T2s} lastmod=${T2s}`,
      `changed /a at=${T2s} lastmod=${T2s}`,
      `changed /h at=${T2s} lastmod=2026-11-21T06:30:00Z`,
      `removed /e at=${T2s} lastmod=-`,
      `removed /f at=${T2s} lastmod=-`,
      `removed /g at=${T2s} lastmod=-`,
      `removed /j at=${T2s} lastmod=-`,
      `removed /k at=${T2s} lastmod=-`,
    ]);

    // Nothing changes: the observed times stay, /i is back as it was, nothing is in the change set.
    phase.n = 3;
    const third = await crawl(options(s, dir, T3, { recrawl: true, changes: join(dir, 'changes-3.jsonl') }));
    expect(third.stats.changes).toMatchObject({ changed: 0, added: 0, removed: 0, kept: 0, unchanged: 8 });
    expect(sitemap(dir).get('/a')).toBe(T2s);
    expect(sitemap(dir).get('/')).toBe(T2s);
    expect(sitemap(dir).has('/i')).toBe(true);
    expect(changeSet(join(dir, 'changes-3.jsonl'))).toEqual([]);
  });
});

describe('a recrawl with other options', () => {
  it('does not fetch a page an --exclude added since keeps out, and removes it from the sitemap', async () => {
    const { s } = await livingSite();
    const dir = tempDir('sk-recrawl-scope');
    await crawl(options(s, dir, T1, { recrawl: true }));
    const before = s.hits('/b');
    const r = await crawl(
      options(s, dir, T2, { recrawl: true, exclude: ['/b'], changes: join(dir, 'c.jsonl') }),
    );
    expect(s.hits('/b')).toBe(before);
    expect(sitemap(dir).has('/b')).toBe(false);
    expect(r.stats.changes).toMatchObject({ removed: 1, added: 0, changed: 0 });
    expect(changeSet(join(dir, 'c.jsonl'))).toEqual(['removed /b at=2026-11-21T08:00:00Z lastmod=-']);
    expect(r.stats.verdicts['excluded']).toBe(1);
  });
});

describe('the change set', () => {
  it('names the published URLs (after publicOrigin), as the sitemap does', async () => {
    const { s, phase } = await livingSite();
    const dir = tempDir('sk-recrawl-public');
    const pub = { publicOrigin: 'https://www.example.com' };
    await crawl(options(s, dir, T1, { recrawl: true, ...pub }));
    phase.n = 2;
    await crawl(options(s, dir, T2, { recrawl: true, ...pub, changes: join(dir, 'c.jsonl') }));
    const locs = readFileSync(join(dir, 'c.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { loc: string }).loc);
    expect(locs).toHaveLength(9);
    expect(locs).toContain('https://www.example.com/new');
    expect(locs.every((l) => l.startsWith('https://www.example.com/'))).toBe(true);
    expect(sitemap(dir).has('/new')).toBe(true);
  });
});

describe('a recrawl continued', () => {
  it('whose output could not be written: the next recrawl publishes the changes it had seen', async () => {
    const { s, phase } = await livingSite();
    const dir = tempDir('sk-recrawl-unpublished');
    await crawl(options(s, dir, T1, { recrawl: true }));
    phase.n = 2;
    // The fault: the output folder is a file, so the recrawl finishes and then cannot publish.
    writeFileSync(join(dir, 'blocked'), 'not a folder');
    await expect(crawl(options(s, dir, T2, { recrawl: true, outDir: join(dir, 'blocked') }))).rejects.toThrow(
      /cannot create the output folder/,
    );
    // It failed after the recrawl (the new page was fetched), not before it.
    expect(s.hits('/new')).toBe(1);
    phase.n = 3;
    const next = await crawl(options(s, dir, T3, { recrawl: true, changes: join(dir, 'changes.jsonl') }));
    expect(next.stats.changes).toMatchObject({ changed: 3, added: 1, removed: 5 });
    const T2s = '2026-11-21T08:00:00Z';
    expect(changeSet(join(dir, 'changes.jsonl'))).toEqual([
      `added /new at=${T2s} lastmod=-`,
      `changed / at=${T2s} lastmod=${T2s}`,
      `changed /a at=${T2s} lastmod=${T2s}`,
      `changed /h at=${T2s} lastmod=2026-11-21T06:30:00Z`,
      `removed /e at=${T2s} lastmod=-`,
      `removed /f at=${T2s} lastmod=-`,
      `removed /g at=${T2s} lastmod=-`,
      `removed /j at=${T2s} lastmod=-`,
      `removed /k at=${T2s} lastmod=-`,
    ]);
    // Published now: the recrawl after it starts from nothing.
    const after = await crawl(options(s, dir, T3 + 1000, { recrawl: true }));
    expect(after.stats.changes).toMatchObject({ changed: 0, added: 0, removed: 0 });
  });

  it('with --resume after --max-pages still fingerprints, and finds the changes of the pages it fetches then', async () => {
    const { s, phase } = await livingSite();
    const dir = tempDir('sk-recrawl-resume');
    await crawl(options(s, dir, T1, { recrawl: true }));
    phase.n = 2;
    const stopped = await crawl(options(s, dir, T2, { recrawl: true, maxPages: 3 }));
    expect(stopped.complete).toBe(false);
    // Home, /a and /b first: the pages after them are fetched by the resumed run.
    const resumed = await crawl(options(s, dir, T3, { resume: true }));
    expect(resumed.complete).toBe(true);
    expect(resumed.stats.changes).toMatchObject({ changed: 3, added: 1, removed: 5, kept: 1 });
    expect(sitemap(dir).get('/h')).toBe('2026-11-21T06:30:00Z');
  });
});

describe('observe (what a fetch means against the crawl before)', () => {
  const at = '2026-11-21T08:00:00Z';
  const listed: Prior = {
    verdict: 'listed',
    etag: '"v1"',
    lastModified: null,
    fingerprint: 'f1',
    changedAt: null,
  };
  const headers = (h: Record<string, string>): PageResponseHeaders => ({
    get: (n) => h[n] ?? null,
    values: (n) => (h[n] === undefined ? [] : [h[n]!]),
  });
  const answered = (status: number, h: Record<string, string> = {}, fingerprint?: string): PageResponse => ({
    ok: true,
    status,
    headers: headers(h),
    contentType: fingerprint === undefined ? 'application/pdf' : 'text/html',
    // Read as HTML when it has a fingerprint; a PDF otherwise.
    meta: fingerprint === undefined ? undefined : readPageMeta('<title>x</title>'),
    ...(fingerprint === undefined ? {} : { fingerprint }),
    bytes: 0,
    truncated: false,
    charset: undefined,
    unknownCharset: undefined,
  });

  it('sends the validators it has, and only those', () => {
    expect(conditionalHeaders(undefined)).toBeUndefined();
    expect(conditionalHeaders({ ...listed, etag: null })).toBeUndefined();
    expect(conditionalHeaders(listed)).toEqual({ 'if-none-match': '"v1"' });
    expect(conditionalHeaders({ ...listed, lastModified: 'Tue, 01 Sep 2020 10:00:00 GMT' })).toEqual({
      'if-none-match': '"v1"',
      'if-modified-since': 'Tue, 01 Sep 2020 10:00:00 GMT',
    });
  });

  it('keeps the record on a 304 it asked for, and never on one it did not', () => {
    const r = observe(listed, { verdict: 'not-ok', status: 304 }, answered(304), at);
    expect(r).toMatchObject({ keep: true, verdict: 'listed', change: 'unchanged', changeAt: null });
    const unasked = observe({ ...listed, etag: null }, { verdict: 'not-ok', status: 304 }, answered(304), at);
    expect(unasked.keep).toBeUndefined();
    expect(unasked.change).toBe('removed');
  });

  it('judges a 200 on its fingerprint, a PDF on its ETag, and keeps the observed time until the next change', () => {
    const same = observe(
      { ...listed, changedAt: '2026-01-01T00:00:00Z' },
      { verdict: 'listed' },
      answered(200, {}, 'f1'),
      at,
    );
    expect(same).toMatchObject({ change: 'unchanged', changedAt: '2026-01-01T00:00:00Z', changeAt: null });
    const other = observe(listed, { verdict: 'listed' }, answered(200, {}, 'f2'), at);
    expect(other).toMatchObject({ change: 'changed', changedAt: at, changeAt: at, fingerprint: 'f2' });
    const pdf = observe(
      { ...listed, fingerprint: 'etag:"p1"' },
      { verdict: 'listed' },
      answered(200, { etag: '"p2"' }),
      at,
    );
    expect(pdf).toMatchObject({ change: 'changed', fingerprint: 'etag:"p2"', etag: '"p2"' });
    // No fingerprint before (a state of the previous release): nothing to compare, the baseline is taken.
    const first = observe(
      { ...listed, fingerprint: null },
      { verdict: 'listed' },
      answered(200, {}, 'f2'),
      at,
    );
    expect(first).toMatchObject({ change: 'unchanged', changedAt: null, fingerprint: 'f2' });
    // An HTML page of a crawl that does not fingerprint stores no fingerprint (never its ETag's).
    const html = answered(200, { etag: '"e"' }, 'x');
    delete (html as { fingerprint?: string }).fingerprint;
    expect(observe(listed, { verdict: 'listed' }, html, at)).toMatchObject({
      fingerprint: null,
      change: 'unchanged',
    });
  });

  it('a listed page that fails is kept; one that robots.txt now keeps out is removed', () => {
    const failed = observe(listed, { verdict: 'error', status: 503, reason: 'HTTP 503' }, answered(503), at);
    expect(failed).toMatchObject({ keep: true, verdict: 'listed', change: 'kept' });
    expect(failed.reason).toMatch(/kept as the last crawl found it: HTTP 503/);
    expect(observeRefused(listed, { verdict: 'robots' }, at)).toMatchObject({
      change: 'removed',
      changeAt: at,
    });
    expect(
      observeRefused({ ...listed, verdict: 'broken' }, { verdict: 'robots' }, at).change,
    ).toBeUndefined();
  });
});
