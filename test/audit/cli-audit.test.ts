import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, saveScreenshot } from '../support/browser.js';
import { cli, runBin } from '../support/cli.js';
import { html, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText } from '../support/xmllint.js';
import { PLANTED, startPlantedSite } from './planted-site.js';

let site: TestServer;
beforeAll(async () => {
  assertXmllint();
  site = await startPlantedSite();
});
afterAll(async () => {
  await site.close();
});

const paths = (findings: Array<{ code: string; url: string }>): string[][] =>
  findings.map((f) => [f.code, new URL(f.url).pathname]).sort();

describe('sitemapkit audit URL', () => {
  it('--json prints one object of findings and counts and exits 1 on errors (the built CLI)', async () => {
    const r = await runBin(['audit', site.url, '--json', '--retries', '0'], { limitMs: 120_000 });
    // The crawl's own diagnostics go to stderr (one line each, never a stack); stdout is the object alone.
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout) as {
      findings: Array<{ code: string; url: string; fix: string }>;
      counts: Record<string, unknown>;
    };
    expect(Object.keys(out)).toEqual(['findings', 'counts']);
    expect(paths(out.findings)).toEqual([...PLANTED].map(([c, p]) => [c, p]).sort());
    expect(out.findings.every((f) => f.fix.length > 0)).toBe(true);
    expect(out.counts['error']).toBe(6);
  });

  it('prints counts and a list per finding in text, CSV and JUnit for CI', async () => {
    const text = await cli(['audit', site.url, '--retries', '0']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('audit-orphan (warning): 1');
    expect(text.stdout).toContain(
      `${site.origin}/orphan: listed in ${site.origin}/sitemap.xml but no link on the site reaches it (HTTP 200)`,
    );
    expect(text.stdout).toContain(
      `${site.origin}/old: listed in ${site.origin}/sitemap.xml but redirects to ${site.origin}/b`,
    );
    const deeper = await cli(['audit', site.url, '--json', '--max-clicks', '6', '--retries', '0']);
    expect(JSON.parse(deeper.stdout).counts.byCode['audit-deep']).toBeUndefined();
    const csv = await cli(['audit', site.url, '--format', 'csv', '--retries', '0']);
    const lines = csv.stdout.trim().split('\r\n');
    expect(lines[0]).toBe('severity,code,url,sitemap,status,target,message,fix');
    expect(lines).toHaveLength(PLANTED.length + 1);
    const junit = await cli(['audit', site.url, '--format', 'junit', '--retries', '0']);
    expect(junit.stdout).toMatch(/<testsuites name="sitemapkit audit" tests="15" failures="6">/);
    expect(junit.stdout).toContain('<failure message="1 URL: List the redirect target instead');
  });

  it('exits 0 when the sitemap has no error, with --sitemap naming it', async () => {
    const s = await startServer({
      '/': html('Home', '<a href="/a">a</a>'),
      '/a': html('A'),
      '/list.xml': {
        headers: { 'content-type': 'application/xml' },
        body: '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>LOC/</loc></url><url><loc>LOC/a</loc></url></urlset>',
      },
    });
    try {
      const routes = s as unknown as { route: TestServer['route'] };
      routes.route('/list.xml', {
        headers: { 'content-type': 'application/xml' },
        body: `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${s.origin}/</loc></url><url><loc>${s.origin}/a</loc></url></urlset>`,
      });
      const r = await cli(['audit', s.url, '--sitemap', `${s.origin}/list.xml`, '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout).findings).toEqual([]);
      const none = await cli(['audit', s.url]);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/robots\.txt lists no sitemap .* answers with one.*--sitemap URL/s);
    } finally {
      await s.close();
    }
  });

  it('--out writes a corrected sitemap set: the indexable pages the crawl reached, none of the planted bad URLs', async () => {
    const dir = tempDir('sk-audit-out');
    const r = await cli(['audit', site.url, '--out', join(dir, 'out'), '--retries', '0']);
    expect(r.code).toBe(1);
    const xml = readSitemapText(join(dir, 'out', 'sitemap.xml'));
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => new URL(m[1]!).pathname).sort();
    expect(locs).toContain('/not-listed');
    for (const bad of ['/noindex', '/canon', '/old', '/gone', '/private/x', '/file.json', '/orphan']) {
      expect(locs).not.toContain(bad);
    }
    // The sitemap's lastmod stays where the page agrees (it shows none), the page's own where it does not.
    const lastmod = (path: string): string | undefined =>
      new RegExp(`<loc>${site.origin}${path}</loc><lastmod>([^<]*)</lastmod>`).exec(xml)?.[1];
    expect(lastmod('/a')).toBe('2025-03-01');
    expect(lastmod('/stale')).toBe('2025-06-01');
    expect(lastmod('/inflated')).toBe('2019-01-01T00:00:00Z');
  });

  it('--report writes an HTML report that opens in Chromium without console errors, and its filters work', async () => {
    const dir = tempDir('sk-audit-report');
    const r = await cli(['audit', site.url, '--report', dir, '--retries', '0']);
    expect(r.code).toBe(1);
    const path = join(dir, 'report.html');
    expect(existsSync(path)).toBe(true);
    const page = await startServer({ '/report.html': html('', '') });
    page.route('/report.html', {
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: readFileSync(path, 'utf8'),
    });
    const chromium = await launchChromium();
    try {
      const w = await chromium.newPage({ width: 1100, height: 900 });
      expect((await w.page.goto(`${page.url}report.html`))?.status()).toBe(200);
      const sections = await w.page.$$eval('section[data-sev]', (s) => s.map((e) => e.id));
      expect(sections.sort()).toEqual([...new Set(PLANTED.map(([c]) => c))].sort());
      await saveScreenshot(w.page, 'audit-report');
      await w.page.fill('#q', '/orphan');
      const visible = await w.page.$$eval('section[data-sev]:not([hidden])', (s) => s.map((e) => e.id));
      expect(visible).toEqual(['audit-orphan']);
      await w.page.fill('#q', '');
      await w.page.uncheck('input[data-sev="warning"]');
      const errors = await w.page.$$eval('section[data-sev]:not([hidden])', (s) =>
        s.map((e) => e.getAttribute('data-sev')),
      );
      expect(new Set(errors)).toEqual(new Set(['error', 'info']));
      expect(w.problems()).toEqual([]);
    } finally {
      await chromium.close();
      await page.close();
    }
  }, 120_000);
});
