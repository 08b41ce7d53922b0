import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSitemapToArray } from '../../src/parser/parse-sitemap.js';
import { cli } from '../support/cli.js';
import { codes, SAMPLES, sampleFiles } from './helpers.js';

interface Row {
  entries: number;
  codes: string[];
  exit: 0 | 1;
}

/** One row per file of test/fixtures/spec/samples: what reading it gives. */
const TABLE: Record<string, Row> = {
  'valid/basic.xml': { entries: 4, codes: [], exit: 0 },
  'valid/hreflang.xml': { entries: 3, codes: [], exit: 0 },
  'valid/image.xml': { entries: 1, codes: [], exit: 0 },
  'valid/index.xml': { entries: 2, codes: [], exit: 0 },
  'valid/lastmod-fraction-utc.xml': { entries: 1, codes: [], exit: 0 },
  'valid/mobile.xml': { entries: 1, codes: [], exit: 0 },
  'valid/news.xml': { entries: 1, codes: [], exit: 0 },
  'valid/video.xml': { entries: 1, codes: [], exit: 0 },
  'invalid/bad-changefreq.xml': { entries: 1, codes: ['changefreq-invalid'], exit: 0 },
  'invalid/bad-lastmod.xml': { entries: 1, codes: ['lastmod-invalid'], exit: 0 },
  'invalid/changefreq-uppercase.xml': { entries: 1, codes: ['changefreq-invalid'], exit: 0 },
  'invalid/empty-urlset.xml': { entries: 0, codes: ['sitemap-empty'], exit: 0 },
  'invalid/image-missing-loc.xml': { entries: 1, codes: ['image-invalid'], exit: 0 },
  'invalid/loc-too-short.xml': { entries: 1, codes: ['url-too-short'], exit: 1 },
  'invalid/missing-loc.xml': { entries: 0, codes: ['loc-missing'], exit: 1 },
  'invalid/priority-too-high.xml': { entries: 1, codes: ['priority-invalid'], exit: 0 },
  'invalid/unescaped-ampersand.xml': { entries: 1, codes: ['xml-bare-ampersand'], exit: 1 },
  'invalid/wrong-namespace.xml': { entries: 1, codes: ['namespace-wrong'], exit: 0 },
  'invalid/wrong-order.xml': { entries: 1, codes: ['element-order'], exit: 0 },
  'discrepancy/lastmod-minutes-only.xml': { entries: 1, codes: ['lastmod-not-xsd'], exit: 0 },
  'discrepancy/lastmod-no-timezone.xml': { entries: 1, codes: ['lastmod-not-w3c'], exit: 0 },
  'discrepancy/lastmod-year-month.xml': { entries: 1, codes: ['lastmod-not-xsd'], exit: 0 },
  'hostile/50001-urls.xml.gz': { entries: 50_001, codes: ['too-many-urls'], exit: 1 },
  'hostile/50MiB-plus-1.xml.gz': { entries: 1, codes: ['sitemap-too-large'], exit: 1 },
  'hostile/billion-laughs.xml': { entries: 0, codes: ['xml-doctype'], exit: 1 },
  'hostile/deep-nesting.xml.gz': { entries: 0, codes: ['element-unknown', 'xml-too-deep'], exit: 1 },
  'hostile/double-gzipped.xml.gz': { entries: 0, codes: ['gzip-nested'], exit: 1 },
  'hostile/exactly-50MiB.xml.gz': { entries: 1, codes: [], exit: 0 },
  'hostile/external-dtd.xml': { entries: 0, codes: ['xml-doctype'], exit: 1 },
  'hostile/not-really-gzipped.xml.gz': { entries: 1, codes: [], exit: 0 },
  'hostile/oversize-60MiB.xml.gz': { entries: 1, codes: ['sitemap-too-large'], exit: 1 },
  'hostile/quadratic-blowup.xml.gz': { entries: 0, codes: ['xml-doctype'], exit: 1 },
  'hostile/truncated.xml.gz': { entries: 0, codes: ['gzip-invalid'], exit: 1 },
  'hostile/xxe-local-file.xml': { entries: 0, codes: ['xml-doctype'], exit: 1 },
  'hostile/xxe-parameter-entity.xml': { entries: 0, codes: ['xml-doctype'], exit: 1 },
  'hostile/xxe-remote.xml': { entries: 0, codes: ['xml-doctype'], exit: 1 },
};

describe('the samples of test/fixtures/spec/samples', () => {
  it('the table has exactly one row per sample file', () => {
    expect(Object.keys(TABLE).sort()).toEqual(sampleFiles().sort());
  });

  it.each(Object.entries(TABLE))('%s', async (name, row) => {
    const path = join(SAMPLES, name);
    const r = await parseSitemapToArray(path);
    expect(r.items).toHaveLength(row.entries);
    expect(codes(r.diagnostics)).toEqual(row.codes);
    for (const d of r.diagnostics) expect(d.sitemap).toBe(path);
    const run = await cli(['parse', path, '--format', 'txt']);
    expect(run.code, run.stderr).toBe(row.exit);
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(row.entries);
  });

  it('no entity is ever expanded: the XXE files never leak /etc/passwd or reach the network', async () => {
    for (const name of [
      'xxe-local-file.xml',
      'xxe-remote.xml',
      'xxe-parameter-entity.xml',
      'billion-laughs.xml',
      'external-dtd.xml',
    ]) {
      const run = await cli(['parse', join(SAMPLES, 'hostile', name)]);
      expect(run.stdout).toBe('');
      expect(run.stderr).not.toContain('root:');
      expect(run.stderr).toContain('error xml-doctype');
    }
  });
});
