import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateSitemap } from '../../src/validate/validate.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';
import { codesOf, NOW, SAMPLES_DIR, samples, validateCli } from './helpers.js';

/** The error rule each invalid sample breaks (and nothing else is an error). */
const INVALID: Record<string, string> = {
  'invalid/bad-changefreq.xml': 'changefreq-invalid',
  'invalid/bad-lastmod.xml': 'lastmod-invalid',
  'invalid/changefreq-uppercase.xml': 'changefreq-invalid',
  'invalid/empty-urlset.xml': 'sitemap-empty',
  'invalid/image-missing-loc.xml': 'image-invalid',
  'invalid/loc-too-short.xml': 'url-too-short',
  'invalid/missing-loc.xml': 'loc-missing',
  'invalid/priority-too-high.xml': 'priority-invalid',
  'invalid/unescaped-ampersand.xml': 'xml-bare-ampersand',
  'invalid/wrong-namespace.xml': 'namespace-wrong',
  'invalid/wrong-order.xml': 'element-order',
};

/** The warning each discrepancy sample yields: W3C Datetime and the XSD disagree on its lastmod. */
const DISCREPANCY: Record<string, string> = {
  'discrepancy/lastmod-minutes-only.xml': 'lastmod-not-xsd',
  'discrepancy/lastmod-no-timezone.xml': 'lastmod-not-w3c',
  'discrepancy/lastmod-year-month.xml': 'lastmod-not-xsd',
};

describe('the shared samples', () => {
  it('the tables cover every invalid/ and discrepancy/ file', () => {
    expect(Object.keys(INVALID).sort()).toEqual(samples('invalid'));
    expect(Object.keys(DISCREPANCY).sort()).toEqual(samples('discrepancy'));
    expect(samples('valid').length).toBeGreaterThanOrEqual(8);
  });

  it.each(Object.entries(INVALID))(
    '%s: error %s, exit 1, and xmllint agrees it is invalid',
    async (name, code) => {
      const path = join(SAMPLES_DIR, name);
      const r = await validateSitemap(path, { now: () => NOW });
      expect(codesOf(r.diagnostics, 'error')).toEqual([code]);
      expect(r.summary.valid).toBe(false);
      const d = r.diagnostics.find((x) => x.code === code)!;
      expect(d.sitemap).toBe(path);
      expect(d.fix).toBeTruthy();
      if (code !== 'sitemap-empty') expect(d.line).toBeGreaterThan(1);
      assertXmllint();
      expect(xmllint(path).ok).toBe(false);
      const run = await validateCli([path, '--json']);
      expect(run.code, run.stderr).toBe(1);
      const json = JSON.parse(run.stdout) as { diagnostics: Array<{ code: string; severity: string }> };
      expect(json.diagnostics.some((x) => x.code === code && x.severity === 'error')).toBe(true);
    },
  );

  it.each(samples('valid'))('%s: no error, exit 0, and xmllint agrees it is valid', async (name) => {
    const path = join(SAMPLES_DIR, name);
    const r = await validateSitemap(path, { now: () => NOW });
    expect(codesOf(r.diagnostics, 'error')).toEqual([]);
    expect(r.summary.valid).toBe(true);
    expect(xmllint(path).ok).toBe(true);
    const run = await validateCli([path]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('valid: 0 errors');
  });

  it.each(Object.entries(DISCREPANCY))('%s: warning %s, no error, exit 0', async (name, code) => {
    const path = join(SAMPLES_DIR, name);
    const r = await validateSitemap(path, { now: () => NOW });
    expect(codesOf(r.diagnostics, 'warning')).toEqual([code]);
    expect(codesOf(r.diagnostics, 'error')).toEqual([]);
    const run = await validateCli([path, '--format', 'json']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`"code": "${code}"`);
  });

  it('the valid news sample is fresh on its own day and stale a week later', async () => {
    const path = join(SAMPLES_DIR, 'valid/news.xml');
    const fresh = await validateSitemap(path, { now: () => Date.parse('2008-12-24T00:00:00Z') });
    expect(codesOf(fresh.diagnostics)).toEqual([]);
    const stale = await validateSitemap(path, { now: () => Date.parse('2008-12-31T00:00:00Z') });
    expect(codesOf(stale.diagnostics)).toEqual(['news-too-old']);
  });
});

/** The hostile samples: what each one is refused for (nothing expanded, nothing fetched, memory capped). */
const HOSTILE: Record<string, string[]> = {
  'hostile/50001-urls.xml.gz': ['too-many-urls'],
  'hostile/50MiB-plus-1.xml.gz': ['sitemap-too-large'],
  'hostile/billion-laughs.xml': ['xml-doctype'],
  'hostile/deep-nesting.xml.gz': ['element-unknown', 'xml-too-deep'],
  'hostile/double-gzipped.xml.gz': ['gzip-nested'],
  'hostile/exactly-50MiB.xml.gz': [],
  'hostile/external-dtd.xml': ['xml-doctype'],
  'hostile/not-really-gzipped.xml.gz': [],
  'hostile/oversize-60MiB.xml.gz': ['sitemap-too-large'],
  'hostile/quadratic-blowup.xml.gz': ['xml-doctype'],
  'hostile/truncated.xml.gz': ['gzip-invalid'],
  'hostile/xxe-local-file.xml': ['xml-doctype'],
  'hostile/xxe-parameter-entity.xml': ['xml-doctype'],
  'hostile/xxe-remote.xml': ['xml-doctype'],
};

describe('the hostile samples', () => {
  it('the table covers every hostile/ file', () => {
    expect(Object.keys(HOSTILE).sort()).toEqual(samples('hostile').filter((n) => !n.endsWith('.md')));
  });

  it.each(Object.entries(HOSTILE))(
    '%s: errors %j, never an entity expanded or a request made',
    async (name, errors) => {
      const requests: string[] = [];
      const r = await validateSitemap(join(SAMPLES_DIR, name), {
        now: () => NOW,
        fetch: async (url) => {
          requests.push(url);
          throw new Error('no network');
        },
        disable: ['lastmod-identical', 'priority-ignored', 'changefreq-ignored'],
      });
      expect(codesOf(r.diagnostics, 'error')).toEqual(errors);
      expect(r.summary.valid).toBe(errors.length === 0);
      expect(requests).toEqual([]);
      expect(JSON.stringify(r.diagnostics)).not.toContain('root:');
    },
  );
});
