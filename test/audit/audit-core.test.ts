import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AuditEntry, type AuditPage, auditFindings, percentile } from '../../src/audit/audit-core.js';
import { isRuleCode } from '../../src/validate/rules.js';

const page = (url: string, more: Partial<AuditPage> = {}): AuditPage => ({
  url,
  reached: true,
  depth: 1,
  status: 200,
  verdict: 'listed',
  reason: null,
  target: null,
  contentType: 'text/html',
  title: `Title of ${url}`,
  lastmod: null,
  alternates: [],
  ms: 10,
  ...more,
});

/** A healthy site: every page reached, listed, titled apart, shallow, lastmods agreeing, hreflang groups complete. */
const healthySite = fc
  .record({
    n: fc.integer({ min: 1, max: 30 }),
    groupSize: fc.integer({ min: 0, max: 4 }),
    depths: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 30, maxLength: 30 }),
    lastmodDays: fc.array(fc.option(fc.integer({ min: 0, max: 2900 })), { minLength: 30, maxLength: 30 }),
  })
  .map(({ n, groupSize, depths, lastmodDays }) => {
    const urls = Array.from({ length: n }, (_, i) => `https://example.com/p${i}`);
    const group = urls.slice(0, Math.min(groupSize, n));
    const alternates = group.map((href, i) => ({ hreflang: `l${i}`, href }));
    const pages = urls.map((url, i) => {
      const days = lastmodDays[i];
      const lastmod = days == null ? null : new Date(Date.UTC(2018, 0, 1) + days * 86_400_000).toISOString();
      return page(url, { depth: depths[i]!, lastmod, alternates: group.includes(url) ? alternates : [] });
    });
    const entries: AuditEntry[] = pages.map((p, i) => ({
      url: p.url,
      sitemap: 'https://example.com/sitemap.xml',
      ...(p.lastmod === null ? {} : { lastmod: p.lastmod.slice(0, 10) }),
      ...(i % 2 === 0 && group.includes(p.url) ? { alternates } : {}),
    }));
    return { pages, entries };
  });

describe('auditFindings', () => {
  it('finds nothing on a healthy site (property)', () => {
    fc.assert(
      fc.property(healthySite, ({ pages, entries }) => {
        expect(auditFindings(pages, entries, { now: Date.UTC(2026, 0, 1) }).findings).toEqual([]);
      }),
    );
  });

  it('gives one finding per URL and problem, each code in the rule table (property)', () => {
    const verdicts = [
      'listed',
      'noindex',
      'canonicalised',
      'redirect',
      'broken',
      'error',
      'non-html',
      'robots',
    ] as const;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ verdict: fc.constantFrom(...verdicts), reached: fc.boolean(), listed: fc.boolean() }),
          { maxLength: 20 },
        ),
        (rows) => {
          const pages = rows.map((r, i) =>
            page(`https://example.com/${i}`, { verdict: r.verdict, reached: r.reached }),
          );
          const entries = rows.flatMap((r, i) =>
            r.listed || !r.reached ? [{ url: `https://example.com/${i}`, sitemap: 's.xml' }] : [],
          );
          const { findings, counts } = auditFindings(pages, entries);
          const keys = findings.map((f) => `${f.code} ${f.url}`);
          expect(new Set(keys).size).toBe(keys.length);
          for (const f of findings) expect(isRuleCode(f.code)).toBe(true);
          expect(counts.error + counts.warning + counts.info).toBe(findings.length);
          rows.forEach((r, i) => {
            const url = `https://example.com/${i}`;
            const codes = findings.filter((f) => f.url === url).map((f) => f.code);
            expect(codes.includes('audit-orphan')).toBe(!r.reached);
            expect(codes.includes('audit-missing')).toBe(r.reached && !r.listed && r.verdict === 'listed');
          });
        },
      ),
    );
  });

  it('judges lastmod both ways, by the margins', () => {
    const now = Date.UTC(2026, 10, 1);
    const run = (listed: string, shown: string) =>
      auditFindings(
        [page('https://e.com/', { lastmod: shown })],
        [{ url: 'https://e.com/', sitemap: 's', lastmod: listed }],
        {
          now,
        },
      ).findings.map((f) => f.code);
    expect(run('2024-01-01', '2025-06-01')).toEqual(['audit-lastmod-stale']);
    expect(run('2024-01-01', '2024-01-01T20:00:00Z')).toEqual([]);
    expect(run('2026-10-01', '2019-01-01')).toEqual(['audit-lastmod-inflated']);
    expect(run('2026-10-01', '2026-01-01')).toEqual([]);
    expect(run('2027-10-01', '2027-10-01')).toEqual(['audit-lastmod-inflated']);
  });

  it('reports pages deeper than maxDepth only when reached by links', () => {
    const entries = [{ url: 'https://e.com/a', sitemap: 's' }];
    expect(
      auditFindings([page('https://e.com/a', { depth: 6 })], entries).findings.map((f) => f.code),
    ).toEqual(['audit-deep']);
    expect(auditFindings([page('https://e.com/a', { depth: 6 })], entries, { maxDepth: 6 }).findings).toEqual(
      [],
    );
  });

  it('takes percentiles by nearest rank', () => {
    expect(percentile([], 0.5)).toBeNull();
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4], 0.99)).toBe(4);
  });

  it('reports a listed URL robots.txt disallows even when the crawl fetched it, and never as missing', () => {
    const isDisallowed = (u: string): boolean => u.includes('/private/');
    const pages = [page('https://e.com/private/a'), page('https://e.com/private/b')];
    const { findings } = auditFindings(pages, [{ url: 'https://e.com/private/a', sitemap: 's' }], {
      isDisallowed,
    });
    expect(findings.map((f) => [f.code, f.url])).toEqual([
      ['audit-listed-disallowed', 'https://e.com/private/a'],
    ]);
  });

  it('notes a listed URL the crawl never reached (another host) as unchecked, nothing more', () => {
    const { findings, counts } = auditFindings([], [{ url: 'https://other.example/x', sitemap: 's' }]);
    expect(findings.map((f) => f.code)).toEqual(['audit-listed-unchecked']);
    expect(findings[0]!.message).toMatch(/not on a host the audit crawls \(--host\)/);
    expect(counts.info).toBe(1);
  });
});
