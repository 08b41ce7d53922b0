import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRobotsTxt, RobotsTxt } from '../../src/robots/index.js';
import { escapePattern, matchesPattern, robotsPath } from '../../src/robots/match.js';

const U = 'https://example.com';

describe('parsing', () => {
  it('reads CR, LF and CRLF line ends and numbers lines like Google', () => {
    const robots = parseRobotsTxt('User-agent: *\r\nDisallow: /a\rDisallow: /b\n\r\nDisallow: /c');
    expect(robots.lines.map((l) => [l.line, l.kind])).toEqual([
      [1, 'user-agent'],
      [2, 'disallow'],
      [3, 'disallow'],
      [4, 'empty'],
      [5, 'disallow'],
    ]);
    expect(robots.explain(`${U}/c`, 'x')).toMatchObject({ allowed: false, line: 5, rule: 'Disallow: /c' });
  });

  it('skips a UTF-8 BOM, even a partial one, given as text or bytes', () => {
    for (const prefix of [[0xef, 0xbb, 0xbf], [0xef, 0xbb], [0xef]]) {
      const bytes = new Uint8Array([...prefix, ...new TextEncoder().encode('User-agent: *\nDisallow: /x\n')]);
      expect(parseRobotsTxt(bytes).isAllowed(`${U}/x`, 'a')).toBe(false);
    }
    expect(parseRobotsTxt('\uFEFFUser-agent: *\nDisallow: /x').isAllowed(`${U}/x`, 'a')).toBe(false);
  });

  it('google mode forgives a missing colon and typos; rfc mode does not', () => {
    const text = 'useragent FooBot\ndissallow: /a\nDisallow /b\n';
    const g = parseRobotsTxt(text);
    expect(g.isAllowed(`${U}/a`, 'FooBot')).toBe(false);
    expect(g.isAllowed(`${U}/b`, 'FooBot')).toBe(false);
    expect(g.lines.map((l) => [l.typo ?? false, l.missingColon ?? false])).toEqual([
      [true, true],
      [true, false],
      [false, true],
      [false, false],
    ]);
    const r = parseRobotsTxt(text, { mode: 'rfc' });
    expect(r.isAllowed(`${U}/a`, 'FooBot')).toBe(true);
    expect(r.lines.map((l) => l.kind)).toEqual(['invalid', 'unknown', 'invalid', 'empty']);
  });

  it('merges every group of one agent, and a specific group does not inherit from *', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nDisallow: /star\n\nUser-agent: FooBot\nDisallow: /one\n\nUser-agent: BarBot\nUser-agent: foobot\nDisallow: /two\n',
    );
    expect(robots.groupsFor('FOOBOT').map((g) => g.startLine)).toEqual([4, 7]);
    expect(robots.isAllowed(`${U}/one`, 'FooBot')).toBe(false);
    expect(robots.isAllowed(`${U}/two`, 'FooBot')).toBe(false);
    expect(robots.isAllowed(`${U}/star`, 'FooBot')).toBe(true);
    expect(robots.isAllowed(`${U}/star`, 'Other')).toBe(false);
    expect(robots.hasGroupFor('barbot')).toBe(true);
  });

  it('ignores rules before the first User-agent line and keeps them for the lint', () => {
    const robots = parseRobotsTxt('Disallow: /\nUser-agent: *\nAllow: /x\n');
    expect(robots.isAllowed(`${U}/y`, 'a')).toBe(true);
    expect(robots.orphanRules.map((r) => r.line)).toEqual([1]);
  });

  it('collects Sitemap lines anywhere, resolves relative ones against `url`, and drops duplicates', () => {
    const robots = parseRobotsTxt(
      'Sitemap: https://example.com/a.xml\nUser-agent: *\nsitemap: /b.xml\nDisallow: /\nSitemap: https://example.com/a.xml\nSite-map: ftp://x/c\n',
      { url: 'https://example.com/robots.txt' },
    );
    expect(robots.sitemaps).toEqual(['https://example.com/a.xml', 'https://example.com/b.xml']);
    expect(robots.sitemapLines.map((s) => [s.line, s.relative])).toEqual([
      [1, false],
      [3, true],
      [5, false],
      [6, false],
    ]);
    expect(parseRobotsTxt('Sitemap: /b.xml').sitemaps).toEqual([]);
    // Sitemap lines do not end a group: the Disallow after one still belongs to `*`.
    expect(robots.isAllowed(`${U}/x`, 'a')).toBe(false);
  });

  it('exposes Crawl-delay of the group that applies, in seconds', () => {
    const robots = parseRobotsTxt(
      'User-agent: *\nDisallow: /tmp\nCrawl-delay: 2.5\n\nUser-agent: Slow\nDisallow:\nCrawl-delay: 10\nCrawl-delay: 20\nUser-agent: Bad\nDisallow: /\nCrawl-delay: soon\n',
    );
    expect(robots.crawlDelay('Other')).toBe(2.5);
    expect(robots.crawlDelay('slow')).toBe(10);
    expect(robots.crawlDelay('Bad')).toBeUndefined();
  });

  it('only Allow/Disallow end a group (Google): a User-agent after other lines joins the group above', () => {
    const robots = parseRobotsTxt('User-agent: *\nCrawl-delay: 3\nUser-agent: Slow\nDisallow: /x\n');
    expect(robots.groups).toHaveLength(1);
    expect(robots.crawlDelay('Slow')).toBe(3);
    expect(robots.isAllowed(`${U}/x`, 'Slow')).toBe(false);
  });

  it('percent-encodes non-ASCII octets of patterns and matches the URL exactly as given', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /caf\u00e9\nDisallow: /%7euser\n');
    expect(robots.isAllowed(`${U}/caf%C3%A9`, 'a')).toBe(false);
    expect(robots.isAllowed(`${U}/caf\u00e9`, 'a')).toBe(true);
    expect(robots.isAllowed(`${U}/%7Euser`, 'a')).toBe(false);
    expect(robots.isAllowed(`${U}/~user`, 'a')).toBe(true);
  });

  it('google mode: Allow …/index.html also allows the directory', () => {
    const text = 'User-agent: *\nDisallow: /\nAllow: /docs/index.html\n';
    const e = parseRobotsTxt(text).explain(`${U}/docs/`, 'a');
    expect(e).toMatchObject({ allowed: true, line: 3 });
    expect(e.reason).toMatch(/index\.html/);
    expect(parseRobotsTxt(text, { mode: 'rfc' }).isAllowed(`${U}/docs/`, 'a')).toBe(false);
  });

  it('rfc mode always allows /robots.txt; google mode does not', () => {
    const text = 'User-agent: *\nDisallow: /\n';
    expect(parseRobotsTxt(text, { mode: 'rfc' }).isAllowed(`${U}/robots.txt`, 'a')).toBe(true);
    expect(parseRobotsTxt(text).isAllowed(`${U}/robots.txt`, 'a')).toBe(false);
  });

  it('google mode cuts lines at 16,663 bytes and flags them', () => {
    const long = `/${'a'.repeat(20_000)}`;
    const robots = parseRobotsTxt(`User-agent: *\nDisallow: ${long}\n`);
    expect(robots.lines[1]?.tooLong).toBe(true);
    expect(robots.groups[0]?.rules[0]?.pattern.length).toBe(16_663 - 'Disallow: '.length);
    expect(
      parseRobotsTxt(`User-agent: *\nDisallow: ${long}\n`, { mode: 'rfc' }).lines[1]?.tooLong,
    ).toBeUndefined();
  });

  it('stops at maxBytes, dropping the partial last line', () => {
    const robots = parseRobotsTxt('User-agent: *\nDisallow: /abc\nDisallow: /def\n', { maxBytes: 35 });
    expect(robots.truncated).toBe(true);
    expect(robots.bytes).toBe(44);
    expect(robots.isAllowed(`${U}/abc`, 'a')).toBe(false);
    expect(robots.isAllowed(`${U}/d`, 'a')).toBe(true);
  });

  it('explains every kind of decision', () => {
    const robots = parseRobotsTxt('User-agent: FooBot\nDisallow: /a\nAllow: /a/b\nAllow: /c\nDisallow: /c\n');
    expect(robots.explain(`${U}/a/x`, 'FooBot')).toEqual({
      allowed: false,
      line: 2,
      rule: 'Disallow: /a',
      reason: 'Disallow: /a matches /a/x in the group for FooBot (line 1)',
    });
    expect(robots.explain(`${U}/a/b`, 'FooBot').reason).toMatch(
      /Allow: \/a\/b \(4 octets\) is longer than Disallow: \/a \(line 2\)/,
    );
    expect(robots.explain(`${U}/c`, 'FooBot').reason).toMatch(/least restrictive rule, Allow, wins/);
    expect(robots.explain(`${U}/z`, 'FooBot')).toMatchObject({ allowed: true, line: null, rule: null });
    expect(robots.explain(`${U}/z`, 'Other').reason).toMatch(/no group for "Other" and no \* group/);
    expect(RobotsTxt.disallowAll('down').explain(`${U}/`, 'a')).toEqual({
      allowed: false,
      line: null,
      rule: null,
      reason: 'down',
    });
  });

  it('rejects an unknown mode', () => {
    expect(() => parseRobotsTxt('', { mode: 'strict' as 'rfc' })).toThrow(/mode must be/);
  });
});

