import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatHtml, timelineColumns } from '../../src/validate/report/html.js';
import { formatJson } from '../../src/validate/report/json.js';
import { formatJunit } from '../../src/validate/report/junit.js';
import { formatText } from '../../src/validate/report/text.js';
import type { ValidationResult } from '../../src/validate/types.js';
import { validateSitemap } from '../../src/validate/validate.js';
import { tempDir } from '../support/tmp.js';
import { NOW, urls, urlset } from './helpers.js';

const JUNIT_XSD = fileURLToPath(new URL('./fixtures/junit.xsd', import.meta.url));

function junitValid(xml: string): { ok: boolean; output: string } {
  const dir = tempDir('sk-junit');
  const file = join(dir, 'report.xml');
  writeFileSync(file, xml);
  const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', JUNIT_XSD, file], { encoding: 'utf8' });
  return { ok: r.status === 0, output: r.stderr };
}

let result: ValidationResult;
let dir: string;

beforeAll(async () => {
  dir = tempDir('sk-report');
  writeFileSync(
    join(dir, 'bad.xml'),
    urlset(
      [
        urls([
          'https://example.com/a',
          'https://example.com/a',
          'https://example.com/a',
          'https://example.com/a',
          'https://example.com/a',
        ]),
        '<url><loc>https://example.com/b</loc><lastmod>2024-01-05</lastmod><changefreq>&lt;img src=x onerror=alert(1)&gt;</changefreq></url>',
        '<url><loc>https://example.com/c?utm_source=x&amp;q=1</loc><lastmod>2023-11-30</lastmod></url>',
        '<url><loc>https://example.com/d</loc><priority>0.4</priority></url>',
      ].join('\n'),
    ),
  );
  writeFileSync(join(dir, 'good.xml'), urlset(urls(['https://example.com/e'])));
  result = await validateSitemap([join(dir, 'bad.xml'), join(dir, 'good.xml')], { now: () => NOW });
});

describe('text report', () => {
  it('groups by rule, errors first, with counts, the first examples, the rest counted, and the fix', () => {
    const text = formatText(result);
    const lines = text.split('\n');
    expect(lines[0]).toBe(`sitemapkit validate ${join(dir, 'bad.xml')} ${join(dir, 'good.xml')}`);
    expect(lines[1]).toBe('  2 sitemaps, 9 URLs');
    const headings = lines.filter((l) => /^(Errors|Warnings|Notes)$/.test(l));
    expect(headings).toEqual(['Errors', 'Warnings', 'Notes']);
    expect(text).toContain('  error   changefreq-invalid  ×1  ');
    expect(text).toContain('  warning url-duplicate  ×4  ');
    const dup = lines.findIndex((l) => l.includes('url-duplicate  ×4'));
    expect(lines[dup + 1]).toBe(
      `      ${join(dir, 'bad.xml')}:4: https://example.com/a is listed more than once in this tree`,
    );
    expect(lines[dup + 4]).toBe('      … and 1 more');
    expect(lines[dup + 5]).toBe('      fix: List each URL once; drop the copies.');
    expect(lines.at(-2)).toBe('invalid: 1 error, 5 warnings, 1 note');
    expect(text).not.toContain('\x1b[');
  });

  it('uses colour only when asked', () => {
    const text = formatText(result, { color: true });
    expect(text).toContain('\x1b[31merror  \x1b[0m');
    expect(text).toContain('\x1b[33mwarning\x1b[0m');
  });
});

describe('JSON report', () => {
  it('is one document with a diagnostics array: code, severity, message, fix, and url, sitemap, line where they apply', () => {
    const json = JSON.parse(formatJson(result)) as {
      version: number;
      valid: boolean;
      summary: Record<string, number | boolean>;
      rules: Array<{ code: string; count: number }>;
      diagnostics: Array<Record<string, unknown>>;
    };
    expect(json.version).toBe(1);
    expect(json.valid).toBe(false);
    expect(json.summary).toMatchObject({ errors: 1, warnings: 5, infos: 1, urls: 9, sitemaps: 2 });
    expect(json.diagnostics.length).toBe(7);
    for (const d of json.diagnostics) {
      expect(Object.keys(d).slice(0, 4)).toEqual(['code', 'severity', 'message', 'fix']);
      expect(['error', 'warning', 'info']).toContain(d['severity']);
      expect(d['sitemap']).toMatch(/\.xml$/);
    }
    expect(json.diagnostics.find((d) => d['code'] === 'changefreq-invalid')).toMatchObject({
      url: 'https://example.com/b',
      line: 8,
      column: 67,
      field: 'changefreq',
    });
    expect(json.rules.map((r) => r.code)).toEqual([
      'changefreq-invalid',
      'url-duplicate',
      'url-tracking-param',
      'priority-ignored',
    ]);
  });
});

