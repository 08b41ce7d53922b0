import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type FakeBing, startFakeBing } from '../support/bing-server.js';
import { runBin } from '../support/cli.js';
import { startServer, text } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { startEngine } from './indexnow-server.js';

// The CLI run for real against the local fake of the Bing Webmaster API.
const SITE = 'https://www.example.com/';
let bing: FakeBing;

beforeAll(async () => {
  bing = await startFakeBing({ site: SITE });
});
afterAll(async () => {
  await bing.close();
});
afterEach(() => bing.reset());

const env = () => ({ BING_WEBMASTER_API_KEY: bing.key });
const common = () => ['--engine', 'bing', '--site', SITE, '--bing-api-root', bing.apiRoot];
function urlFile(n: number, from = 0): { dir: string; file: string } {
  const dir = tempDir('sk-bing-cli');
  const file = join(dir, 'urls.txt');
  writeFileSync(file, Array.from({ length: n }, (_, i) => `${SITE}p/${from + i}\n`).join(''));
  return { dir, file };
}

describe('sitemapkit submit --engine bing', () => {
  it('--sitemap URL submits the sitemap with SubmitFeed; the key comes from BING_WEBMASTER_API_KEY and is never printed', async () => {
    const r = await runBin(['submit', ...common(), '--sitemap', `${SITE}sitemap.xml`], {
      env: env(),
      cwd: tempDir(),
    });
    expect(r.code).toBe(0);
    expect(bing.feeds.map((f) => f.url)).toEqual([`${SITE}sitemap.xml`]);
    expect(r.stderr).toContain(`1 sitemap(s) submitted to Bing for ${SITE}, 0 failed, 0 left out`);
    expect(`${r.stdout}${r.stderr}`).not.toContain(bing.key);
  });

  it('--urls within the daily quota: sends what fits, keeps the rest in the journal beside the file, exit 1; the next run sends it first', async () => {
    const { dir, file } = urlFile(5);
    bing.daily = 3;
    const first = await runBin(['submit', ...common(), '--urls', file], { env: env() });
    expect(first.code).toBe(1);
    expect(bing.accepted).toEqual([`${SITE}p/0`, `${SITE}p/1`, `${SITE}p/2`]);
    expect(first.stderr).toContain(
      `3 URL(s) submitted to Bing for ${SITE}, 0 failed, 2 kept for the next run, 0 left out; quota left today: 0`,
    );
    expect(existsSync(join(dir, '.sitemapkit-submit-bing-urls.jsonl'))).toBe(true);
    expect(readFileSync(join(dir, '.sitemapkit-submit-bing-urls.jsonl'), 'utf8')).not.toContain(bing.key);

    bing.daily = 100;
    writeFileSync(file, `${SITE}p/9\n`);
    const second = await runBin(['submit', ...common(), '--urls', file], { env: env() });
    expect(second.code).toBe(0);
    expect(bing.accepted.slice(3)).toEqual([`${SITE}p/3`, `${SITE}p/4`, `${SITE}p/9`]);
    expect(second.stderr).toContain('(2 of them kept by earlier runs, sent first)');
    expect(existsSync(join(dir, '.sitemapkit-submit-bing-urls.jsonl'))).toBe(false);
  });

  it('--dry-run prints exactly the requests it would make, the key redacted, and sends nothing', async () => {
    const { file } = urlFile(2);
    const r = await runBin(['submit', ...common(), '--urls', file, '--dry-run', '--api-key', bing.key]);
    expect(r.code).toBe(0);
    expect(bing.calls).toEqual([]);
    expect(r.stdout).toBe(
      `GET ${bing.apiRoot}GetUrlSubmissionQuota?siteUrl=${encodeURIComponent(SITE)}&apikey=REDACTED\n` +
        `POST ${bing.apiRoot}SubmitUrlBatch?apikey=REDACTED\n` +
        `${JSON.stringify({ siteUrl: SITE, urlList: [`${SITE}p/0`, `${SITE}p/1`] })}\n`,
    );
    expect(`${r.stdout}${r.stderr}`).not.toContain(bing.key);
  });

  it('an invalid key cannot run: exit 2, one sentence, the key not printed; the URLs are kept', async () => {
    const { dir, file } = urlFile(2);
    const wrong = '0123456789abcdef0123456789abcdef';
    const r = await runBin(['submit', ...common(), '--urls', file], {
      env: { BING_WEBMASTER_API_KEY: wrong },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Bing does not accept the API key \(ERROR!!! InvalidApiKey\) \[ERR_BING\]/);
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
    expect(`${r.stdout}${r.stderr}`).not.toContain(wrong);
    expect(existsSync(join(dir, '.sitemapkit-submit-bing-urls.jsonl'))).toBe(true);
  });

  it('usage errors: no --site, no key', async () => {
    const { file } = urlFile(1);
    const noSite = await runBin(['submit', '--engine', 'bing', '--urls', file], { env: env() });
    expect(noSite.code).toBe(2);
    expect(noSite.stderr).toContain('--engine bing needs --site SITE');
    const noKey = await runBin(['submit', ...common(), '--urls', file], {
      env: { BING_WEBMASTER_API_KEY: '' },
    });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('--engine bing needs an API key: --api-key KEY or BING_WEBMASTER_API_KEY');
    const unknown = await runBin(['submit', '--engine', 'yahoo', '--urls', file]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--engine takes indexnow, google, bing, not "yahoo"');
  });

  it('--json reports the quota and the batches with stable fields', async () => {
    const { file } = urlFile(2);
    const r = await runBin(['submit', ...common(), '--urls', file, '--json', '--no-journal'], { env: env() });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({
      engine: 'bing',
      siteUrl: SITE,
      quota: { DailyQuota: 10_000, MonthlyQuota: 300_000 },
      quotaLeft: 9998,
      submitted: 2,
      kept: 0,
      dryRun: false,
    });
    expect(j.batches[0]).toMatchObject({ kind: 'urls', status: 'submitted', urls: 2, httpStatus: 200 });
    expect(r.stdout).not.toContain(bing.key);
  });
});

describe('sitemapkit status --engine bing', () => {
  it('shows GetFeeds as a table, and --json with Bing field names', async () => {
    bing.feeds.push({ url: `${SITE}sitemap.xml`, submitted: Date.UTC(2026, 10, 20, 8, 30) });
    const table = await runBin(['status', ...common()], { env: env() });
    expect(table.code).toBe(0);
    // The very table docs/engines.md shows.
    const doc = readFileSync(fileURLToPath(new URL('../../docs/engines.md', import.meta.url)), 'utf8');
    expect(doc).toContain(`\`\`\`text\n${table.stdout}\`\`\``);
    const json = await runBin(['status', ...common(), '--json'], { env: env() });
    const j = JSON.parse(json.stdout);
    expect(j.feeds[0]).toEqual({
      Url: `${SITE}sitemap.xml`,
      Type: 'Sitemap',
      Status: 'Success',
      Submitted: `/Date(${Date.UTC(2026, 10, 20, 8, 30)}-0000)/`,
      LastCrawled: `/Date(${Date.UTC(2026, 10, 20, 9, 30)})/`,
      UrlCount: 120,
      FileSize: 1024,
      Compressed: false,
    });
    expect(`${table.stdout}${json.stdout}`).not.toContain(bing.key);
  });

  it('a site not verified for the key: exit 2 with the reason', async () => {
    const r = await runBin(
      ['status', '--engine', 'bing', '--site', 'https://shop.example.com/', '--bing-api-root', bing.apiRoot],
      {
        env: env(),
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the site is not verified in Bing Webmaster Tools for this API key');
  });
});

describe('one submit over several engines, from a build or a change set', () => {
  it('--engine indexnow,bing submits the same URL list to both, each with its own journal', async () => {
    const engine = await startEngine();
    const site = await startServer({}, { keepAlive: false });
    const siteUrl = `${site.origin}/`;
    const fake = await startFakeBing({ site: siteUrl });
    try {
      const key = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
      site.route(`/${key}.txt`, text(key));
      const dir = tempDir('sk-bing-cli');
      const file = join(dir, 'urls.txt');
      writeFileSync(file, `${siteUrl}a\n${siteUrl}b\n`);
      const r = await runBin(
        [
          'submit',
          '--engine',
          'indexnow,bing',
          '--indexnow',
          `${engine.origin}/indexnow`,
          '--key',
          key,
          '--site',
          siteUrl,
          '--bing-api-root',
          fake.apiRoot,
          '--urls',
          file,
        ],
        { env: { BING_WEBMASTER_API_KEY: fake.key } },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(engine.posts.flatMap((p) => p.urlList)).toEqual([`${siteUrl}a`, `${siteUrl}b`]);
      expect(fake.accepted).toEqual([`${siteUrl}a`, `${siteUrl}b`]);
      // Everything accepted: no journal is left behind.
      expect(existsSync(join(dir, '.sitemapkit-submit-indexnow.jsonl'))).toBe(false);
      expect(existsSync(join(dir, '.sitemapkit-submit-bing-urls.jsonl'))).toBe(false);
    } finally {
      await Promise.all([engine.close(), site.close(), fake.close()]);
    }
  });

  it('--changes FILE submits the added, changed and removed URLs of a change set', async () => {
    const dir = tempDir('sk-bing-cli');
    const changes = join(dir, 'changes.jsonl');
    const at = '2026-11-26T10:00:00Z';
    writeFileSync(
      changes,
      [
        { kind: 'url', change: 'added', loc: `${SITE}new`, at },
        { kind: 'url', change: 'changed', loc: `${SITE}old`, at },
        { kind: 'url', change: 'removed', loc: `${SITE}gone`, at },
      ]
        .map((c) => JSON.stringify(c))
        .join('\n'),
    );
    const r = await runBin(['submit', ...common(), '--changes', changes], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    expect(bing.accepted).toEqual([`${SITE}new`, `${SITE}old`, `${SITE}gone`]);
  });

  it('--sitemap DIR (a build) submits its URLs in batches, the journal beside the manifest', async () => {
    const { dir, file } = urlFile(4);
    const out = join(dir, 'dist');
    const gen = await runBin(['generate', file, '--base-url', SITE, '--out', out]);
    expect(gen.code, gen.stderr).toBe(0);
    bing.daily = 1;
    const r = await runBin(['submit', ...common(), '--sitemap', out], { env: env() });
    expect(r.code).toBe(1);
    expect(bing.accepted).toEqual([`${SITE}p/0`]);
    expect(existsSync(join(out, '.sitemapkit-manifest.json'))).toBe(true);
    expect(existsSync(join(out, '.sitemapkit-submit-bing-urls.jsonl'))).toBe(true);
  });
});
