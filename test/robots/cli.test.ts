import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { startServer, type TestServer, text } from '../support/http-server.js';

const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-robots-cli-'));
const robotsFile = join(dir, 'robots.txt');
writeFileSync(
  robotsFile,
  'User-agent: *\nDisallow: /private/\nAllow: /private/open\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n',
);

let server: TestServer;
beforeAll(async () => {
  server = await startServer({}, { keepAlive: false });
});
afterAll(async () => {
  await server.close();
});

describe('sitemapkit robots check', () => {
  it('prints allowed/disallowed with the deciding line and exits 1 when any URL is disallowed', async () => {
    const r = await cli([
      'robots',
      'check',
      robotsFile,
      '--agent',
      'Bot',
      'https://e.com/',
      'https://e.com/private/x',
      'https://e.com/private/open',
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')).toEqual([
      'allowed    https://e.com/              (no rule decided)',
      'disallowed https://e.com/private/x     (line 2: Disallow: /private/)',
      'allowed    https://e.com/private/open  (line 3: Allow: /private/open)',
      '',
    ]);
  });

  it('exits 0 when every URL is allowed, and --why prints the reason', async () => {
    const r = await cli([
      'robots',
      'check',
      robotsFile,
      '--agent',
      'Googlebot',
      '--why',
      'https://e.com/private/x',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no rule of the group for Googlebot \(line 5\) matches \/private\/x/);
  });

  it('--json prints one object a URL with exactly url, allowed, line, rule, reason', async () => {
    const r = await cli([
      'robots',
      'check',
      robotsFile,
      '--agent',
      'Googlebot',
      '--json',
      'https://e.com/nogoogle',
      'https://e.com/a',
    ]);
    expect(r.code).toBe(1);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual([
      {
        url: 'https://e.com/nogoogle',
        allowed: false,
        line: 6,
        rule: 'Disallow: /nogoogle',
        reason: expect.any(String),
      },
      { url: 'https://e.com/a', allowed: true, line: null, rule: null, reason: expect.any(String) },
    ]);
    expect(Object.keys(lines[0]!)).toEqual(['url', 'allowed', 'line', 'rule', 'reason']);
  });

  it('--mode rfc is strict', async () => {
    const text = 'User-agent: *\nDisallow /x\n';
    expect((await cli(['robots', 'check', '-', '--agent', 'a', 'https://e.com/x'], text)).code).toBe(1);
    expect(
      (await cli(['robots', 'check', '-', '--agent', 'a', '--mode', 'rfc', 'https://e.com/x'], text)).code,
    ).toBe(0);
  });

  it('fetches ROBOTS from a URL with the RFC status semantics', async () => {
    server.route('/robots.txt', text('User-agent: *\nDisallow: /x\n'));
    expect((await cli(['robots', 'check', server.origin, '--agent', 'a', `${server.origin}/x`])).code).toBe(
      1,
    );
    server.route('/robots.txt', text('down', 503));
    const r = await cli(['robots', 'check', server.origin, '--agent', 'a', `${server.origin}/y`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/unreachable \(HTTP 503\): everything is disallowed/);
  });

  it('usage errors exit 2: no --agent, no URL, a bad --mode, a missing file', async () => {
    expect((await cli(['robots', 'check', robotsFile, 'https://e.com/'])).code).toBe(2);
    expect((await cli(['robots', 'check', robotsFile, '--agent', 'a'])).code).toBe(2);
    expect(
      (await cli(['robots', 'check', robotsFile, '--agent', 'a', '--mode', 'yandex', 'https://e.com/'])).code,
    ).toBe(2);
    const missing = await cli(['robots', 'check', join(dir, 'nope.txt'), '--agent', 'a', 'https://e.com/']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nope\.txt: cannot read robots\.txt: no such file \[ERR_INPUT\]/);
  });

  it('refuses an argument that is not an http(s) URL with exit 2 and one sentence (issue 11)', async () => {
    for (const arg of ['not-a-url', '/private/x', 'ftp://e.com/private/x', 'https:///private/x', 'e.com/a']) {
      const r = await cli(['robots', 'check', robotsFile, '--agent', 'Bot', 'https://e.com/', arg]);
      expect([arg, r.code, r.stdout]).toEqual([arg, 2, '']);
      // One sentence that says what to give, and never a stack trace.
      expect(r.stderr).toContain(`"${arg}" is not an http(s) URL: give each URL to check in full`);
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
    const path = await cli(['robots', 'check', robotsFile, '--agent', 'Bot', '/private/x']);
    expect(path.stderr).toMatch(/such as https:\/\/www\.example\.com\/private\/x/);
  });

  it('warns when a raw non-ASCII URL and its percent-encoded form are judged differently (issue 11)', async () => {
    const rules = 'User-agent: *\nDisallow: /caf%C3%A9/\nDisallow: /größe\n';
    const raw = await cli(['robots', 'check', '-', '--agent', 'Bot', 'https://e.com/café/x'], rules);
    // As written the octets are not %C3%A9, so no rule matches; crawlers request the encoded form.
    expect(raw.code).toBe(0);
    expect(raw.stdout).toMatch(/^allowed/);
    expect(raw.stderr).toBe(
      'warning: https://e.com/café/x has raw non-ASCII characters and is allowed as written, but https://e.com/caf%C3%A9/x, the percent-encoded form crawlers request, is disallowed (line 2: Disallow: /caf%C3%A9/); check the form your crawler sends\n',
    );
    // The pattern is percent-encoded by the matcher, so the raw URL misses it too.
    const json = await cli(
      ['robots', 'check', '-', '--agent', 'Bot', '--json', 'https://e.com/größe'],
      rules,
    );
    expect(JSON.parse(json.stdout)).toMatchObject({ allowed: true });
    expect(json.stderr).toMatch(
      /^warning: .*gr%C3%B6%C3%9Fe, the percent-encoded form .* is disallowed \(line 3/,
    );
    // Judged alike: no warning.
    const same = await cli(['robots', 'check', '-', '--agent', 'Bot', 'https://e.com/ok/ü'], rules);
    expect([same.code, same.stderr]).toEqual([0, '']);
  });

  it('--help documents the exit codes', async () => {
    const r = await cli(['robots', 'check', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Exit codes: 0 every URL allowed; 1 some URL disallowed; 2 usage error/);
  });

  it("gives Google's answer on every conformance case (545) through --json", async () => {
    const spec = new URL('../fixtures/spec/', import.meta.url);
    type Case = {
      robotstxt: string;
      robotstxt_base64?: string;
      useragent: string;
      url: string;
      allowed: boolean;
    };
    const cases = ['robots-cases.json', 'robots-spec-test-cases.json'].flatMap(
      (f) => JSON.parse(readFileSync(new URL(f, spec), 'utf8')) as Case[],
    );
    // Commander cannot take an empty agent or URL argument in every position; those 8 cases are
    // covered by the library test (test/robots/conformance.test.ts).
    const runnable = cases.filter((c) => c.useragent !== '' && c.url !== '');
    expect(runnable.length).toBeGreaterThan(530);
    const wrong: string[] = [];
    for (const c of runnable) {
      const body =
        c.robotstxt_base64 === undefined
          ? c.robotstxt
          : new Uint8Array(Buffer.from(c.robotstxt_base64, 'base64'));
      const r = await cli(['robots', 'check', '-', '--agent', c.useragent, '--json', c.url], body);
      const got = JSON.parse(r.stdout) as { allowed: boolean };
      if (got.allowed !== c.allowed || r.code !== (c.allowed ? 0 : 1)) wrong.push(`${c.useragent} ${c.url}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('sitemapkit robots lint', () => {
  it('prints diagnostics with file:line and exits 1 on warnings', async () => {
    const f = join(dir, 'lint.txt');
    writeFileSync(f, 'Disallow: /x\nUser-agent: *\nDissallow: /y\nSitemap: /s.xml\n');
    const r = await cli(['robots', 'lint', f]);
    expect(r.code).toBe(1);
    const heads = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => /^(.*?:\d+): (\w+) ([\w-]+):/.exec(l)?.slice(1));
    expect(heads).toEqual([
      [`${f}:1`, 'warning', 'robots-rule-outside-group'],
      [`${f}:3`, 'warning', 'robots-typo'],
      [`${f}:4`, 'error', 'robots-sitemap-relative'],
    ]);
    expect(r.stderr).toMatch(/1 error\(s\), 2 warning\(s\), 0 note\(s\)/);
  });

  it('--sitemap with a text list reports listed URLs that are disallowed, with the deciding line', async () => {
    const list = join(dir, 'urls.txt');
    writeFileSync(
      list,
      '# sitemap URLs\nhttps://e.com/a\nhttps://e.com/private/b\n\nhttps://e.com/nogoogle/c\n',
    );
    const r = await cli(['robots', 'lint', robotsFile, '--sitemap', list, '--json']);
    expect(r.code).toBe(1);
    const d = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { code: string; url?: string; line?: number });
    expect(d.filter((x) => x.code === 'robots-sitemap-disallowed').map((x) => [x.url, x.line])).toEqual([
      ['https://e.com/private/b', 2],
      ['https://e.com/nogoogle/c', 6],
    ]);
    const onlyStar = await cli(['robots', 'lint', robotsFile, '--sitemap', list, '--agent', '*', '--json']);
    expect(onlyStar.stdout.match(/robots-sitemap-disallowed/g)).toHaveLength(1);
  });

  it('--sitemap with an XML sitemap file, or a live index (followed), finds the disallowed URLs', async () => {
    const xml = join(dir, 'sitemap.xml');
    const urlset = (locs: string[]): string =>
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<url><loc>${l}</loc></url>`).join('')}</urlset>`;
    writeFileSync(xml, urlset(['https://e.com/a', 'https://e.com/private/x']));
    const r = await cli(['robots', 'lint', robotsFile, '--sitemap', xml, '--json']);
    expect(r.code).toBe(1);
    const blocked = (out: string): Array<string | undefined> =>
      out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { code: string; url?: string })
        .filter((d) => d.code === 'robots-sitemap-disallowed')
        .map((d) => d.url);
    expect(blocked(r.stdout)).toEqual(['https://e.com/private/x']);

    const o = server.origin;
    server.route('/robots.txt', text(`User-agent: *\nDisallow: /private/\nSitemap: ${o}/index.xml\n`));
    server.route(
      '/index.xml',
      text(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${o}/s1.xml</loc></sitemap></sitemapindex>`,
      ),
    );
    server.route('/s1.xml', text(urlset([`${o}/ok`, `${o}/private/deep`])));
    const live = await cli(['robots', 'lint', o, '--sitemap', `${o}/index.xml`, '--json']);
    expect(blocked(live.stdout)).toEqual([`${o}/private/deep`]);
  });

  it('a clean file exits 0 (notes do not count)', async () => {
    const r = await cli(['robots', 'lint', '-'], 'User-agent: *\nDisallow:\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/info robots-no-sitemap/);
  });
});
