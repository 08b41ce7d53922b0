import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { normalizeEntry } from '../../src/core/normalize.js';
import { PARSER_RULES } from '../../src/parser/rules.js';
import { ROBOTS_RULES } from '../../src/robots/rules.js';
import { RULE_GROUPS, RULES } from '../../src/validate/rules.js';
import { renderRulesMarkdown } from '../../src/validate/rules-doc.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

// The ways sitemapkit's modules name the code of a finding they report.
const EMITTERS = [
  /\bcode:\s*'([a-z0-9]+(?:-[a-z0-9]+)+)'/g,
  /\b(?:error|warn|report|once|make|makeDiagnostic|fail|problem)\(\s*'([a-z0-9]+(?:-[a-z0-9]+)+)'/g,
  /\b(?:error|warn)\(\s*c,\s*'([a-z0-9]+(?:-[a-z0-9]+)+)'/g,
  /\b(?:text|date)\(c,\s*'([a-z0-9]+(?:-[a-z0-9]+)+)'/g,
];
// Kebab-case strings in those positions that are not diagnostic codes.
const NOT_CODES = new Set(['not-well-formed', 'bare-ampersand', 'too-deep', 'max-sitemaps', 'max-urls']);

describe('the rule table (src/validate/rules.ts)', () => {
  it('has a severity, a one-line summary and a one-line fix for every code, and kebab-case codes', () => {
    for (const [code, rule] of Object.entries(RULES)) {
      expect(code).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)+$|^bom$/);
      expect(['error', 'warning', 'info']).toContain(rule.severity);
      expect(rule.summary.length, code).toBeGreaterThan(10);
      expect(rule.fix.length, code).toBeGreaterThan(5);
      expect(rule.summary).not.toContain('\n');
      expect(Object.keys(RULE_GROUPS)).toContain(rule.group);
      if (rule.reportedAs !== undefined) expect(rule.reportedAs).not.toBe(rule.severity);
    }
  });

  it('includes every parser and robots.txt code, with their own summary and fix', () => {
    for (const [code, info] of Object.entries({ ...PARSER_RULES, ...ROBOTS_RULES })) {
      const rule = RULES[code];
      expect(rule, code).toBeDefined();
      expect(rule!.summary).toBe(info.summary);
      expect(rule!.fix).toBe(info.fix);
      expect(rule!.reportedAs ?? rule!.severity).toBe(info.severity);
    }
  });

  it('gives a robots.txt code the one severity robots lint reports it with (issue 11)', () => {
    for (const [code, rule] of Object.entries(RULES)) {
      if (rule.source !== 'robots') continue;
      expect([code, rule.severity, rule.reportedAs]).toEqual([code, ROBOTS_RULES[code]!.severity, undefined]);
    }
    expect(RULES['robots-sitemap-disallowed']!.severity).toBe(
      ROBOTS_RULES['robots-sitemap-disallowed']!.severity,
    );
  });

  it("includes every code the writer's entry normalisation reports", () => {
    const bad = [
      { loc: 'ftp://x.example/' },
      { loc: 'https://a.b' },
      { loc: `https://example.com/${'a'.repeat(2100)}` },
      { loc: 'nope' },
      {
        loc: 'https://example.com/',
        lastmod: 'yesterday',
        changefreq: 'often',
        priority: 7,
        section: 'A B',
        x: 1,
      },
      {
        loc: 'https://example.com/',
        images: [{ caption: 'c' }],
        videos: [{ title: 't' }],
        news: { title: 't' },
      },
      {
        loc: 'https://example.com/',
        images: Array.from({ length: 1001 }, () => 'https://example.com/i.png'),
      },
      { loc: 'https://example.com/', alternates: [{ hreflang: 'english', href: 'https://example.com/en' }] },
      { loc: 'https://example.com/', alternates: [{ hreflang: 'en', href: 'https://example.com/en' }] },
      { loc: 'https://example.com/', images: [{ loc: 'https://example.com/i.png', caption: 'c' }] },
      {
        loc: 'https://example.com/',
        videos: [
          {
            thumbnail_loc: 'https://example.com/t.png',
            title: 't',
            description: 'd',
            content_loc: 'https://example.com/v.mp4',
            rating: 9,
          },
        ],
        news: { publication: { name: 'n', language: 'english' }, publication_date: '2024-01-01', title: 't' },
      },
      42,
    ];
    const seen = new Set<string>();
    for (const input of bad) {
      const r = normalizeEntry(input);
      for (const p of [...(r.ok ? [] : r.errors), ...r.warnings]) seen.add(p.code);
    }
    expect(seen.size).toBeGreaterThan(15);
    for (const code of seen) expect(RULES[code], code).toBeDefined();
  });

  it('includes every code found in the sources of src/ (a static scan of the ways modules report)', () => {
    const found = new Map<string, string>();
    for (const file of sourceFiles(join(ROOT, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const re of EMITTERS) {
        for (const m of text.matchAll(re)) if (!NOT_CODES.has(m[1]!)) found.set(m[1]!, file);
      }
    }
    expect(found.size).toBeGreaterThan(40);
    const missing = [...found].filter(([code]) => RULES[code] === undefined).map(([c, f]) => `${c} (${f})`);
    expect(missing).toEqual([]);
  });

  it('docs/rules.md is generated from it and up to date (run: npm run build && node scripts/gen-rules-doc.mjs)', () => {
    const doc = readFileSync(join(ROOT, 'docs/rules.md'), 'utf8');
    expect(doc).toBe(renderRulesMarkdown());
    for (const code of Object.keys(RULES)) expect(doc).toContain(`| \`${code}\` |`);
  });
});
