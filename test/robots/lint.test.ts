import { describe, expect, it } from 'vitest';
import { findSitemapConflict, lintRobotsTxt, parseRobotsTxt, ROBOTS_RULES } from '../../src/robots/index.js';

const codes = (text: string, mode: 'google' | 'rfc' = 'google'): Array<[string, number | undefined]> =>
  lintRobotsTxt(parseRobotsTxt(text, { mode })).map((d) => [d.code, d.line]);

describe('lintRobotsTxt', () => {
  it('a clean file has no findings', () => {
    expect(
      codes(
        'User-agent: *\nDisallow: /private/\nAllow: /private/open\n\nSitemap: https://example.com/sitemap.xml\n',
      ),
    ).toEqual([]);
  });

  it('flags rules outside any group', () => {
    expect(codes('Disallow: /x\nUser-agent: *\nDisallow: /y\nSitemap: https://e.com/s.xml')).toEqual([
      ['robots-rule-outside-group', 1],
    ]);
  });

  it('flags unknown directives, notes known extensions, and flags invalid lines', () => {
    const d = lintRobotsTxt(
      parseRobotsTxt(
        'User-agent: *\nDisalow-all: /\nNoindex: /x\nHost: example.com\njust words here\nSitemap: https://e.com/s.xml',
      ),
    );
    expect(d.map((x) => [x.code, x.line, x.severity])).toEqual([
      ['robots-typo', 2, 'warning'],
      ['robots-unknown-directive', 3, 'info'],
      ['robots-unknown-directive', 4, 'info'],
      ['robots-invalid-line', 5, 'warning'],
    ]);
    expect(d[1]?.message).toMatch(/2019/);
    // Unsupported directives, not typos: the fix says so and what to use instead (issue 11).
    for (const x of [d[1]!, d[2]!]) {
      expect(x.fix).not.toMatch(/spelling/i);
      expect(x.fix).toMatch(/unsupported directive, not a typo/);
    }
    expect(d[1]!.fix).toMatch(/<meta name="robots" content="noindex">.*X-Robots-Tag/);
    expect(d[2]!.fix).toMatch(/redirect.*canonical/);
    expect(codes('User-agent: *\nFoo: bar\nSitemap: https://e.com/s.xml')).toEqual([
      ['robots-unknown-directive', 2],
    ]);
  });

  it('flags typos and missing colons that only Google forgives', () => {
    expect(codes('User agent: *\nDissallow: /a\nDisallow /b\nSitemap: https://e.com/s.xml')).toEqual([
      ['robots-typo', 1],
      ['robots-typo', 2],
      ['robots-missing-colon', 3],
    ]);
  });

  it('flags unreachable rules: duplicates, ties lost to Allow, empty Allow, paths without /, unmatched groups', () => {
    const d = lintRobotsTxt(
      parseRobotsTxt(
        'User-agent: *\nDisallow: /a\nDisallow: /a\nAllow: /b\nDisallow: /b\nAllow:\nDisallow: private\n\nUser-agent: 42bot\nDisallow: /\n\nUser-agent: FooBot\nDisallow: /a\nSitemap: https://e.com/s.xml',
      ),
    );
    const unreachable = d.filter((x) => x.code === 'robots-unreachable-rule');
    expect(unreachable.map((x) => x.line)).toEqual([3, 5, 6, 7, 10]);
    expect(unreachable[0]?.message).toMatch(/repeats Disallow: \/a \(line 2\)/);
    expect(unreachable[1]?.message).toMatch(/Allow wins ties/);
    expect(unreachable[4]?.message).toMatch(/no product token/);
    expect(d.find((x) => x.code === 'robots-agent-token')?.line).toBe(9);
  });

  it('a rule repeated in another group of the same agent is unreachable only if it is so for every agent of its group', () => {
    const text =
      'User-agent: A\nDisallow: /x\n\nUser-agent: A\nUser-agent: B\nDisallow: /x\nSitemap: https://e.com/s.xml';
    expect(codes(text)).toEqual([]);
    expect(
      codes('User-agent: A\nDisallow: /x\n\nUser-agent: A\nDisallow: /x\nSitemap: https://e.com/s.xml'),
    ).toEqual([['robots-unreachable-rule', 5]]);
  });

  it('flags relative and invalid Sitemap lines, and a file without one', () => {
    expect(codes('Sitemap: /sitemap.xml\nSitemap: ftp://e.com/s.xml\nUser-agent: *\nDisallow:')).toEqual([
      ['robots-sitemap-relative', 1],
      ['robots-sitemap-invalid', 2],
    ]);
    expect(codes('User-agent: *\nDisallow:')).toEqual([['robots-no-sitemap', undefined]]);
  });

  it('flags invalid Crawl-delay values and product tokens with versions', () => {
    expect(
      codes('Crawl-delay: 1\nUser-agent: Googlebot/2.1\nCrawl-delay: fast\nSitemap: https://e.com/s.xml'),
    ).toEqual([
      ['robots-crawl-delay-invalid', 1],
      ['robots-agent-token', 2],
      ['robots-crawl-delay-invalid', 3],
    ]);
  });

  it('flags an oversized file and over-long lines', () => {
    const big = parseRobotsTxt(`User-agent: *\nDisallow: /${'a'.repeat(20_000)}\n${'#\n'.repeat(300_000)}`);
    expect(lintRobotsTxt(big).map((d) => d.code)).toEqual([
      'robots-too-large',
      'robots-no-sitemap',
      'robots-line-too-long',
    ]);
  });

  it('reports sitemap URLs the rules disallow, with the deciding line, for the default agents', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\nSitemap: https://e.com/s.xml\n',
    );
    const d = lintRobotsTxt(robots, {
      source: 'robots.txt',
      sitemapUrls: ['https://e.com/ok', 'https://e.com/private/a', 'https://e.com/nogoogle/b'],
    });
    expect(d).toEqual([
      {
        code: 'robots-sitemap-disallowed',
        severity: 'warning',
        message:
          'https://e.com/private/a is in the sitemap but disallowed for every crawler without a group of its own (*), Bingbot by Disallow: /private/ (line 2)',
        fix: ROBOTS_RULES['robots-sitemap-disallowed']!.fix,
        url: 'https://e.com/private/a',
        line: 2,
        sitemap: 'robots.txt',
      },
      expect.objectContaining({
        url: 'https://e.com/nogoogle/b',
        line: 5,
        message: expect.stringMatching(/for Googlebot by Disallow: \/nogoogle\//),
      }),
    ]);
    expect(findSitemapConflict(robots, 'https://e.com/private/a', { agents: ['Googlebot'] })).toBeUndefined();
  });

  it('every code it emits is documented in ROBOTS_RULES', () => {
    for (const code of Object.keys(ROBOTS_RULES)) expect(code).toMatch(/^robots-[a-z-]+$/);
    const d = lintRobotsTxt(
      parseRobotsTxt(
        'Disallow: /\nfoo\nUser-agent: 1\nAllow:\nSitemap: x\nCrawl-delay: z\nuseragent a\nbar: 1',
      ),
    );
    for (const x of d) expect(ROBOTS_RULES[x.code]).toBeDefined();
  });
});

describe('docs/robots.md', () => {
  it('documents every lint rule with its severity', async () => {
    const { readFileSync } = await import('node:fs');
    const doc = readFileSync(new URL('../../docs/robots.md', import.meta.url), 'utf8');
    for (const [code, info] of Object.entries(ROBOTS_RULES))
      expect(doc).toContain(`| \`${code}\` | ${info.severity} |`);
  });
});