describe('JUnit report', () => {
  it('is valid JUnit XML: one suite per sitemap, an error rule is a failure, a clean sitemap passes', () => {
    const xml = formatJunit(result);
    const check = junitValid(xml);
    expect(check.ok, check.output).toBe(true);
    expect(xml).toMatch(
      /<testsuites name="sitemapkit validate" tests="5" failures="1" errors="0" time="[\d.]+">/,
    );
    expect(xml).toContain(`<testsuite name="${join(dir, 'bad.xml')}" tests="4" failures="1"`);
    expect(xml).toContain(`<testsuite name="${join(dir, 'good.xml')}" tests="1" failures="0"`);
    expect(xml).toContain(`<testcase classname="${join(dir, 'good.xml')}" name="valid" time="0"/>`);
    expect(xml).toContain('<failure message="1 × changefreq-invalid: ');
    expect(xml).toContain('changefreq &quot;&lt;img src=x onerror=alert(1)&gt;&quot; is not one of');
  });

  it('stays valid whatever the messages hold (control characters, markup, quotes)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 60 }),
        fc.constantFrom('error', 'warning', 'info'),
        (text, severity) => {
          const r: ValidationResult = {
            ...result,
            diagnostics: [{ code: 'url-invalid', severity, message: text, sitemap: text, url: text }],
            perSitemap: { [text]: { 'url-invalid': 1 } },
            rules: [{ code: 'url-invalid', severity, count: 1, summary: 's', fix: 'f' }],
            sitemaps: [],
          };
          const check = junitValid(formatJunit(r));
          expect(check.ok, check.output).toBe(true);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('HTML report', () => {
  it('is one self-contained file: no network (a CSP forbids it), five charts, the tables', () => {
    const html = formatHtml(result);
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">`,
    );
    expect(html).not.toMatch(/<[^>]*\s(?:src|href)=/);
    expect(html).not.toMatch(/<link\b|@import|url\(/);
    expect(html.match(/<figure id="chart-/g)).toHaveLength(5);
    expect(html.match(/<svg class="chart"/g)).toHaveLength(4);
    expect(html).toContain('Pages were not fetched: run with --live to see their status codes.');
    expect(html).toContain('<table id="rules">');
    expect(html).toContain('<table id="findings">');
    expect(html).toContain('<table id="sitemaps">');
    // Values from the sitemap are text, never markup.
    expect(html).toContain('changefreq &quot;&lt;img src=x onerror=alert(1)&gt;&quot; is not one of');
    expect(html).not.toContain('<img');
  });

  it('the lastmod timeline: months when the span is ten years or less, years beyond, gaps filled', () => {
    expect(timelineColumns({ '2024-01': 2, '2024-03': 1, none: 5 })).toEqual([
      { label: '2024-01', value: 2 },
      { label: '2024-02', value: 0 },
      { label: '2024-03', value: 1 },
    ]);
    const long = timelineColumns({ '1950-06': 1, '2000-01': 2, '2024-12': 3 });
    expect(long[0]).toEqual({ label: '≤1965', value: 1 });
    expect(long.at(-1)).toEqual({ label: '2024', value: 3 });
    expect(long).toHaveLength(60);
    expect(long.find((c) => c.label === '2000')).toEqual({ label: '2000', value: 2 });
    expect(timelineColumns({ none: 3 })).toEqual([]);
  });

  it('the lastmod timeline: quarters from three years on, so that sparse months add up (issue 11)', () => {
    const cols = timelineColumns({ '2018-02': 1, '2018-03': 2, '2019-07': 1, '2024-12': 4 });
    expect(cols[0]).toEqual({ label: '2018-Q1', value: 3 });
    expect(cols.find((c) => c.label === '2019-Q3')).toEqual({ label: '2019-Q3', value: 1 });
    expect(cols.at(-1)).toEqual({ label: '2024-Q4', value: 4 });
    expect(cols).toHaveLength(7 * 4);
    expect(cols.reduce((a, c) => a + c.value, 0)).toBe(8);
    // Just under three years: still months.
    expect(timelineColumns({ '2022-01': 1, '2024-12': 1 })).toHaveLength(36);
  });
});