describe('matching primitives', () => {
  it('robotsPath keeps path, params and query as given and drops the fragment', () => {
    expect(robotsPath('')).toBe('/');
    expect(robotsPath('http://a.com')).toBe('/');
    expect(robotsPath('http://a.com/a/b?c=http://d.e/')).toBe('/a/b?c=http://d.e/');
    expect(robotsPath('http://a.com/a;b?c#frag')).toBe('/a;b?c');
    expect(robotsPath('example.com?a')).toBe('/?a');
    expect(robotsPath('//a.com/x')).toBe('/x');
    expect(robotsPath('http://a.com/%7e/A')).toBe('/%7e/A');
  });

  it('escapePattern upper-cases escapes and encodes high octets', () => {
    expect(escapePattern('/a%2fb%C3%a9')).toBe('/a%2Fb%C3%A9');
    expect(escapePattern('/\xc3\xa9')).toBe('/%C3%A9');
    expect(escapePattern('/plain/%zz')).toBe('/plain/%zz');
  });

  it('matchesPattern agrees with a reference regex on random patterns over a small alphabet', () => {
    const chars = fc.constantFrom('/', 'a', 'b', '*', '$', '?');
    fc.assert(
      fc.property(
        fc.string({ unit: chars, maxLength: 8 }),
        fc.string({ unit: fc.constantFrom('/', 'a', 'b', '$', '?'), maxLength: 10 }),
        (pattern, rest) => {
          const path = `/${rest}`;
          const body = pattern.endsWith('$') ? pattern.slice(0, -1) : pattern;
          const src = body.replace(/[.*+?^${}()|[\]\\/]/g, (c) => (c === '*' ? '[\\s\\S]*' : `\\${c}`));
          const re = new RegExp(`^${src}${pattern.endsWith('$') ? '$' : ''}`);
          expect(matchesPattern(path, pattern)).toBe(re.test(path));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('stays polynomial on hostile patterns', () => {
    const path = `/${'a'.repeat(5000)}`;
    expect(matchesPattern(path, `/${'*a'.repeat(200)}b`)).toBe(false);
  });
});

describe('properties', () => {
  const line = fc.oneof(
    fc.constantFrom(
      'User-agent: *',
      'User-agent: FooBot',
      'user-agent: barbot',
      '',
      '# c',
      'Sitemap: https://x.y/s.xml',
      'Crawl-delay: 1',
    ),
    fc
      .tuple(
        fc.constantFrom('Allow', 'Disallow', 'disallow'),
        fc.string({ unit: fc.constantFrom('/', 'a', 'b', '*', '$', 'é', '%61'), maxLength: 5 }),
      )
      .map(([k, v]) => `${k}: ${v}`),
  );
  const file = fc.array(line, { maxLength: 12 });
  const url = fc
    .string({ unit: fc.constantFrom('/', 'a', 'b', 'é', '?', '%61'), maxLength: 6 })
    .map((p) => `${U}/${p}`);
  const agent = fc.constantFrom('FooBot', 'BarBot', 'Other');

  it('the line-ending style and a BOM never change a decision', () => {
    fc.assert(
      fc.property(file, url, agent, (lines, u, a) => {
        const expected = parseRobotsTxt(lines.join('\n')).isAllowed(u, a);
        expect(parseRobotsTxt(lines.join('\r\n')).isAllowed(u, a)).toBe(expected);
        expect(parseRobotsTxt(lines.join('\r')).isAllowed(u, a)).toBe(expected);
        expect(parseRobotsTxt(`\uFEFF${lines.join('\n')}`).isAllowed(u, a)).toBe(expected);
        expect(parseRobotsTxt(new TextEncoder().encode(lines.join('\n'))).isAllowed(u, a)).toBe(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it('explain() agrees with isAllowed(), and its line holds the deciding rule', () => {
    fc.assert(
      fc.property(
        file,
        url,
        agent,
        fc.constantFrom('google' as const, 'rfc' as const),
        (lines, u, a, mode) => {
          const robots = parseRobotsTxt(lines.join('\n'), { mode });
          const e = robots.explain(u, a);
          expect(e.allowed).toBe(robots.isAllowed(u, a));
          if (e.line !== null) {
            const l = robots.lines[e.line - 1]!;
            expect(e.allowed ? ['allow', 'disallow'] : ['disallow']).toContain(l.kind);
            expect(e.rule).toBe(`${l.key}: ${l.value}`);
          } else {
            expect(e.allowed).toBe(true);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('with many rules (prefix buckets), isAllowed() still agrees with the full scan of explain()', () => {
    const seg = fc.constantFrom('/a', '/ab', '/b', '/ba', '*', '$', '/', 'a', '?x', 'index.html');
    const rule = fc
      .tuple(fc.constantFrom('Allow', 'Disallow'), fc.array(seg, { minLength: 1, maxLength: 4 }))
      .map(([k, v]) => `${k}: ${v.join('')}`);
    const big = fc
      .tuple(fc.constantFrom('*', 'FooBot'), fc.array(rule, { minLength: 16, maxLength: 60 }))
      .map(([a, rules]) => [`User-agent: ${a}`, ...rules]);
    const path = fc
      .array(fc.constantFrom('/a', '/ab', '/b', '/', 'a', '?x', '/index.html', 'b'), { maxLength: 5 })
      .map((p) => `${U}${p.join('')}`);
    fc.assert(
      fc.property(big, fc.array(path, { minLength: 1, maxLength: 8 }), agent, (lines, urls, a) => {
        const robots = parseRobotsTxt(lines.join('\n'));
        for (const u of urls) expect(robots.isAllowed(u, a)).toBe(robots.explain(u, a).allowed);
      }),
      { numRuns: 800 },
    );
  });

  it('a `Disallow: /` group for an agent blocks every URL for it, whatever else the file holds', () => {
    fc.assert(
      fc.property(file, url, (lines, u) => {
        const robots = parseRobotsTxt([...lines, 'User-agent: Zed', 'Disallow: /'].join('\n'));
        const allowRules = robots.groupsFor('Zed').flatMap((g) => g.rules.filter((r) => r.type === 'allow'));
        if (allowRules.length === 0) expect(robots.isAllowed(u, 'Zed')).toBe(false);
      }),
    );
  });
});
