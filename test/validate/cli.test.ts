import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer as Site, startServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { SAMPLES_DIR, urls, urlset, validateCli } from './helpers.js';

let dir: string;
let warn: string;
let bad: string;

beforeAll(() => {
  dir = tempDir('sk-validate-cli');
  warn = join(dir, 'warn.xml');
  bad = join(dir, 'bad.xml');
  // Two warnings: a tracking parameter and a duplicate.
  writeFileSync(
    warn,
    urlset(urls(['https://example.com/?utm_source=a', 'https://example.com/b', 'https://example.com/b'])),
  );
  writeFileSync(bad, urlset(urls(['https://example.com/x'], '<priority>9</priority>')));
});

describe('sitemapkit validate: exit codes', () => {
  it('0 without errors (warnings allowed), 1 with errors', async () => {
    const ok = await validateCli([warn]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('valid: 0 errors, 2 warnings, 0 notes');
    const ko = await validateCli([bad]);
    expect(ko.code).toBe(1);
    expect(ko.stdout).toContain('priority-invalid');
  });

  it('1 with more warnings than --max-warnings', async () => {
    const over = await validateCli([warn, '--max-warnings', '1']);
    expect(over.code).toBe(1);
    expect(over.stderr).toBe('sitemapkit validate: 2 warnings, more than --max-warnings 1\n');
    expect((await validateCli([warn, '--max-warnings', '2'])).code).toBe(0);
  });

  it('2 when it cannot run: a missing file, a bad flag, an unknown rule code', async () => {
    const missing = await validateCli([join(dir, 'nope.xml')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.xml: no such file [ERR_INPUT]');
    const flag = await validateCli([warn, '--max-warnings', 'many']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--max-warnings needs a whole number of at least 0, not "many"');
    const code = await validateCli([warn, '--disable', 'url-duplicates']);
    expect(code.code).toBe(2);
    expect(code.stderr).toContain('--disable: "url-duplicates" is not a rule code [ERR_OPTIONS]');
    expect(code.stderr).toContain('did you mean url-duplicate');
    const live = await validateCli([warn, '--concurrency', '3']);
    expect(live.code).toBe(2);
    expect(live.stderr).toContain('need --live');
    const format = await validateCli([warn, '--format', 'xml']);
    expect(format.code).toBe(2);
  });

  it('--disable (repeatable, comma-separated) and --rule CODE=SEVERITY', async () => {
    const off = await validateCli([
      warn,
      '--disable',
      'url-duplicate,url-tracking-param',
      '--max-warnings',
      '0',
    ]);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('valid: 0 errors, 0 warnings, 0 notes');
    const strict = await validateCli([warn, '--rule', 'url-duplicate=error']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('  error   url-duplicate  ×1');
    const wrong = await validateCli([warn, '--rule', 'url-duplicate=fatal']);
    expect(wrong.code).toBe(2);
  });
});

describe('sitemapkit.config.json', () => {
  it('is read from the working folder, or from --config; --no-config ignores it; flags win', async () => {
    const project = tempDir('sk-validate-config');
    writeFileSync(
      join(project, 'sitemapkit.config.json'),
      JSON.stringify({
        validate: { rules: { 'url-tracking-param': 'error' }, disable: ['url-duplicate'], maxWarnings: 0 },
      }),
    );
    const fromCwd = await validateCli([warn, '--json'], { cwd: project });
    expect(fromCwd.code).toBe(1);
    const json = JSON.parse(fromCwd.stdout) as { rules: Array<{ code: string; severity: string }> };
    expect(json.rules.map((r) => [r.code, r.severity])).toEqual([['url-tracking-param', 'error']]);
    const flagWins = await validateCli(
      [warn, '--rule', 'url-tracking-param=warning', '--max-warnings', '5'],
      { cwd: project },
    );
    expect(flagWins.code).toBe(0);
    const ignored = await validateCli([warn, '--no-config', '--max-warnings', '1'], { cwd: project });
    expect(ignored.code).toBe(1);
    const explicit = await validateCli([warn, '--config', join(project, 'sitemapkit.config.json')]);
    expect(explicit.code).toBe(1);
  });

  it('a mistake in it stops the run (exit 2) and names the file', async () => {
    const project = tempDir('sk-validate-config');
    const path = join(project, 'sitemapkit.config.json');
    writeFileSync(path, JSON.stringify({ validate: { rules: { 'no-such-rule': 'off' } } }));
    const r = await validateCli([warn], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path}: validate.rules: "no-such-rule" is not a rule code [ERR_OPTIONS]`);
    writeFileSync(path, JSON.stringify({ validate: { maxWarning: 1 } }));
    const typo = await validateCli([warn], { cwd: project });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('validate.maxWarning is not a setting');
    writeFileSync(path, '{ "validate": ');
    expect((await validateCli([warn], { cwd: project })).stderr).toContain('not valid JSON');
  });
});

describe('output', () => {
  it('--format junit|html|json --out FILE writes the report atomically and says where on stderr', async () => {
    const out = tempDir('sk-validate-out');
    for (const format of ['junit', 'html', 'json', 'text']) {
      const file = join(out, `report.${format}`);
      const r = await validateCli([bad, '--format', format, '--out', file]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `sitemapkit validate: invalid: 1 error, 0 warnings, 0 notes; report in ${file}\n`,
      );
      const text = readFileSync(file, 'utf8');
      if (format === 'junit') expect(text).toContain('<failure message="1 × priority-invalid');
      if (format === 'html') expect(text.startsWith('<!DOCTYPE html>')).toBe(true);
      if (format === 'json') expect(JSON.parse(text).summary.errors).toBe(1);
      if (format === 'text') expect(text).not.toContain('\x1b[');
    }
    expect(readdirSync(out).sort()).toEqual(['report.html', 'report.json', 'report.junit', 'report.text']);
  });

  it('--json is short for --format json; - reads standard input', async () => {
    const a = await validateCli([bad, '--json']);
    const b = await validateCli([bad, '--format', 'json']);
    expect(JSON.parse(a.stdout).diagnostics).toEqual(JSON.parse(b.stdout).diagnostics);
    const stdin = await validateCli(['-', '--json'], { input: readFileSync(bad, 'utf8') });
    expect(stdin.code).toBe(1);
    expect(JSON.parse(stdin.stdout).diagnostics[0]).toMatchObject({
      code: 'priority-invalid',
      sitemap: '<stream>',
      line: 3,
    });
  });

  it('--help describes the command, the rules and the exit codes', async () => {
    const r = await validateCli(['--help']);
    expect(r.code).toBe(0);
    for (const flag of [
      '--recursive',
      '--sitemap-url',
      '--robots',
      '--agent',
      '--live',
      '--format',
      '--out',
      '--max-warnings',
      '--disable',
      '--config',
    ])
      expect(r.stdout).toContain(flag);
    expect(r.stdout).toContain('Exit codes: 0 no errors');
  });
});

describe('over HTTP', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startServer();
    site.route('/sitemap.xml', {
      headers: { 'content-type': 'application/xml' },
      body: urlset(urls([`${site.origin}/a`])),
    });
    site.route('/a', { status: 404 });
    site.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `Sitemap: ${site.origin}/sitemap.xml\n`,
    });
  });
  afterAll(() => site.close());

  it('--live finds the 404 (exit 1); a sitemap that answers 404 cannot be validated (exit 2)', async () => {
    const live = await validateCli([`${site.origin}/sitemap.xml`, '--live', '--json']);
    expect(live.code).toBe(1);
    expect(JSON.parse(live.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual([
      'live-client-error',
    ]);
    const offline = await validateCli([`${site.origin}/sitemap.xml`]);
    expect(offline.code).toBe(0);
    const gone = await validateCli([`${site.origin}/missing.xml`]);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('[ERR_HTTP]');
  });
});

describe('an index is validated with its children by default (issue 11)', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startServer();
    const o = site.origin;
    const xml = { 'content-type': 'application/xml' };
    site.route('/sitemap_index.xml', {
      headers: xml,
      body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${o}/s1.xml</loc></sitemap></sitemapindex>`,
    });
    site.route('/s1.xml', {
      headers: xml,
      body: urlset(urls([`${o}/ok`, `${o}/gone`, `${o}/hidden`, `${o}/moved`])),
    });
    site.route('/ok', { body: '<!DOCTYPE html><title>ok</title>' });
    site.route('/gone', { status: 404 });
    site.route('/hidden', { body: '<!DOCTYPE html><meta name="robots" content="noindex"><title>x</title>' });
    site.route('/moved', { status: 301, headers: { location: '/ok' } });
    site.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `Sitemap: ${o}/sitemap_index.xml\n`,
    });
  });
  afterAll(() => site.close());

  it('--live on an index URL checks the pages of its sitemaps; --no-recursive checks the index alone', async () => {
    const r = await validateCli([`${site.origin}/sitemap_index.xml`, '--live', '--json']);
    expect(r.code, r.stderr).toBe(1);
    const json = JSON.parse(r.stdout);
    expect(json.settings.recursive).toBe(true);
    expect(json.diagnostics.map((d: { code: string; url: string }) => `${d.code} ${d.url}`).sort()).toEqual([
      `live-client-error ${site.origin}/gone`,
      `live-noindex ${site.origin}/hidden`,
      `live-redirect ${site.origin}/moved`,
    ]);
    const alone = await validateCli([
      `${site.origin}/sitemap_index.xml`,
      '--live',
      '--no-recursive',
      '--json',
    ]);
    expect(alone.code).toBe(0);
    const aloneJson = JSON.parse(alone.stdout);
    expect(aloneJson.summary).toMatchObject({ sitemaps: 1, urls: 0 });
    expect(aloneJson.diagnostics.map((d: { code: string }) => d.code)).toEqual(['index-not-followed']);
  });

  it('a local index without --sitemap-url is read alone (its children would be fetched from the live site)', async () => {
    const local = join(dir, 'local-index.xml');
    writeFileSync(
      local,
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.origin}/s1.xml</loc></sitemap></sitemapindex>`,
    );
    const before = site.requests.length;
    const r = await validateCli([local, '--json']);
    expect(JSON.parse(r.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual([
      'index-not-followed',
    ]);
    expect(site.requests.length).toBe(before);
  });
});

describe('a sample from the shared specs through the CLI, recursive with --sitemap-url', () => {
  it('reads an index whose children are missing on disk: one error per child, exit 1', async () => {
    const r = await validateCli([
      join(SAMPLES_DIR, 'valid/index.xml'),
      '--recursive',
      '--sitemap-url',
      'http://www.example.com/sitemap_index.xml',
      '--json',
    ]);
    expect(r.code).toBe(1);
    // The children are read concurrently: their findings arrive in completion order.
    const codes = JSON.parse(r.stdout)
      .diagnostics.map((d: { code: string; sitemap: string }) => `${d.code} ${d.sitemap}`)
      .sort();
    expect(codes).toEqual([
      'fetch-status http://www.example.com/sitemap1.xml.gz',
      'fetch-status http://www.example.com/sitemap2.xml.gz',
    ]);
  });
});

describe('--discover: a site, not a sitemap', () => {
  let site: Site;
  beforeAll(async () => {
    site = await startServer();
  });
  afterAll(() => site.close());

  it('validates the sitemaps robots.txt names, as trees; the well-known paths when it names none; an error when there is none', async () => {
    const o = site.origin;
    const xml = { 'content-type': 'application/xml' };
    site.route('/robots.txt', {
      headers: { 'content-type': 'text/plain' },
      body: `Sitemap: ${o}/idx.xml\nSitemap: ${o}/news.xml\n`,
    });
    site.route('/idx.xml', {
      headers: xml,
      body: `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${o}/s1.xml</loc></sitemap></sitemapindex>`,
    });
    site.route('/s1.xml', { headers: xml, body: urlset(urls([`${o}/a`, `${o}/b`])) });
    site.route('/news.xml', { headers: xml, body: urlset(urls([`${o}/b`])) });
    const r = await validateCli([`${o}/`, '--discover', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.settings.discovered).toEqual([`${o}/idx.xml`, `${o}/news.xml`]);
    expect(json.summary).toMatchObject({ sitemaps: 3, urls: 3, errors: 0, warnings: 1 });
    expect(json.diagnostics.map((d: { code: string }) => d.code)).toEqual(['url-duplicate']);

    site.route('/robots.txt', { status: 404 });
    site.route('/sitemap.xml', { headers: xml, body: urlset(urls([`${o}/c`])) });
    const wellKnown = await validateCli([`${o}/`, '--discover', '--json']);
    expect(JSON.parse(wellKnown.stdout).settings.discovered).toEqual([`${o}/sitemap.xml`]);

    site.route('/sitemap.xml', { status: 404 });
    const none = await validateCli([`${o}/`, '--discover', '--json']);
    expect(none.code).toBe(1);
    expect(JSON.parse(none.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual([
      'discover-none',
      'robots-unavailable',
    ]);
    expect((await validateCli([join(dir, 'x.xml'), '--discover'])).code).toBe(2);
  });
});
