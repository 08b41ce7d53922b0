import { describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { Collector } from '../../src/validate/collector.js';
import { parseValidateConfig } from '../../src/validate/config.js';
import { FileTally, fileFindings, stampedAt } from '../../src/validate/file-checks.js';
import { isHtmlPage, judgePage, staleLastmod } from '../../src/validate/live/page-verdict.js';
import { similarCodes } from '../../src/validate/options.js';
import { assetKind, bareHost, lastmodInstant, splitOrigin } from '../../src/validate/values.js';

describe('values', () => {
  it('reads every lastmod form the parser keeps as an instant (zoneless as UTC)', () => {
    expect(lastmodInstant('2024-08-15')).toEqual({ ms: Date.parse('2024-08-15T00:00:00Z'), dateOnly: true });
    expect(lastmodInstant('1997')).toEqual({ ms: Date.parse('1997-01-01T00:00:00Z'), dateOnly: true });
    expect(lastmodInstant('1997-07')).toEqual({ ms: Date.parse('1997-07-01T00:00:00Z'), dateOnly: true });
    expect(lastmodInstant('1997-07-16T19:20+01:00')?.ms).toBe(Date.parse('1997-07-16T18:20:00Z'));
    expect(lastmodInstant('1997-07-16T19:20:30.45-05:30')?.ms).toBe(Date.parse('1997-07-17T00:50:30.450Z'));
    expect(lastmodInstant('2005-01-01T12:00:00')).toEqual({
      ms: Date.parse('2005-01-01T12:00:00Z'),
      dateOnly: false,
    });
    expect(lastmodInstant('2024-08-15+02:00')?.ms).toBe(Date.parse('2024-08-14T22:00:00Z'));
    expect(lastmodInstant('01/01/2005')).toBeUndefined();
  });

  it('names assets by extension, case-insensitively, ignoring query and fragment; pages and PDFs are not assets', () => {
    expect(assetKind('https://e.com/a/b.JPEG?x=1#y')).toBe('an image');
    expect(assetKind('https://e.com/feed.rss')).toBe('a data file, feed or sitemap');
    expect(assetKind('https://e.com/v.m3u8')).toBe('an audio or video file');
    expect(assetKind('https://e.com/doc.pdf')).toBeUndefined();
    expect(assetKind('https://e.com/v1.2/')).toBeUndefined();
    expect(assetKind('https://e.com/page?file=a.png')).toBeUndefined();
    expect(assetKind('https://e.com/archive.tar.gz')).toBe('an archive or download');
    expect(assetKind('https://e.com/x.verylongext')).toBeUndefined();
  });

  it('splits origins and strips www.', () => {
    expect(splitOrigin('HTTPS://WWW.Example.com:8443/a?b')).toEqual({
      scheme: 'https',
      host: 'www.example.com:8443',
      origin: 'https://www.example.com:8443',
    });
    expect(splitOrigin('ftp://x/')).toBeUndefined();
    expect(bareHost('www.example.com')).toBe('example.com');
    expect(bareHost('wwwexample.com')).toBe('wwwexample.com');
  });
});

describe('file checks', () => {
  const tally = (values: string[]): FileTally => {
    const t = new FileTally();
    for (const v of values) {
      t.entries++;
      t.addLastmod(v, lastmodInstant(v));
    }
    return t;
  };
  const at = (iso: string) => [{ ms: Date.parse(iso), what: 'the file was modified' }];

  it('stamped lastmods: within minutes of each other and of a generation time; dates: that day in some zone', () => {
    const times = Array.from({ length: 10 }, (_, i) => `2024-06-01T10:0${i}:00Z`);
    expect(stampedAt(tally(times), at('2024-06-01T10:09:30Z'))).toBeDefined();
    expect(stampedAt(tally(times), at('2024-06-01T11:00:00Z'))).toBeUndefined();
    expect(stampedAt(tally([...times, '2024-06-01T09:30:00Z']), at('2024-06-01T10:09:30Z'))).toBeUndefined();
    const days = Array.from({ length: 10 }, () => '2024-06-01');
    expect(stampedAt(tally(days), at('2024-06-01T23:00:00Z'))).toBeDefined();
    expect(stampedAt(tally(days), at('2024-05-31T20:00:00Z'))).toBeDefined();
    expect(stampedAt(tally(days), at('2024-06-03T12:00:00Z'))).toBeUndefined();
    expect(stampedAt(tally(days.slice(1)), at('2024-06-01T23:00:00Z'))).toBeUndefined();
  });

  it('one finding each: generation time wins over identical; news and notes counted', () => {
    const t = tally(Array.from({ length: 10 }, () => '2024-06-01'));
    t.news = 1001;
    t.priority = { count: 3, line: 4, url: 'https://e.com/' };
    expect(fileFindings(t, at('2024-06-01T12:00:00Z')).map((f) => f.code)).toEqual([
      'lastmod-generation-time',
      'news-too-many',
      'priority-ignored',
    ]);
    expect(fileFindings(t, []).map((f) => f.code)).toEqual([
      'lastmod-identical',
      'news-too-many',
      'priority-ignored',
    ]);
  });
});

describe('live verdicts', () => {
  const facts = (status: number, headers: Record<string, string> = {}, html?: string) => ({
    url: 'https://e.com/p/',
    status,
    headers,
    ...(html === undefined ? {} : { html }),
  });

  it('status classes; a redirect names its absolute target', () => {
    expect(judgePage(facts(302, { location: '../q' }), undefined, 'Googlebot')).toEqual([
      { code: 'live-redirect', message: 'redirects (302) to https://e.com/q: list the target instead' },
    ]);
    expect(judgePage(facts(308), undefined, 'Googlebot')[0]!.message).toBe(
      'HTTP 308 without a Location header',
    );
    expect(judgePage(facts(403), undefined, 'Googlebot')[0]!.code).toBe('live-client-error');
    expect(judgePage(facts(503), undefined, 'Googlebot')[0]!.code).toBe('live-server-error');
    expect(
      judgePage(facts(200, { 'content-type': 'text/html' }, '<title>x</title>'), undefined, 'Googlebot'),
    ).toEqual([]);
  });

  it('noindex for the chosen agent only, from meta tags or X-Robots-Tag', () => {
    const html = '<meta name="googlebot" content="noindex"><meta name="bingbot" content="none">';
    expect(judgePage(facts(200, {}, html), undefined, 'Googlebot').map((f) => f.code)).toEqual([
      'live-noindex',
    ]);
    expect(judgePage(facts(200, {}, html), undefined, 'Bingbot').map((f) => f.code)).toEqual([
      'live-noindex',
    ]);
    expect(judgePage(facts(200, {}, html), undefined, 'DuckDuckBot')).toEqual([]);
    expect(judgePage(facts(200, { 'x-robots-tag': 'bingbot: noindex' }), undefined, 'Googlebot')).toEqual([]);
    expect(
      judgePage(facts(200, { 'x-robots-tag': 'googlebot: noindex' }), undefined, 'Googlebot')[0]!.code,
    ).toBe('live-noindex');
    expect(
      judgePage(
        facts(200, { 'x-robots-tag': 'unavailable_after: 25 Jun 2010 15:00:00 PST' }),
        undefined,
        'Googlebot',
      ),
    ).toEqual([]);
  });

  it('canonicals: relative ones resolve against <base href>; the Link header counts; the meta tag wins', () => {
    expect(
      judgePage(facts(200, {}, '<base href="/x/"><link rel="canonical" href="y">'), undefined, 'Googlebot'),
    ).toEqual([
      {
        code: 'live-canonical-elsewhere',
        message: 'its canonical is https://e.com/x/y: list that URL instead',
      },
    ]);
    expect(judgePage(facts(200, {}, '<link rel="canonical" href="./">'), undefined, 'Googlebot')).toEqual([]);
    expect(
      judgePage(
        facts(200, { link: '<https://e.com/p/>; rel="canonical"' }, '<link rel="canonical" href="/z">'),
        undefined,
        'Googlebot',
      )[0]!.message,
    ).toContain('https://e.com/z');
    expect(
      judgePage(
        facts(200, { 'content-type': 'application/pdf', link: '<https://e.com/a.pdf>; rel=canonical' }),
        undefined,
        'Googlebot',
      ).map((f) => f.code),
    ).toEqual(['live-canonical-elsewhere']);
    expect(
      judgePage(facts(200, {}, '<link rel="canonical" href="http://[bad">'), undefined, 'Googlebot').map(
        (f) => f.code,
      ),
    ).toEqual(['canonical-ignored']);
  });

  it('non-HTML: anything but HTML, XHTML and PDF; a missing Content-Type is read as HTML', () => {
    expect(isHtmlPage(undefined)).toBe(true);
    expect(isHtmlPage('application/xhtml+xml; charset=utf-8')).toBe(true);
    expect(isHtmlPage('text/plain')).toBe(false);
    expect(
      judgePage(facts(200, { 'content-type': 'text/plain; charset=utf-8' }), undefined, 'Googlebot')[0]!
        .message,
    ).toBe('is text/plain, not an HTML page');
  });

  it('stale lastmod: Last-Modified later than lastmod; a date covers its day; a Last-Modified equal to Date is ignored', () => {
    const lm = 'Tue, 04 Jun 2024 10:00:00 GMT';
    expect(staleLastmod('2024-06-01T00:00:00Z', lm, undefined)).toBe(
      `lastmod 2024-06-01T00:00:00Z is older than the page's Last-Modified (${lm})`,
    );
    expect(staleLastmod('2024-06-04T09:59:30Z', lm, undefined)).toBeUndefined();
    expect(staleLastmod('2024-06-04', lm, undefined)).toBeUndefined();
    expect(staleLastmod('2024-06-02', lm, undefined)).toBeDefined();
    expect(staleLastmod('2024-06-01', lm, 'Tue, 04 Jun 2024 10:00:30 GMT')).toBeUndefined();
    expect(staleLastmod(undefined, lm, undefined)).toBeUndefined();
    expect(staleLastmod('2024-06-01', 'yesterday', undefined)).toBeUndefined();
  });
});

describe('collector', () => {
  it('applies overrides, keeps bounded samples, counts everything per rule and per sitemap', () => {
    const seen: string[] = [];
    const c = new Collector({
      settings: new Map([
        ['url-duplicate', 'error'],
        ['bom', 'off'],
      ]),
      maxDiagnostics: 3,
      maxPerRule: 2,
      onDiagnostic: (d) => seen.push(`${d.code}:${d.severity}`),
    });
    for (let i = 0; i < 3; i++)
      c.add({ code: 'url-duplicate', severity: 'warning', message: 'm', sitemap: 'a.xml' });
    c.add({ code: 'bom', severity: 'info', message: 'm', sitemap: 'a.xml' });
    c.add({ code: 'url-asset', severity: 'warning', message: 'm' });
    c.add({ code: 'url-asset', severity: 'warning', message: 'm' });
    expect(c.diagnostics.map((d) => d.code)).toEqual(['url-duplicate', 'url-duplicate', 'url-asset']);
    expect(c.diagnostics[0]!.fix).toBe('List each URL once; drop the copies.');
    expect(c.counts).toEqual({ error: 3, warning: 2, info: 0 });
    expect(c.rules().map((r) => [r.code, r.severity, r.count])).toEqual([
      ['url-duplicate', 'error', 3],
      ['url-asset', 'warning', 2],
    ]);
    expect(c.perSitemap()).toEqual({ 'a.xml': { 'url-duplicate': 3 }, '': { 'url-asset': 2 } });
    expect(seen).toHaveLength(5);
  });

  it("adds the parser's suppressed occurrences to their rule", () => {
    const c = new Collector({ settings: new Map(), maxDiagnostics: 10, maxPerRule: 10 });
    c.add({
      code: 'diagnostics-suppressed',
      severity: 'info',
      message: 'priority-invalid occurred 1,234 times; only the first 100 were reported',
      sitemap: 's.xml',
    });
    expect(c.rules().map((r) => [r.code, r.count])).toEqual([
      ['priority-invalid', 1134],
      ['diagnostics-suppressed', 1],
    ]);
    expect(c.counts.error).toBe(1134);
  });
});

describe('config and codes', () => {
  it('reads the validate section; relative robots paths are relative to the file', () => {
    const c = parseValidateConfig(
      JSON.stringify({
        other: { anything: true },
        validate: {
          rules: { bom: 'off' },
          maxWarnings: 3,
          robots: 'public/robots.txt',
          live: { concurrency: 4 },
          format: 'junit',
        },
      }),
      '/project/sitemapkit.config.json',
    );
    expect(c).toEqual({
      rules: { bom: 'off' },
      maxWarnings: 3,
      robots: '/project/public/robots.txt',
      live: { concurrency: 4 },
      format: 'junit',
    });
    expect(parseValidateConfig('{}', 'x.json')).toEqual({});
  });

  it.each([
    ['{"validate": {"rules": {"bom": "loud"}}}', 'validate.rules: "bom" must be error, warning, info or off'],
    ['{"validate": {"live": {"speed": 9}}}', 'validate.live.speed is not a setting'],
    ['{"validate": {"maxWarnings": -1}}', 'validate.maxWarnings must be a whole number of at least 0'],
    ['{"validate": {"format": "pdf"}}', 'validate.format must be one of text, json, junit, html'],
    ['[1]', 'the config file must hold a JSON object'],
  ])('refuses %s', (text, message) => {
    let error: unknown;
    try {
      parseValidateConfig(text, 'c.json');
    } catch (e) {
      error = e;
    }
    expect(isSitemapkitError(error, 'ERR_OPTIONS')).toBe(true);
    expect((error as Error).message.startsWith(message)).toBe(true);
    expect((error as { where: string }).where).toBe('c.json');
  });

  it('suggests the closest codes', () => {
    expect(similarCodes('url-duplicates')[0]).toBe('url-duplicate');
    expect(similarCodes('lastmod-futur')[0]).toBe('lastmod-future');
    expect(similarCodes('zzzzzzzzzzzzzzzzzzzz')).toEqual([]);
  });
});
