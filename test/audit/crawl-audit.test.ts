import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlAndAudit } from '../../src/audit/crawl-audit.js';
import { cli, runBin } from '../support/cli.js';
import { body, html, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint } from '../support/xmllint.js';
import { PLANTED, startPlantedSite } from './planted-site.js';

let site: TestServer;
beforeAll(async () => {
  assertXmllint();
  site = await startPlantedSite();
});
afterAll(async () => {
  await site.close();
});

interface Finding {
  code: string;
  url: string;
}
const codesByUrl = (findings: Finding[]): string[][] =>
  findings.map((f) => [f.code, new URL(f.url).pathname]).sort();

/** A crawl's own files of one folder (the audit's reports are the only ones --audit adds). */
function files(dir: string): Map<string, Buffer> {
  return new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]));
}

/** The crawl's output, state and report in a fresh folder. */
function where(dir: string): string[] {
  return ['--out', join(dir, 'out'), '--state', join(dir, 'state.db'), '--report', join(dir, 'report')];
}

describe('sitemapkit crawl --audit', () => {
  it('reports the same findings as sitemapkit audit on the planted-problems site (differential), with and without --seed-sitemaps', async () => {
    const alone = await cli(['audit', site.url, '--json', '--retries', '0']);
    expect(alone.code).toBe(1);
    const expected = JSON.parse(alone.stdout) as { findings: Finding[]; counts: { error: number } };
    expect(codesByUrl(expected.findings)).toEqual([...PLANTED].map(([c, p]) => [c, p]).sort());
    for (const seed of [[], ['--seed-sitemaps']]) {
      const dir = tempDir('sk-crawl-audit');
      const r = await cli(['crawl', site.url, ...where(dir), '--audit', '--json', '--retries', '0', ...seed]);
      expect(r.code, r.stderr).toBe(1);
      const out = JSON.parse(r.stdout) as { ok: boolean; audit: typeof expected; sitemaps: unknown };
      expect(out.ok).toBe(true);
      expect(out.sitemaps).toBeDefined();
      // Same code per URL, and the same findings word for word (messages, statuses, targets).
      expect(codesByUrl(out.audit.findings)).toEqual(codesByUrl(expected.findings));
      expect(out.audit.findings).toEqual(expected.findings);
      expect(out.audit.counts.error).toBe(expected.counts.error);
    }
  });

  it('--seed-sitemaps reads the published sitemaps once, seeds the crawl with them, and counts only what links reach from the start as reached', async () => {
    // /o1 is listed but no link reaches it; it links to /o2 (not listed) and /o3 (listed). The seeded
    // crawl fetches all three, yet /o2 is no missing page and /o3 is an orphan, as `audit` says.
    const s = await startServer({
      '/': html('Home', '<a href="/a">a</a>'),
      '/a': html('A'),
      '/o1': html('O1', '<a href="/o2">2</a> <a href="/o3">3</a>'),
      '/o2': html('O2'),
      '/o3': html('O3'),
    });
    try {
      const locs = ['/', '/a', '/o1', '/o3'].map((p) => `<url><loc>${s.origin}${p}</loc></url>`).join('');
      s.route('/robots.txt', { body: `User-agent: *\nAllow: /\n\nSitemap: ${s.origin}/sitemap.xml\n` });
      s.route(
        '/sitemap.xml',
        body(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`),
      );
      const reads = (from: number): number =>
        s.requests.slice(from).filter((q) => q.path === '/sitemap.xml').length;
      const alone = JSON.parse((await cli(['audit', s.url, '--json'])).stdout) as { findings: Finding[] };
      const auditReads = reads(0);
      expect(codesByUrl(alone.findings)).toEqual([
        ['audit-orphan', '/o1'],
        ['audit-orphan', '/o3'],
      ]);
      const dir = tempDir('sk-crawl-audit-seed');
      const before = s.requests.length;
      const r = await cli(['crawl', s.url, ...where(dir), '--audit', '--seed-sitemaps', '--json']);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { audit: { findings: Finding[] }; stats: { fetched: number } };
      expect(out.audit.findings).toEqual(alone.findings);
      // The seeded crawl fetched the orphans and what they link to, and listed them in its sitemaps.
      expect(out.stats.fetched).toBe(5);
      // The sitemap is read as often as `audit` alone reads it (discovery, then the tree): the seeding
      // reads it no more.
      expect(reads(before)).toBe(auditReads);
      // No second fetch of the orphans: the seeded crawl already holds them.
      expect(s.requests.slice(before).filter((q) => q.path === '/o1')).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  it("leaves the crawl's own outputs byte-equal, and adds the audit to the report folder, the summary and the exit code", async () => {
    const plain = tempDir('sk-crawl-plain');
    const p = await cli(['crawl', site.url, ...where(plain), '--retries', '0']);
    expect(p.code).toBe(0);
    const audited = tempDir('sk-crawl-audited');
    const a = await cli(['crawl', site.url, ...where(audited), '--retries', '0', '--audit', '--audit-junit']);
    expect(a.code).toBe(1);
    // The sitemaps and the HTML site map byte for byte; the manifest too, but for the time it was written.
    const out = (dir: string): Map<string, string> => {
      const m = new Map([...files(join(dir, 'out'))].map(([f, b]) => [f, b.toString('utf8')]));
      const manifest = m.get('.sitemapkit-manifest.json')!;
      m.set('.sitemapkit-manifest.json', manifest.replace(/"generatedAt":"[^"]*"/, ''));
      return m;
    };
    expect([...out(audited).keys()].sort()).toEqual([
      '.sitemapkit-manifest.json',
      'sitemap.html',
      'sitemap.xml',
    ]);
    expect(out(audited)).toEqual(out(plain));
    const report = readdirSync(join(audited, 'report')).sort();
    expect(report).toEqual(
      [
        ...readdirSync(join(plain, 'report')),
        'audit.csv',
        'audit.html',
        'audit.json',
        'audit.junit.xml',
      ].sort(),
    );
    // The crawl report's rows are the same (response times aside, which no two runs share).
    const rows = (dir: string): unknown[] =>
      readFileSync(join(dir, 'report', 'urls.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => ({ ...JSON.parse(l), ms: null }));
    expect(rows(audited)).toEqual(rows(plain));
    // The files hold what `audit` prints in each format.
    const json = JSON.parse(readFileSync(join(audited, 'report', 'audit.json'), 'utf8')) as {
      findings: Finding[];
    };
    expect(codesByUrl(json.findings)).toEqual([...PLANTED].map(([c, pa]) => [c, pa]).sort());
    const csv = readFileSync(join(audited, 'report', 'audit.csv'), 'utf8')
      .trim()
      .split('\r\n');
    expect(csv[0]).toBe('severity,code,url,sitemap,status,target,message,fix');
    expect(csv).toHaveLength(PLANTED.length + 1);
    expect(readFileSync(join(audited, 'report', 'audit.junit.xml'), 'utf8')).toMatch(
      /<testsuites name="sitemapkit audit" tests="15" failures="6">/,
    );
    expect(readFileSync(join(audited, 'report', 'audit.html'), 'utf8')).toContain(
      '<section id="audit-orphan"',
    );
    // The crawl's summary, then the audit's (the first line holds the time taken).
    const summary = p.stdout.replaceAll(plain, audited).trimEnd().split('\n').slice(1);
    expect(a.stdout.split('\n').slice(1, -3)).toEqual(summary);
    expect(a.stdout).toContain(
      `  audit of ${site.origin}/sitemap.xml: 6 errors, 8 warnings, 1 notes: audit-listed-broken 1,`,
    );
    expect(a.stdout).toContain(
      `  audit report: ${join(audited, 'report', 'audit.html')} (with audit.json, audit.csv, audit.junit.xml)`,
    );
  });

  it("links the crawl's report.html to audit.html and audit.html back to it, every link naming a file of the folder", async () => {
    const dir = tempDir('sk-crawl-links');
    const a = await cli(['crawl', site.url, ...where(dir), '--retries', '0', '--audit']);
    expect(a.code, a.stderr).toBe(1);
    const folder = join(dir, 'report');
    const report = readFileSync(join(folder, 'report.html'), 'utf8');
    const audit = readFileSync(join(folder, 'audit.html'), 'utf8');
    expect(report).toContain(
      '<p class="reports">The audit of the published sitemaps against this crawl: <a href="audit.html">audit.html</a> (6 errors, 8 warnings, 1 notes).</p>',
    );
    expect(audit).toContain('<p>The crawl this audit judged: <a href="report.html">report.html</a>.</p>');
    // Every relative link of either page names a file beside it.
    for (const page of [report, audit]) {
      const local = [...page.matchAll(/href="([^"#:]+)"/g)].map((m) => m[1]!);
      expect(local.length).toBeGreaterThan(0);
      for (const href of local) expect([href, existsSync(join(folder, href))]).toEqual([href, true]);
    }
    // A crawl without --audit links no audit.
    const plain = tempDir('sk-crawl-nolink');
    expect((await cli(['crawl', site.url, ...where(plain), '--retries', '0'])).code).toBe(0);
    expect(readFileSync(join(plain, 'report', 'report.html'), 'utf8')).not.toContain('audit.html');
  });

  it('a resumed crawl --audit audits the whole crawl; one stopped at --max-pages is not audited', async () => {
    const dir = tempDir('sk-crawl-audit-resume');
    const first = await cli([
      'crawl',
      site.url,
      ...where(dir),
      '--audit',
      '--max-pages',
      '5',
      '--retries',
      '0',
    ]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('  audit: not run, the crawl stopped at --max-pages');
    expect(existsSync(join(dir, 'report', 'audit.json'))).toBe(false);
    const partial = await cli([
      'crawl',
      site.url,
      ...where(dir),
      '--audit',
      '--max-pages',
      '8',
      '--resume',
      '--json',
      '--retries',
      '0',
    ]);
    expect(JSON.parse(partial.stdout).audit).toBeNull();
    const rest = await cli([
      'crawl',
      site.url,
      ...where(dir),
      '--audit',
      '--resume',
      '--json',
      '--retries',
      '0',
    ]);
    expect(rest.code).toBe(1);
    const out = JSON.parse(rest.stdout) as { audit: { findings: Finding[] } };
    expect(codesByUrl(out.audit.findings)).toEqual([...PLANTED].map(([c, p]) => [c, p]).sort());
    // Resuming the finished crawl fetches no page and audits it again, whole.
    const pages = ['/', '/a', '/l6', '/orphan'];
    const before = pages.map((p) => site.hits(p));
    const again = await cli(['crawl', site.url, ...where(dir), '--audit', '--resume', '--json']);
    expect(codesByUrl(JSON.parse(again.stdout).audit.findings)).toEqual(codesByUrl(out.audit.findings));
    // Only the orphan is fetched again (the audit's own request: no link reaches it).
    expect(pages.map((p, i) => site.hits(p) - before[i]!)).toEqual([0, 0, 0, 1]);
  });

  it('with --store, publishes through the store and audits the same crawl', async () => {
    const dir = tempDir('sk-crawl-audit-store');
    const r = await cli([
      'crawl',
      site.url,
      ...where(dir),
      '--store',
      join(dir, 'store.db'),
      '--audit',
      '--json',
      '--retries',
      '0',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const out = JSON.parse(r.stdout) as { store: unknown; audit: { findings: Finding[] } };
    expect(out.store).toBeDefined();
    expect(existsSync(join(dir, 'out', 'sitemap.xml'))).toBe(true);
    expect(codesByUrl(out.audit.findings)).toEqual([...PLANTED].map(([c, p]) => [c, p]).sort());
  });

  it('--public-origin: the published sitemaps name the public site, mapped back to the crawled copy as its links are', async () => {
    const s = await startServer({
      '/': html('Home', '<a href="/a">a</a> <a href="/b">b</a>'),
      '/a': html('A'),
      '/b': html('B', '', '<meta name="robots" content="noindex">'),
      '/o': html('O'),
    });
    try {
      const pub = 'https://www.example.com';
      const locs = ['/', '/a', '/b', '/o'].map((p) => `<url><loc>${pub}${p}</loc></url>`).join('');
      s.route(
        '/list.xml',
        body(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs}</urlset>`),
      );
      const dir = tempDir('sk-crawl-audit-public');
      const r = await cli([
        'crawl',
        s.url,
        ...where(dir),
        '--public-origin',
        pub,
        '--audit',
        '--sitemap',
        `${s.origin}/list.xml`,
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(1);
      const out = JSON.parse(r.stdout) as { audit: { findings: Finding[] } };
      expect(out.audit.findings.map((f) => [f.code, f.url])).toEqual([
        ['audit-listed-noindex', `${s.origin}/b`],
        ['audit-orphan', `${s.origin}/o`],
      ]);
    } finally {
      await s.close();
    }
  });

  it('refuses the audit flags without --audit, and says why a site with no sitemap cannot be audited (the built CLI)', async () => {
    const dir = tempDir('sk-crawl-audit-usage');
    const r = await cli(['crawl', site.url, ...where(dir), '--max-clicks', '3', '--audit-junit']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-clicks, --audit-junit needs --audit/);
    const s = await startServer({ '/': html('Home') });
    try {
      const none = await runBin(['crawl', s.url, ...where(dir), '--audit'], { limitMs: 60_000 });
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/robots\.txt lists no sitemap .*--sitemap URL/s);
      expect(none.stderr).not.toMatch(/\n\s+at /);
      // Nothing was crawled: no sitemaps written, no state left.
      expect(existsSync(join(dir, 'out', 'sitemap.xml'))).toBe(false);
      expect(existsSync(join(dir, 'state.db'))).toBe(false);
    } finally {
      await s.close();
    }
  });
});

describe('crawlAndAudit()', () => {
  it("without a state of the caller's, audits from a temporary one and deletes it; --sitemap names the sitemaps", async () => {
    const dir = tempDir('sk-crawl-audit-lib');
    const r = await crawlAndAudit({
      start: site.url,
      outDir: join(dir, 'out'),
      retries: 0,
      audit: { sitemaps: [`${site.origin}/sitemap.xml`], maxDepth: 6 },
    });
    expect(r.state).toBeUndefined();
    expect(r.audit?.sitemaps).toEqual([`${site.origin}/sitemap.xml`]);
    expect(r.audit?.files).toBeUndefined();
    const expected = PLANTED.filter(([c]) => c !== 'audit-deep').map(([c, p]) => [c, p]);
    expect(codesByUrl(r.audit!.findings)).toEqual(expected.sort());
    expect(existsSync(join(dir, 'out', 'sitemap.xml'))).toBe(true);
  });

  it("an abort during the audit keeps the crawl's result and output; resumed, the crawl is audited without a page fetched again", async () => {
    const dir = tempDir('sk-crawl-audit-abort');
    const ac = new AbortController();
    const options = {
      start: site.url,
      outDir: join(dir, 'out'),
      state: join(dir, 'state.db'),
      report: join(dir, 'report'),
      retries: 0,
    };
    // /orphan is fetched only by the audit (no link reaches it): the abort falls inside the audit.
    const r = await crawlAndAudit({
      ...options,
      signal: ac.signal,
      onPage: (e) => {
        if (new URL(e.url).pathname === '/orphan') ac.abort();
      },
    });
    expect(r.auditSkipped).toBe('interrupted');
    expect(r.audit).toBeUndefined();
    expect(r.complete).toBe(true);
    expect(existsSync(join(dir, 'out', 'sitemap.xml'))).toBe(true);
    expect(existsSync(join(dir, 'report', 'audit.json'))).toBe(false);
    const home = site.hits('/');
    const again = await crawlAndAudit({ ...options, resume: true });
    expect(site.hits('/')).toBe(home);
    expect(again.auditSkipped).toBeUndefined();
    expect(codesByUrl(again.audit!.findings)).toEqual([...PLANTED].map(([c, p]) => [c, p]).sort());
    expect(existsSync(join(dir, 'report', 'audit.json'))).toBe(true);
  });
});
