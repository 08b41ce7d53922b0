import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fromByteString, toByteString } from '../../src/robots/bytes.js';
import { escapePattern, isProductToken, parseRobotsTxt, robotsPath } from '../../src/robots/index.js';

// The EXPECT_EQ checks of Google's robots_test.cc, kept in the meta file beside the cases.
const meta = JSON.parse(
  readFileSync(new URL('../fixtures/spec/robots-cases.meta.json', import.meta.url), 'utf8'),
) as {
  supplementary: {
    valid_useragent_to_obey: { cases: Array<{ useragent: string | null; valid: boolean }> };
    get_path_params_query: { cases: Array<{ url: string; path: string }> };
    maybe_escape_pattern: { cases: Array<{ pattern: string; escaped: string }> };
    sitemap_lines: { cases: Array<{ robotstxt: string; sitemaps: string[] }> };
    line_endings: {
      cases: Array<{ robotstxt: string; valid_directives: number; last_directive_line: number }>;
    };
    utf8_bom: {
      body: string;
      cases_hex_prefix: Array<{
        prefix_bytes: string;
        where: string;
        valid_directives: number;
        unknown_directives: number;
      }>;
    };
  };
};
const s = meta.supplementary;
const DIRECTIVES = new Set(['user-agent', 'allow', 'disallow', 'sitemap']);

describe("Google's supplementary checks", () => {
  it('product tokens (IsValidUserAgentToObey)', () => {
    expect(s.valid_useragent_to_obey.cases).toHaveLength(11);
    for (const c of s.valid_useragent_to_obey.cases)
      expect([c.useragent, isProductToken(c.useragent ?? '')]).toEqual([c.useragent, c.valid]);
  });

  it('path, params and query of a URL (GetPathParamsQuery)', () => {
    expect(s.get_path_params_query.cases).toHaveLength(19);
    for (const c of s.get_path_params_query.cases)
      expect([c.url, robotsPath(c.url)]).toEqual([c.url, c.path]);
  });

  it('pattern escaping (MaybeEscapePattern)', () => {
    expect(s.maybe_escape_pattern.cases).toHaveLength(4);
    for (const c of s.maybe_escape_pattern.cases)
      expect(fromByteString(escapePattern(toByteString(c.pattern)))).toBe(c.escaped);
  });

  it('Sitemap lines anywhere in the file', () => {
    for (const c of s.sitemap_lines.cases) expect(parseRobotsTxt(c.robotstxt).sitemaps).toEqual(c.sitemaps);
  });

  it('LF, CRLF, CR and mixed line endings', () => {
    expect(s.line_endings.cases).toHaveLength(5);
    for (const c of s.line_endings.cases) {
      const directives = parseRobotsTxt(c.robotstxt).lines.filter((l) => DIRECTIVES.has(l.kind));
      expect(directives).toHaveLength(c.valid_directives);
      expect(directives.at(-1)?.line).toBe(c.last_directive_line);
    }
  });

  it('a UTF-8 BOM, full or partial, is skipped at the start only', () => {
    expect(s.utf8_bom.cases_hex_prefix).toHaveLength(5);
    for (const c of s.utf8_bom.cases_hex_prefix) {
      const prefix = c.prefix_bytes.split(' ').map((h) => Number.parseInt(h, 16));
      const body = [...new TextEncoder().encode(s.utf8_bom.body)];
      const bytes =
        c.where === 'start'
          ? [...prefix, ...body]
          : (() => {
              const nl = body.indexOf(10) + 1;
              return [...body.slice(0, nl), ...prefix, ...body.slice(nl)];
            })();
      const lines = parseRobotsTxt(new Uint8Array(bytes)).lines;
      expect([
        c.prefix_bytes,
        c.where,
        lines.filter((l) => DIRECTIVES.has(l.kind)).length,
        lines.filter((l) => l.kind === 'unknown').length,
      ]).toEqual([c.prefix_bytes, c.where, c.valid_directives, c.unknown_directives]);
    }
  });
});
