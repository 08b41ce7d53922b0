import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { cli } from '../support/cli.js';
import { startServer, type TestServer, text } from '../support/http-server.js';
import { type Engine, startEngine } from './indexnow-server.js';

const KEY = '0123456789abcdef0123456789abcdef';
const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-submit-cli-'));
let engine: Engine;
let site: TestServer;

beforeAll(async () => {
  engine = await startEngine();
  site = await startServer({}, { keepAlive: false });
});
afterAll(async () => {
  await Promise.all([engine.close(), site.close()]);
});
beforeEach(() => {
  engine.posts.length = 0;
  engine.queue.length = 0;
  site.route(`/${KEY}.txt`, text(KEY));
});

const ep = (): string => `${engine.origin}/indexnow`;

describe('sitemapkit submit key', () => {
  it('generates a key and writes DIR/KEY.txt', async () => {
    const out = join(dir, 'public');
    const r = await cli(['submit', 'key', '--out', out, '--json']);
    expect(r.code).toBe(0);
    const { key, file } = JSON.parse(r.stdout) as { key: string; file: string };
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(file).toBe(join(out, `${key}.txt`));
    expect(readFileSync(file, 'utf8')).toBe(key);
    const text16 = await cli(['submit', 'key', '--out', out, '--length', '16']);
    expect(text16.stdout).toMatch(
      /^[0-9a-f]{16}\nwrote .*\nPublish it so that https:\/\/YOUR-HOST\/[0-9a-f]{16}\.txt serves it/,
    );
    expect(readdirSync(out)).toHaveLength(2);
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['submit', 'key'])).code).toBe(2);
    expect((await cli(['submit', 'key', '--out', dir, '--length', '7'])).code).toBe(2);
  });
});

