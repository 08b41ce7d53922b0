import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { BIN, cli, runBin } from '../support/cli.js';
import { type GoogleFake, startGoogleFake, type TestAccount, testAccount } from '../support/google-fake.js';
import { startServer, text } from '../support/http-server.js';
import { startEngine } from './indexnow-server.js';

const SITE = 'https://www.example.com/';
const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-google-cli-'));
let account: TestAccount;
let google: GoogleFake;
let key: string;

beforeAll(async () => {
  account = testAccount();
  google = await startGoogleFake(account);
  key = join(dir, 'key.json');
  writeFileSync(key, JSON.stringify(account.keyFile(`${google.origin}/token`)));
});
afterAll(() => google.close());
beforeEach(() => {
  google.properties.clear();
  google.tokens.clear();
  google.queue.length = 0;
  google.issued = 0;
  google.nowMs = Date.now();
  google.requests.length = 0;
});

const engine = (): string[] => [
  '--engine',
  'google',
  '--site',
  SITE,
  '--credentials',
  key,
  '--google-api-root',
  google.url,
];
/** Each submit keeps its submission journal in a folder of its own (never the test's working folder). */
const base = (): string[] => [...engine(), '--journal-dir', mkdtempSync(join(dir, 'journal-'))];

/**
 * A build of these URLs, 2 a file: an index and its children. Each build gets its own second: a
 * child's lastmod is the build time when it changed, and two builds within one second cannot be
 * told apart by it (every child then counts as changed, as docs/engines.md says).
 */
let buildAt = Date.parse('2026-11-01T00:00:00Z');
async function build(out: string, locs: string[]): Promise<void> {
  buildAt += 60_000;
  const at = new Date(buildAt);
  await writeSitemaps(
    locs.map((l) => ({ loc: `${SITE}${l}` })),
    { outDir: out, baseUrl: SITE, maxUrlsPerFile: 2, now: () => at },
  );
}

