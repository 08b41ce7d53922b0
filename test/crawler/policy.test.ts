import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charsetFromBom, charsetFromContentType, charsetFromPrescan } from '../../src/crawler/fetch-page.js';
import { DEFAULT_PARAM_POLICY, normalizeCrawlUrl } from '../../src/crawler/normalize-url.js';
import { giveUpReason } from '../../src/crawler/retry.js';
import { Scope, trapReason, urlPattern } from '../../src/crawler/scope.js';
import { priorityForDepth } from '../../src/crawler/sitemap-entries.js';
import { decideRetry } from '../../src/http/retry.js';
import { HostScheduler as Politeness } from '../../src/http/scheduler.js';
import { PageMetaReader, readPageMeta } from '../../src/page/page-meta.js';
import {
  canonicalFromLinkHeader,
  pageLastmod,
  parseXRobotsTag,
  robotsDirectives,
} from '../../src/page/verdict.js';

describe('URL normalisation (RFC 3986 §6.2.2-3 and the parameter policy)', () => {
  const n = (u: string, base?: string): string | undefined => normalizeCrawlUrl(u, base);

  it('lower-cases scheme and host, drops default ports, dot segments, fragments and credentials', () => {
    expect(n('HTTP://Example.COM:80/a/./b/../c#frag')).toBe('http://example.com/a/c');
    expect(n('https://user:pw@example.com:443/x')).toBe('https://example.com/x');
    expect(n('https://example.com')).toBe('https://example.com/');
    expect(n('https://example.com:8443/x')).toBe('https://example.com:8443/x');
  });

  it('upper-cases escapes and decodes unreserved characters only', () => {
    expect(n('https://example.com/%7euser/%41%2f%3a')).toBe('https://example.com/~user/A%2F%3A');
    expect(n('https://example.com/caf%c3%a9')).toBe('https://example.com/caf%C3%A9');
    expect(n('https://example.com/café')).toBe('https://example.com/caf%C3%A9');
  });

  it('strips session and tracking parameters, keeps the others in order, drops empty pairs and ?', () => {
    expect(n('https://example.com/p?b=2&utm_source=x&a=1&gclid=9')).toBe('https://example.com/p?b=2&a=1');
    expect(n('https://example.com/p;jsessionid=ABC?PHPSESSID=1')).toBe('https://example.com/p');
    expect(n('https://example.com/p?')).toBe('https://example.com/p');
    expect(n('https://example.com/p?a=1&&b=2&')).toBe('https://example.com/p?a=1&b=2');
  });

  it('applies a keep-list or a drop-list, and can keep tracking parameters', () => {
    const keep = { ...DEFAULT_PARAM_POLICY, keep: new Set(['page']) };
    expect(normalizeCrawlUrl('https://e.com/l?sort=asc&page=2&utm_id=1', undefined, keep)).toBe(
      'https://e.com/l?page=2',
    );
    const drop = { ...DEFAULT_PARAM_POLICY, drop: new Set(['sort']) };
    expect(normalizeCrawlUrl('https://e.com/l?SORT=asc&page=2', undefined, drop)).toBe(
      'https://e.com/l?page=2',
    );
    const raw = { ...DEFAULT_PARAM_POLICY, stripTracking: false };
    expect(normalizeCrawlUrl('https://e.com/l?utm_source=x', undefined, raw)).toBe(
      'https://e.com/l?utm_source=x',
    );
  });

  it('resolves relative links and refuses what is not http(s)', () => {
    expect(n('../b?x=1#top', 'https://example.com/a/c/d')).toBe('https://example.com/a/b?x=1');
    expect(n('mailto:a@b.c')).toBeUndefined();
    expect(n('javascript:void(0)', 'https://example.com/')).toBeUndefined();
    expect(n('http://[bad')).toBeUndefined();
  });

  it('never makes a new escape out of a bare % and a decoded hex digit (found by the property)', () => {
    for (const u of [
      'http://Example.com/%0%61',
      'http://example.com/%%6161',
      'http://example.com/a?q=%4%31',
    ]) {
      const once = n(u)!;
      expect(n(once), u).toBe(once);
    }
    expect(n('http://Example.com/%0%61')).toBe('http://example.com/%0%61');
    expect(n('http://example.com/%7e%61')).toBe('http://example.com/~a');
  });

  it('is idempotent (property)', () => {
    const seg = fc.stringMatching(/^[A-Za-z0-9._~%-]{0,8}$/);
    const url = fc
      .tuple(
        fc.constantFrom('http', 'HTTPS', 'https'),
        fc.constantFrom('Example.com', 'a.b.example.org', 'localhost:8080', 'x.test:443'),
        fc.array(fc.oneof(seg, fc.constantFrom('.', '..', '%7e', '%2F', 'é')), { maxLength: 6 }),
        fc.array(
          fc.tuple(
            fc.constantFrom('a', 'utm_source', 'page', 'sid', 'Q'),
            fc.stringMatching(/^[a-z0-9%]{0,4}$/),
          ),
          { maxLength: 4 },
        ),
      )
      .map(
        ([s, h, p, q]) =>
          `${s}://${h}/${p.join('/')}${q.length ? `?${q.map(([k, v]) => `${k}=${v}`).join('&')}` : ''}`,
      );
    fc.assert(
      fc.property(url, (u) => {
        const once = normalizeCrawlUrl(u);
        if (once === undefined) return;
        expect(normalizeCrawlUrl(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });
});

describe('politeness with a fake clock', () => {
  it('caps requests per host and spaces their starts', () => {
    const p = new Politeness({ concurrency: 2, delayMs: 100 });
    expect(p.readyAt('h', 0)).toBe(0);
    p.start('h', 0);
    expect(p.readyAt('h', 0)).toBe(100);
    expect(p.readyAt('h', 50)).toBe(100);
    p.start('h', 100);
    expect(p.readyAt('h', 150)).toBe(Number.POSITIVE_INFINITY);
    p.finish('h');
    expect(p.readyAt('h', 150)).toBe(200);
    expect(p.readyAt('other', 150)).toBe(150);
    expect(() => p.start('h', 150)).toThrow(/not ready/);
  });

  it('a Crawl-delay makes the host sequential and wins over a shorter gap', () => {
    const p = new Politeness({ concurrency: 8, delayMs: 0 });
    p.setCrawlDelay('h', 2000);
    expect(p.limits('h')).toEqual({ concurrency: 1, delayMs: 2000 });
    p.start('h', 1000);
    p.finish('h');
    expect(p.readyAt('h', 1500)).toBe(3000);
  });

  it('Retry-After pauses the host; a shorter pause never shortens a longer one', () => {
    const p = new Politeness({ concurrency: 4, delayMs: 0 });
    p.pause('h', 5000);
    p.pause('h', 3000);
    expect(p.readyAt('h', 0)).toBe(5000);
    expect(p.readyAt('h', 6000)).toBe(6000);
  });
});

describe('retries', () => {
  const policy = { retries: 2, baseMs: 1000, maxMs: 30_000, maxRetryAfterMs: 60_000 };
  const now = Date.parse('2026-01-01T00:00:00Z');
  // The HTTP layer decides; the crawler words a URL it gave up for the report.
  const words = (d: ReturnType<typeof decideRetry>): string | undefined =>
    giveUpReason(d, policy.maxRetryAfterMs);

  it('backs off exponentially on 5xx and network errors, then gives up', () => {
    expect(decideRetry(policy, 1, 500, null, now)).toEqual({
      kind: 'retry',
      delayMs: 1000,
      fromHeader: false,
    });
    expect(decideRetry(policy, 2, undefined, null, now)).toEqual({
      kind: 'retry',
      delayMs: 2000,
      fromHeader: false,
    });
    const last = decideRetry(policy, 3, 503, null, now);
    expect(last).toEqual({ kind: 'exhausted', attempts: 3 });
    expect(words(last)).toBe('gave up after 3 attempts');
  });

  it('never retries 404 or 200, and gives no reason for them', () => {
    for (const status of [404, 200]) {
      const d = decideRetry(policy, 1, status, null, now);
      expect(d).toEqual({ kind: 'final' });
      expect(words(d)).toBeUndefined();
    }
  });

  it('Retry-After (seconds or HTTP date) wins on 429 and 503, up to the cap', () => {
    expect(decideRetry(policy, 1, 429, '7', now)).toEqual({ kind: 'retry', delayMs: 7000, fromHeader: true });
    expect(decideRetry(policy, 1, 503, 'Thu, 01 Jan 2026 00:00:30 GMT', now)).toEqual({
      kind: 'retry',
      delayMs: 30_000,
      fromHeader: true,
    });
    const long = decideRetry(policy, 1, 429, '3600', now);
    expect(long).toEqual({ kind: 'too-long', retryAfterMs: 3_600_000 });
    expect(words(long)).toMatch(/Retry-After asks for 3600 s, more than the 60 s waited at most/);
  });
});

describe('scope and crawler traps', () => {
  const scope = new Scope({
    origins: ['https://example.com'],
    hosts: ['cdn.example.net'],
    subdomains: true,
    pathPrefix: '/',
    include: [],
    exclude: ['/private/**', '**/*.zip'],
    trapGuards: true,
    year: 2026,
  });

  it('takes the start origin, extra hosts and subdomains; other hosts are external', () => {
    expect(scope.check('https://example.com/a')).toBeUndefined();
    expect(scope.check('https://www.example.com/a')).toBeUndefined();
    expect(scope.check('https://cdn.example.net/a')).toBeUndefined();
    expect(scope.check('https://evil-example.com/')?.verdict).toBe('external');
    expect(scope.check('http://example.com/a')?.verdict).toBe('external');
  });

  it('applies exclude globs to path and query, but never to start URLs', () => {
    expect(scope.check('https://example.com/private/x')).toEqual({
      verdict: 'excluded',
      reason: 'matches --exclude /private/**',
    });
    expect(scope.check('https://example.com/files/a.zip')?.verdict).toBe('excluded');
    expect(scope.check('https://example.com/private/x', true)).toBeUndefined();
  });

  it('guards against repeating segments, deep paths and endless calendars', () => {
    const t = (u: string): string | undefined => trapReason(new URL(u), 2026);
    expect(t('https://e.com/a/b/a/b/a/b')).toMatch(/repeats 3 times/);
    expect(t(`https://e.com/${Array.from({ length: 31 }, (_, i) => `s${i}`).join('/')}`)).toMatch(
      /31 path segments/,
    );
    expect(t('https://e.com/calendar/2031/07/')).toMatch(/calendar page for 2031-07/);
    expect(t('https://e.com/events?month=1850-01')).toMatch(/calendar page for 1850-01/);
    expect(t('https://e.com/calendar/2026/07/')).toBeUndefined();
    expect(t('https://e.com/blog/2019/05/post')).toBeUndefined();
    expect(t('https://e.com/a/b/a/c')).toBeUndefined();
  });

  it('groups query URLs by path and parameter names for the per-pattern cap', () => {
    expect(urlPattern('https://e.com/list?page=3&sort=a')).toBe('https://e.com/list?page&sort');
    expect(urlPattern('https://e.com/list?sort=b&page=9')).toBe('https://e.com/list?page&sort');
    expect(urlPattern('https://e.com/list')).toBeUndefined();
  });
});

describe('page rules', () => {
  it('reads X-Robots-Tag with and without agents', () => {
    const m = parseXRobotsTag([
      'noarchive, googlebot: noindex, nofollow',
      'unavailable_after: 25 Jun 2030 15:00:00 PST',
    ]);
    expect(m.get('*')).toEqual(['noarchive', 'unavailable_after']);
    expect(m.get('googlebot')).toEqual(['noindex', 'nofollow']);
  });

  it('a noindex from meta robots, an agent meta or the header keeps the page out', () => {
    const meta = (robots: string[], agentRobots: Record<string, string[]> = {}) => ({ robots, agentRobots });
    expect(robotsDirectives(meta(['noindex']), [], ['googlebot']).noindexSource).toBe('<meta name="robots">');
    expect(robotsDirectives(meta([], { googlebot: ['none'] }), [], ['googlebot'])).toEqual({
      noindex: true,
      nofollow: true,
      noindexSource: '<meta name="googlebot">',
    });
    expect(robotsDirectives(meta([], { otherbot: ['noindex'] }), [], ['googlebot']).noindex).toBe(false);
    expect(robotsDirectives(undefined, ['bingbot: noindex'], ['bingbot']).noindexSource).toBe(
      'X-Robots-Tag: bingbot',
    );
    expect(robotsDirectives(meta(['nofollow']), ['noindex'], [])).toEqual({
      noindex: true,
      nofollow: true,
      noindexSource: 'X-Robots-Tag',
    });
  });

  it('finds rel=canonical in a Link header', () => {
    expect(canonicalFromLinkHeader('<https://e.com/a.pdf>; rel="canonical"')).toBe('https://e.com/a.pdf');
    expect(
      canonicalFromLinkHeader('<https://e.com/s.css>; rel=preload, </b>; rel="alternate canonical"'),
    ).toBe('/b');
    expect(canonicalFromLinkHeader('<https://e.com/s.css>; rel=preload')).toBeUndefined();
    expect(canonicalFromLinkHeader(null)).toBeUndefined();
  });

  it('lastmod: JSON-LD, then article:modified_time, then an old enough Last-Modified; never now', () => {
    const date = 'Wed, 01 Jul 2026 12:00:00 GMT';
    const fetched = Date.parse(date);
    expect(
      pageLastmod(
        { jsonLdDateModified: '2024-05-06', articleModifiedTime: '2023-01-01' },
        null,
        date,
        fetched,
      ),
    ).toEqual({
      value: '2024-05-06',
      source: 'json-ld',
    });
    expect(
      pageLastmod(
        { jsonLdDateModified: 'yesterday', articleModifiedTime: '2023-01-02T10:00:00+02:00' },
        null,
        date,
        fetched,
      ),
    ).toEqual({ value: '2023-01-02T10:00:00+02:00', source: 'article:modified_time' });
    expect(pageLastmod(undefined, 'Tue, 30 Jun 2026 08:00:00 GMT', date, fetched)).toEqual({
      value: '2026-06-30T08:00:00Z',
      source: 'last-modified',
    });
    // A server that stamps "now" (within a minute of Date) states no modification.
    expect(pageLastmod(undefined, 'Wed, 01 Jul 2026 11:59:30 GMT', date, fetched)).toBeUndefined();
    expect(pageLastmod(undefined, 'Wed, 01 Jul 2026 11:59:30 GMT', null, fetched)).toBeUndefined();
    expect(pageLastmod(undefined, null, date, fetched)).toBeUndefined();
  });

  it('priority by depth from a table whose last value covers the deeper pages', () => {
    const t = [1, 0.8, 0.5, 0.3];
    expect([0, 1, 2, 3, 9].map((d) => priorityForDepth(d, t))).toEqual([1, 0.8, 0.5, 0.3, 0.3]);
  });

  it('charset from the BOM, the Content-Type and the meta prescan', () => {
    expect(charsetFromBom(new Uint8Array([0xef, 0xbb, 0xbf, 0x3c]))).toBe('utf-8');
    expect(charsetFromBom(new Uint8Array([0xff, 0xfe]))).toBe('utf-16le');
    expect(charsetFromContentType('text/html; charset="ISO-8859-1"')).toBe('iso-8859-1');
    expect(charsetFromContentType('text/html')).toBeUndefined();
    const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
    expect(charsetFromPrescan(bytes('<head><meta charset="windows-1252">'))).toBe('windows-1252');
    expect(
      charsetFromPrescan(bytes('<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">')),
    ).toBe('shift_jis');
    expect(charsetFromPrescan(bytes('<meta charset="utf-16">'))).toBe('utf-8');
  });
});

describe('the streaming page reader', () => {
  const page = `<!doctype html><html><head><title> A &amp; B
  title</title><base href="/docs/"><link rel="canonical" href="x.html"><meta name="robots" content="NOINDEX, follow">
  <meta name="googlebot" content="nofollow"><meta property="article:modified_time" content="2024-01-02">
  <link rel="alternate" hreflang="de" href="/de/"><script type="application/ld+json">{"@graph":[{"dateModified":"2024-03-04"}]}</script>
  </head><body><a href="/a">a</a><a rel="nofollow sponsored" href="/b">b</a><area href="/c">
  <img src="/i.png" srcset="/i-2x.png 2x, /i-3x.png 3x"></body></html>`;

  it('gives the same findings for any chunking, down to one character at a time', () => {
    const whole = readPageMeta(page);
    expect(whole.title).toBe('A & B title');
    expect(whole.robots).toEqual(['noindex', 'follow']);
    expect(whole.jsonLdDateModified).toBe('2024-03-04');
    expect(whole.links).toEqual([
      { href: '/a', nofollow: false },
      { href: '/b', nofollow: true },
      { href: '/c', nofollow: false },
    ]);
    expect(whole.images).toEqual(['/i.png', '/i-2x.png', '/i-3x.png']);
    const byChar = new PageMetaReader();
    for (const ch of page) byChar.write(ch);
    expect(byChar.end()).toEqual(whole);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: page.length - 1 }), { maxLength: 12 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const r = new PageMetaReader();
        let at = 0;
        for (const p of [...points, page.length]) {
          r.write(page.slice(at, p));
          at = p;
        }
        expect(r.end()).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });
});