describe('sitemapkit submit --indexnow', () => {
  it('--dry-run never shows a URL as one that would be submitted when its key check failed (issue 11)', async () => {
    site.route(`/${KEY}.txt`, { status: 404, body: 'not here' });
    const list = join(dir, 'dry-urls.txt');
    writeFileSync(list, `${site.origin}/a\n${site.origin}/b\n`);
    const r = await cli(['submit', '--indexnow', ep(), '--key', KEY, '--urls', list, '--dry-run']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/failed +2 URL\(s\) for 127\.0\.0\.1:\d+: key file check failed/);
    expect(r.stderr).toMatch(/0 URL\(s\) would be submitted to .*, 2 failed/);
    expect(engine.posts).toEqual([]);
    // With the key file in place, the same dry run lists both URLs.
    site.route(`/${KEY}.txt`, text(KEY));
    const ok = await cli(['submit', '--indexnow', ep(), '--key', KEY, '--urls', list, '--dry-run']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(`${site.origin}/a\n${site.origin}/b\n`);
  });

  it('--urls FILE: posts every URL and exits 0', async () => {
    const list = join(dir, 'urls.txt');
    writeFileSync(list, `${site.origin}/a\n# comment\n${site.origin}/b\n`);
    const r = await cli(['submit', '--indexnow', ep(), '--key', KEY, '--urls', list]);
    expect(r.code).toBe(0);
    expect(engine.posts.map((p) => p.urlList)).toEqual([[`${site.origin}/a`, `${site.origin}/b`]]);
    expect(r.stderr).toMatch(/submitted 2 URL\(s\) for 127\.0\.0\.1:\d+: HTTP 200/);
    expect(r.stderr).toMatch(/2 URL\(s\) submitted to .*\/indexnow, 0 failed, 0 left out/);
  });

  it('--urls - reads standard input; --json prints the report', async () => {
    const r = await cli(
      ['submit', '--indexnow', ep(), '--key', KEY, '--urls', '-', '--json'],
      `${site.origin}/x\nnot-a-url\n`,
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      submitted: number;
      invalidCount: number;
      batches: Array<{ status: string }>;
      dryRun: boolean;
    };
    expect(report).toMatchObject({ submitted: 1, invalidCount: 1, dryRun: false });
    expect(report.batches.map((b) => b.status)).toEqual(['submitted']);
  });

  it('--sitemap DIR --since PREVIOUS submits exactly what changed, including removed URLs', async () => {
    const base = `${site.origin}/`;
    const before = join(dir, 'before');
    const after = join(dir, 'after');
    await writeSitemaps(
      [{ loc: `${base}keep` }, { loc: `${base}edit`, lastmod: '2024-01-01' }, { loc: `${base}drop` }],
      { outDir: before, baseUrl: base },
    );
    await writeSitemaps(
      [{ loc: `${base}keep` }, { loc: `${base}edit`, lastmod: '2024-06-01' }, { loc: `${base}add` }],
      { outDir: after, baseUrl: base },
    );
    const dry = await cli([
      'submit',
      '--indexnow',
      ep(),
      '--key',
      KEY,
      '--sitemap',
      after,
      '--since',
      before,
      '--dry-run',
    ]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(`changed  ${base}edit\nadded    ${base}add\nremoved  ${base}drop\n`);
    expect(dry.stderr).toMatch(/1 added, 1 changed, 1 removed \(1 unchanged\)/);
    expect(dry.stderr).toMatch(/3 URL\(s\) would be submitted/);
    expect(engine.posts).toEqual([]);
    // A sitemap file of the build finds its manifest beside it.
    const r = await cli([
      'submit',
      '--indexnow',
      ep(),
      '--key',
      KEY,
      '--sitemap',
      join(after, 'sitemap.xml'),
      '--since',
      join(before, '.sitemapkit-manifest.json'),
    ]);
    expect(r.code).toBe(0);
    expect(engine.posts.map((p) => p.urlList)).toEqual([[`${base}edit`, `${base}add`, `${base}drop`]]);
  });

  it('--sitemap DIR without --key uses the key file `submit key --out DIR` wrote there', async () => {
    const base = `${site.origin}/`;
    const build = join(dir, 'keyed');
    await writeSitemaps([{ loc: `${base}one` }], { outDir: build, baseUrl: base });
    const none = await cli(['submit', '--indexnow', ep(), '--sitemap', build]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`--indexnow needs --key KEY: ${build} holds no key file`);
    writeFileSync(join(build, `${KEY}.txt`), KEY);
    const r = await cli(['submit', '--indexnow', ep(), '--sitemap', join(build, 'sitemap.xml')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`using the IndexNow key of ${join(build, `${KEY}.txt`)}`);
    expect(engine.posts.map((p) => [p.key, p.urlList])).toEqual([[KEY, [`${base}one`]]]);
    // Two keys: which one the site publishes cannot be told.
    writeFileSync(join(build, 'fedcba9876543210.txt'), 'fedcba9876543210');
    const two = await cli(['submit', '--indexnow', ep(), '--sitemap', build]);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/holds 2 IndexNow key files .*cannot be told/);
  });

  it('--since a live sitemap URL compares by lastmod', async () => {
    const base = `${site.origin}/`;
    site.route(
      '/live.xml',
      text(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
          `<url><loc>${base}same</loc><lastmod>2024-01-01</lastmod></url>` +
          `<url><loc>${base}edited</loc><lastmod>2024-01-01</lastmod></url>` +
          `<url><loc>${base}deleted</loc></url></urlset>`,
      ),
    );
    const build = join(dir, 'live-build');
    await writeSitemaps(
      [
        { loc: `${base}same`, lastmod: '2024-01-01' },
        { loc: `${base}edited`, lastmod: '2024-05-05' },
        { loc: `${base}fresh` },
      ],
      { outDir: build, baseUrl: base },
    );
    const r = await cli([
      'submit',
      '--indexnow',
      ep(),
      '--key',
      KEY,
      '--sitemap',
      build,
      '--since',
      `${site.origin}/live.xml`,
    ]);
    expect(r.code).toBe(0);
    expect(engine.posts.map((p) => p.urlList)).toEqual([[`${base}edited`, `${base}fresh`, `${base}deleted`]]);
  });

  it('nothing changed: nothing posted, exit 0', async () => {
    const base = `${site.origin}/`;
    const same = join(dir, 'same');
    await writeSitemaps([{ loc: `${base}a` }], { outDir: same, baseUrl: base });
    const r = await cli(['submit', '--indexnow', ep(), '--key', KEY, '--sitemap', same, '--since', same]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/nothing to submit/);
    expect(engine.posts).toEqual([]);
  });

  it('a failing batch exits 1 and says why', async () => {
    site.route(`/${KEY}.txt`, text('missing', 404));
    const list = join(dir, 'one.txt');
    writeFileSync(list, `${site.origin}/a\n`);
    const r = await cli(['submit', '--indexnow', ep(), '--key', KEY, '--urls', list]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /failed +1 URL\(s\) for .*key file check failed: .*it answered HTTP 404\n +publish the file made by `sitemapkit submit key --out DIR`/,
    );
  });

  it('usage errors exit 2', async () => {
    const list = join(dir, 'urls.txt');
    const runs = [
      ['submit', '--key', KEY, '--urls', list],
      ['submit', '--indexnow', ep(), '--urls', list],
      ['submit', '--indexnow', ep(), '--key', KEY],
      ['submit', '--indexnow', ep(), '--key', KEY, '--urls', list, '--sitemap', dir],
      ['submit', '--indexnow', ep(), '--key', KEY, '--urls', list, '--since', dir],
      ['submit', '--indexnow', ep(), '--key', 'bad_key!', '--urls', list],
      ['submit', '--indexnow', ep(), '--key', KEY, '--urls', join(dir, 'nope.txt')],
      ['submit', '--ping', `${site.origin}/ping`, '--sitemap', 'relative.xml'],
    ];
    for (const args of runs) expect([args.join(' '), (await cli(args)).code]).toEqual([args.join(' '), 2]);
  });

  it('--ping sends the legacy ping to the named endpoint with the note', async () => {
    site.route('/ping?sitemap=https%3A%2F%2Fexample.com%2Fsitemap.xml', text('ok'));
    const r = await cli([
      'submit',
      '--ping',
      `${site.origin}/ping`,
      '--sitemap',
      'https://example.com/sitemap.xml',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Google \(June 2023\) and Bing \(May 2022\) no longer accept sitemap pings/);
    expect(r.stdout).toMatch(/HTTP 200/);
  });

  it('--help explains the command, its key subcommand and the exit codes', async () => {
    const r = await cli(['submit', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/submit key --out DIR/);
    expect(r.stdout).toMatch(/Exit codes: 0 everything submitted/);
  });
});