describe('sitemapkit submit --engine google', () => {
  it('submits a sitemap URL as given, and says so per sitemap', async () => {
    google.property(SITE, [account.clientEmail]);
    const r = await cli(['submit', ...base(), '--sitemap', `${SITE}sitemap.xml`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `submitted ${SITE}sitemap.xml (entry point)\n1 sitemap(s) submitted to Google for ${SITE}, 0 failed\n`,
    );
    expect([...google.properties.get(SITE)!.sitemaps.keys()]).toEqual([`${SITE}sitemap.xml`]);
    const two = await cli([
      'submit',
      ...base(),
      '--sitemap',
      `${SITE}news.xml`,
      '--sitemap',
      `${SITE}video.xml`,
    ]);
    expect(two.code, two.stderr).toBe(0);
    expect([...google.properties.get(SITE)!.sitemaps.keys()]).toEqual([
      `${SITE}sitemap.xml`,
      `${SITE}news.xml`,
      `${SITE}video.xml`,
    ]);
  });

  it('from a build folder: the entry point and the children the build changed, then only those that changed', async () => {
    google.property(SITE, [account.clientEmail]);
    const out = join(dir, 'site');
    await build(out, ['a', 'b', 'c', 'd', 'e']);
    const first = await cli(['submit', ...base(), '--sitemap', out, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const report = JSON.parse(first.stdout) as {
      results: Array<{ sitemap: string; reason: string; status: string }>;
    };
    expect(report.results.map((x) => [x.sitemap.slice(SITE.length), x.reason, x.status])).toEqual([
      ['sitemap.xml', 'entry', 'submitted'],
      ['sitemap-00001.xml', 'changed', 'submitted'],
      ['sitemap-00002.xml', 'changed', 'submitted'],
      ['sitemap-00003.xml', 'changed', 'submitted'],
    ]);
    await build(out, ['a', 'b', 'c', 'd', 'f']); // only the third child changes
    const second = await cli(['submit', ...base(), '--sitemap', join(out, 'sitemap.xml')]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(
      `submitted ${SITE}sitemap.xml (entry point)\nsubmitted ${SITE}sitemap-00003.xml (changed)\n`,
    );
    expect(second.stderr).toContain('2 sitemap(s) submitted');
  });

  it('what Google did not accept stays in the journal and goes first next run; a sitemap it refuses for good does not', async () => {
    const journal = mkdtempSync(join(dir, 'journal-'));
    const out = join(dir, 'site-journal');
    await build(out, ['a', 'b', 'c']);
    // The service account is not yet a user of the property: 403 for every sitemap, all kept.
    google.property(SITE, []);
    const refused = await cli(['submit', ...base(), '--journal-dir', journal, '--sitemap', out]);
    expect(refused.code).toBe(1);
    const file = join(journal, '.sitemapkit-submit-google-sitemaps.jsonl');
    expect(refused.stderr).toContain(
      `0 sitemap(s) submitted to Google for ${SITE}, 3 failed, 3 kept for the next run (journal: ${file})\n`,
    );
    expect(existsSync(file)).toBe(true);
    // Added as a user: the next run, for another sitemap, sends the three kept ones first.
    google.property(SITE, [account.clientEmail]);
    const again = await cli(['submit', ...base(), '--journal-dir', journal, '--sitemap', `${SITE}extra.xml`]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe(
      [
        `submitted ${SITE}sitemap.xml (kept by an earlier run)`,
        `submitted ${SITE}sitemap-00001.xml (kept by an earlier run)`,
        `submitted ${SITE}sitemap-00002.xml (kept by an earlier run)`,
        `submitted ${SITE}extra.xml (entry point)`,
        `4 sitemap(s) submitted to Google for ${SITE}, 0 failed\n`,
      ].join('\n'),
    );
    expect(existsSync(file)).toBe(false);
    // A 400 (a sitemap outside the property) is refused for good: not kept.
    google.queue.push({ status: 400 });
    const bad = await cli(['submit', ...base(), '--journal-dir', journal, '--sitemap', `${SITE}bad.xml`]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).not.toContain('kept for the next run');
    expect(existsSync(file)).toBe(false);
  });

  it('--dry-run prints the requests with the assertion and the token redacted, and sends nothing', async () => {
    const r = await cli(['submit', ...base(), '--sitemap', `${SITE}sitemap.xml`, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(google.requests).toEqual([]);
    const put = `${google.url}webmasters/v3/sites/${encodeURIComponent(SITE)}/sitemaps/${encodeURIComponent(`${SITE}sitemap.xml`)}`;
    expect(r.stdout).toBe(
      `POST ${google.origin}/token\n` +
        '  content-type: application/x-www-form-urlencoded\n' +
        '  grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=[redacted]\n' +
        `PUT ${put}\n` +
        '  authorization: Bearer [redacted]\n',
    );
    expect(r.stderr).toContain('1 sitemap(s) would be submitted');
    const j = await cli(['submit', ...base(), '--sitemap', `${SITE}sitemap.xml`, '--dry-run', '--json']);
    expect(j.stdout).not.toMatch(/PRIVATE|eyJ|ya29/);
    expect(JSON.parse(j.stdout)).toMatchObject({
      engine: 'google',
      dryRun: true,
      results: [{ status: 'dry-run' }],
    });
  });

  it('a refusal exits 1 with the sentence (403: the e-mail to add); a bad key file or no --site exits 2 in one line', async () => {
    google.property(SITE, []);
    const r = await cli(['submit', ...base(), '--sitemap', `${SITE}sitemap.xml`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`failed    ${SITE}sitemap.xml: Google refused submitting the sitemap`);
    expect(r.stderr).toContain(`add ${account.clientEmail} as a user of the property ${SITE}`);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"type":"service_account"}');
    const b = await cli([
      'submit',
      '--engine',
      'google',
      '--site',
      SITE,
      '--credentials',
      bad,
      '--sitemap',
      `${SITE}s.xml`,
    ]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(
      new RegExp(
        `^sitemapkit: ${bad}: ${bad} has no client_email .*\\[ERR_INPUT\\]\\n  give the JSON key file`,
      ),
    );
    const noSite = await cli([
      'submit',
      '--engine',
      'google',
      '--credentials',
      key,
      '--sitemap',
      `${SITE}s.xml`,
    ]);
    expect(noSite.code).toBe(2);
    expect(noSite.stderr).toContain('--engine google needs --site');
    const stray = await cli([
      'submit',
      '--engine',
      'google',
      '--indexnow',
      'https://api.indexnow.org/',
      ...base().slice(2),
      '--sitemap',
      `${SITE}s.xml`,
    ]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain(
      '--indexnow is for --engine indexnow: add --engine indexnow, or leave --indexnow out',
    );
    const noEngine = await cli(['submit', '--credentials', key, '--sitemap', `${SITE}s.xml`]);
    expect(noEngine.stderr).toContain('--credentials is for --engine google: add --engine google');
    const badEngine = await cli(['submit', '--engine', 'yahoo', '--sitemap', `${SITE}s.xml`]);
    expect(badEngine.stderr).toContain('--engine takes indexnow, google, bing, not "yahoo"');
  });

  it('reads the key file from GOOGLE_APPLICATION_CREDENTIALS (the built CLI, in its own process)', async () => {
    google.property(SITE, [account.clientEmail]);
    const args = [
      'submit',
      '--engine',
      'google',
      '--site',
      SITE,
      '--google-api-root',
      google.url,
      '--sitemap',
      `${SITE}x.xml`,
    ];
    const r = await runBin(args, { env: { GOOGLE_APPLICATION_CREDENTIALS: key }, limitMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const none = await runBin(args, { env: { GOOGLE_APPLICATION_CREDENTIALS: '' }, limitMs: 60_000 });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--engine google needs --credentials FILE');
  });
});

describe('sitemapkit submit --engine indexnow --engine google: one command after a deploy', () => {
  const KEY = '0123456789abcdef0123456789abcdef';

  it('runs both; a refusal by one leaves the other done; a usage error in either sends nothing', async () => {
    const engine = await startEngine();
    const site = await startServer({ [`/${KEY}.txt`]: text(KEY) }, { keepAlive: false });
    try {
      const out = join(dir, 'both');
      await writeSitemaps([{ loc: `${site.url}a` }, { loc: `${site.url}b` }], {
        outDir: out,
        baseUrl: site.url,
      });
      const args = (siteFlag: string, credentials: string): string[] => [
        'submit',
        '--engine',
        'indexnow,google',
        '--indexnow',
        `${engine.origin}/indexnow`,
        '--key',
        KEY,
        '--site',
        siteFlag,
        '--credentials',
        credentials,
        '--google-api-root',
        google.url,
        '--sitemap',
        out,
      ];
      google.property(site.url, [account.clientEmail]);
      const ok = await cli(args(site.url, key));
      expect(ok.code, ok.stderr).toBe(0);
      expect(engine.posts.flatMap((p) => p.urlList)).toEqual([`${site.url}a`, `${site.url}b`]);
      expect([...google.properties.get(site.url)!.sitemaps.keys()]).toEqual([`${site.url}sitemap.xml`]);

      engine.posts.length = 0;
      google.properties.get(site.url)!.users.clear();
      const refused = await cli(args(site.url, key));
      expect(refused.code).toBe(1);
      expect(engine.posts.flatMap((p) => p.urlList)).toHaveLength(2);
      expect(refused.stderr).toContain(`add ${account.clientEmail} as a user`);

      engine.posts.length = 0;
      const before = google.requests.length;
      const usage = await cli(args('www.example.com', key));
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--site: site "www.example.com" is neither a URL nor sc-domain:DOMAIN');
      const missing = await cli(args(site.url, join(dir, 'no-such-key.json')));
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('no-such-key.json');
      expect(engine.posts).toEqual([]);
      expect(google.requests.length).toBe(before);
    } finally {
      await Promise.all([engine.close(), site.close()]);
    }
  });

  it('with --since, the children whose bytes differ from the previous build are the changed ones', async () => {
    google.property(SITE, [account.clientEmail]);
    const prev = join(dir, 'prev');
    const next = join(dir, 'next');
    await build(prev, ['a', 'b', 'c', 'd']);
    await build(next, ['a', 'b', 'c', 'x']);
    const r = await cli(['submit', ...base(), '--sitemap', next, '--since', prev]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `submitted ${SITE}sitemap.xml (entry point)\nsubmitted ${SITE}sitemap-00002.xml (changed)\n` +
        `2 sitemap(s) submitted to Google for ${SITE}, 0 failed\n`,
    );
  });
});

describe('sitemapkit status --engine google', () => {
  const seed = (): void => {
    const p = google.property(SITE, [account.clientEmail]);
    p.sitemaps.set(`${SITE}sitemap.xml`, {
      path: `${SITE}sitemap.xml`,
      lastSubmitted: '2026-11-20T10:00:00.000Z',
      lastDownloaded: '2026-11-21T08:30:00.000Z',
      isPending: false,
      isSitemapsIndex: true,
      type: 'sitemap',
      warnings: '0',
      errors: '0',
      contents: [{ type: 'web', submitted: '1200', indexed: '1100' }],
    });
    p.pages.set(`${SITE}a`, {
      verdict: 'PASS',
      coverageState: 'Submitted and indexed',
      lastCrawlTime: '2026-11-24T03:00:00Z',
      googleCanonical: `${SITE}a`,
      userCanonical: `${SITE}a`,
    });
  };

  it('shows each sitemap as a block and never the deprecated indexed figure', async () => {
    seed();
    const r = await cli(['status', ...engine()]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `Google Search Console, ${SITE}: 1 sitemap(s)\n\n` +
        `${SITE}sitemap.xml\n` +
        '  last submitted   2026-11-20T10:00:00.000Z\n' +
        '  last downloaded  2026-11-21T08:30:00.000Z\n' +
        '  pending          no\n' +
        '  sitemap index    yes\n' +
        '  errors           0\n' +
        '  warnings         0\n' +
        '  submitted        web 1,200\n',
    );
    expect(r.stdout).not.toContain('1,100');
  });

  it('--json prints { "sitemaps": [...] } with the API field names', async () => {
    seed();
    const r = await cli(['status', ...engine(), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      sitemaps: [
        {
          path: `${SITE}sitemap.xml`,
          lastSubmitted: '2026-11-20T10:00:00.000Z',
          lastDownloaded: '2026-11-21T08:30:00.000Z',
          isPending: false,
          isSitemapsIndex: true,
          type: 'sitemap',
          errors: 0,
          warnings: 0,
          contents: [{ type: 'web', submitted: 1200 }],
        },
      ],
    });
  });

  it('a sitemap Google does not know exits 1 and is named', async () => {
    seed();
    const r = await cli(['status', ...engine(), '--sitemap', `${SITE}other.xml`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`unknown   ${SITE}other.xml: Google does not know this sitemap`);
    expect(r.stdout).toBe(`Google Search Console, ${SITE}: 0 sitemap(s)\n`);
  });

  it('--inspect prints the verdict per page; a page not indexed exits 1', async () => {
    seed();
    const ok = await cli(['status', ...engine(), '--inspect', `${SITE}a`]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(
      `\nPASS      ${SITE}a\n  Submitted and indexed · last crawl 2026-11-24T03:00:00Z · canonical ${SITE}a\n`,
    );
    const r = await cli(['status', ...engine(), '--inspect', `${SITE}a`, `${SITE}b`, '--json']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as {
      inspections: Array<{ inspectionUrl: string; indexStatusResult: { verdict: string } }>;
    };
    expect(j.inspections.map((i) => [i.inspectionUrl, i.indexStatusResult.verdict])).toEqual([
      [`${SITE}a`, 'PASS'],
      [`${SITE}b`, 'NEUTRAL'],
    ]);
  });

  it('--inspect-sample draws pages from a build, and stops at the quota, naming what was not inspected', async () => {
    seed();
    const out = join(dir, 'sample');
    await build(out, ['a', 'b', 'c']);
    const all = await cli(['status', ...engine(), '--sitemap', out, '--inspect-sample', '10', '--json']);
    const j = JSON.parse(all.stdout) as { inspections: Array<{ inspectionUrl: string }>; unknown: string[] };
    expect(j.inspections.map((i) => i.inspectionUrl)).toEqual([`${SITE}a`, `${SITE}b`, `${SITE}c`]);
    expect(j.unknown).toBeUndefined();
    google.requests.length = 0;
    google.queue.push({ status: 200, body: '{"sitemap":[]}' }); // the list
    google.queue.push({ status: 200, body: '{"inspectionResult":{"indexStatusResult":{"verdict":"PASS"}}}' });
    google.queue.push({ status: 429, headers: { 'retry-after': '86400' } });
    const r = await cli(['status', ...engine(), '--inspect', `${SITE}a`, `${SITE}b`, `${SITE}c`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`not inspected ${SITE}b: Google's quota ran out`));
    expect(r.stderr).toContain(`not inspected ${SITE}c:`);
    expect(google.requests.filter((x) => x.path.includes('inspect')).length).toBe(2);
    const tooMany = await cli(['status', ...engine(), '--inspect-sample', '2001']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('--inspect-sample needs a whole number from 1 to 2,000');
  });
});

describe('secrets and interrupts', () => {
  it('no output of submit or status, in any mode, holds the private key, a signed assertion or an access token', async () => {
    google.property(SITE, [account.clientEmail]);
    const outputs: string[] = [];
    const run = async (args: string[]): Promise<void> => {
      const r = await cli(args);
      outputs.push(r.stdout, r.stderr);
    };
    await run(['submit', ...base(), '--sitemap', `${SITE}a.xml`]);
    await run(['submit', ...base(), '--sitemap', `${SITE}a.xml`, '--json']);
    await run(['submit', ...base(), '--sitemap', `${SITE}a.xml`, '--dry-run']);
    await run(['submit', ...base(), '--sitemap', `${SITE}a.xml`, '--dry-run', '--json']);
    google.queue.push({ status: 403 });
    await run(['submit', ...base(), '--sitemap', `${SITE}a.xml`, '--json']);
    await run(['status', ...engine(), '--inspect', `${SITE}a`]);
    await run(['status', ...engine(), '--json', '--inspect', `${SITE}a`]);
    google.tokens.clear();
    google.queue.push({ status: 401 }, { status: 401 });
    await run(['status', ...engine()]);
    const assertions = google.bodies
      .filter((b) => b.startsWith('grant_type='))
      .map((b) => new URLSearchParams(b).get('assertion')!);
    expect(assertions.length).toBeGreaterThan(0);
    expect(google.issued).toBeGreaterThan(0);
    const all = outputs.join('\n');
    const pem = account.keyFile('x')['private_key']!;
    const keyBody = pem.split('\n')[5]!; // a line from the middle of the key
    expect(all).not.toContain(keyBody);
    for (const a of assertions) expect(all).not.toContain(a.split('.')[2]);
    expect(all).not.toMatch(/ya29\.test-/);
  });

  it('Ctrl-C while waiting out a Retry-After ends the run at once with 130, reporting nothing as submitted', async () => {
    google.property(SITE, [account.clientEmail]);
    google.queue.push({ status: 503, headers: { 'retry-after': '300' } });
    const child = spawn(process.execPath, [BIN, 'submit', ...base(), '--sitemap', `${SITE}wait.xml`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const ended = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    // The crash window, hit on purpose: the 503 has been answered, so the run is in its wait.
    while (!google.requests.some((r) => r.method === 'PUT' && r.status === 503)) {
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGINT');
    const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await ended;
    clearTimeout(kill);
    expect(code).toBe(130);
    expect(stderr).toContain('interrupted');
    expect(stderr).not.toContain('submitted');
    expect(google.properties.get(SITE)!.sitemaps.size).toBe(0);
  });
});
