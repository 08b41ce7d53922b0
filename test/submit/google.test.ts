import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { type GoogleOptions, openSearchConsole } from '../../src/submit/google/client.js';
import { serviceAccountFrom } from '../../src/submit/google/credentials.js';
import { GoogleApiError } from '../../src/submit/google/errors.js';
import type { GoogleRequest } from '../../src/submit/google/exchange.js';
import { checkSite } from '../../src/submit/google/site.js';
import { type GoogleFake, startGoogleFake, type TestAccount, testAccount } from '../support/google-fake.js';

const SITE = 'https://www.example.com/';
const DOMAIN = 'sc-domain:example.com';
const dir = mkdtempSync(join(tmpdir(), 'sitemapkit-google-'));
let account: TestAccount;
let google: GoogleFake;
let keyPath: string;
const sleeps: number[] = [];

beforeAll(async () => {
  account = testAccount();
  google = await startGoogleFake(account);
  keyPath = join(dir, 'key.json');
  writeFileSync(keyPath, JSON.stringify(account.keyFile(`${google.origin}/token`)));
});
afterAll(() => google.close());
beforeEach(() => {
  google.properties.clear();
  google.tokens.clear();
  google.queue.length = 0;
  google.tokenQueue.length = 0;
  google.issued = 0;
  google.expiresIn = 3599;
  google.nowMs = Date.now();
  google.requests.length = 0;
  sleeps.length = 0;
});

function options(extra: Partial<GoogleOptions> = {}): GoogleOptions {
  return {
    site: SITE,
    credentials: keyPath,
    apiRoot: google.url,
    now: () => google.nowMs,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  };
}

describe('Google Search Console: submitting sitemaps', () => {
  it('signs a JWT the token endpoint verifies, submits with the token, and reuses it while it is valid', async () => {
    google.property(SITE, [account.clientEmail]);
    const gsc = await openSearchConsole(options());
    try {
      const a = await gsc.submitSitemap(`${SITE}sitemap.xml`);
      const b = await gsc.submitSitemap(`${SITE}sitemap-2.xml`);
      expect([a.status, b.status]).toEqual(['submitted', 'submitted']);
      expect(a.httpStatus).toBe(200);
      expect(google.issued).toBe(1);
      expect(gsc.tokensObtained).toBe(1);
      const puts = google.requests.filter((r) => r.method === 'PUT');
      expect(puts.map((r) => r.path)).toEqual([
        `/webmasters/v3/sites/${encodeURIComponent(SITE)}/sitemaps/${encodeURIComponent(`${SITE}sitemap.xml`)}`,
        `/webmasters/v3/sites/${encodeURIComponent(SITE)}/sitemaps/${encodeURIComponent(`${SITE}sitemap-2.xml`)}`,
      ]);
      expect(puts[0]!.headers.authorization).toMatch(/^Bearer ya29\.test-1-/);
      expect([...google.properties.get(SITE)!.sitemaps.keys()]).toEqual([
        `${SITE}sitemap.xml`,
        `${SITE}sitemap-2.xml`,
      ]);
    } finally {
      await gsc.close();
    }
  });

  it('asks for a new token once the cached one is about to expire, and after Google refuses one (401)', async () => {
    google.property(SITE, [account.clientEmail]);
    google.expiresIn = 600;
    const gsc = await openSearchConsole(options());
    try {
      await gsc.submitSitemap(`${SITE}a.xml`);
      google.nowMs += 500_000; // 100 s left: still more than the margin
      await gsc.submitSitemap(`${SITE}b.xml`);
      expect(google.issued).toBe(1);
      google.nowMs += 60_000; // 40 s left: inside the margin
      await gsc.submitSitemap(`${SITE}c.xml`);
      expect(google.issued).toBe(2);
      google.tokens.clear(); // revoked behind the client's back
      const r = await gsc.submitSitemap(`${SITE}d.xml`);
      expect(r.status).toBe('submitted');
      expect(google.issued).toBe(3);
    } finally {
      await gsc.close();
    }
  });

  it('403 names the e-mail address to add and says the property may not exist as given', async () => {
    google.property(SITE, ['someone-else@example.com']);
    const gsc = await openSearchConsole(options());
    try {
      const r = await gsc.submitSitemap(`${SITE}sitemap.xml`);
      expect(r.status).toBe('failed');
      expect(r.httpStatus).toBe(403);
      expect(r.error).toBeInstanceOf(GoogleApiError);
      expect(r.error!.kind).toBe('forbidden');
      expect(r.error!.code).toBe('ERR_GOOGLE');
      expect(r.message).toContain(`add ${account.clientEmail} as a user of the property ${SITE}`);
      expect(r.message).toContain('check that the property exists exactly as given');
      expect(r.message).toContain('User does not have sufficient permission');
      // Same answer for a property Search Console does not have.
      const gsc2 = await openSearchConsole(options({ site: 'https://example.org/' }));
      const r2 = await gsc2.submitSitemap('https://example.org/sitemap.xml');
      await gsc2.close();
      expect(r2.error!.kind).toBe('forbidden');
    } finally {
      await gsc.close();
    }
  });

  it('429 waits as Retry-After says and tries again; 500 gives up after the retries as a failed result', async () => {
    google.property(SITE, [account.clientEmail]);
    const gsc = await openSearchConsole(options({ retries: 2, backoffMs: 10 }));
    try {
      google.queue.push({ status: 429, headers: { 'retry-after': '7' } });
      const ok = await gsc.submitSitemap(`${SITE}sitemap.xml`);
      expect(ok.status).toBe('submitted');
      expect(ok.attempts).toBe(2);
      expect(sleeps).toEqual([7000]);
      sleeps.length = 0;
      for (let i = 0; i < 3; i++) google.queue.push({ status: 500 });
      const bad = await gsc.submitSitemap(`${SITE}sitemap.xml`);
      expect(bad.status).toBe('failed');
      expect(bad.error!.kind).toBe('server');
      expect(bad.attempts).toBe(3);
      expect(bad.message).toMatch(
        /Google's server failed .* \(HTTP 500: queued answer; gave up after 3 attempts\)/,
      );
      expect(sleeps).toEqual([10, 20]);
      // A Retry-After past the limit is not waited for.
      google.queue.push({ status: 429, headers: { 'retry-after': '86400' } });
      const quota = await gsc.submitSitemap(`${SITE}sitemap.xml`);
      expect(quota.error!.kind).toBe('rate-limited');
      expect(quota.message).toContain('Google asks to wait 86400 s (Retry-After), longer than allowed');
    } finally {
      await gsc.close();
    }
  });

  it('takes a domain property (sc-domain:) and refuses sitemaps outside the property without a request', async () => {
    google.property(DOMAIN, [account.clientEmail]);
    const gsc = await openSearchConsole(options({ site: 'sc-domain:Example.com' }));
    try {
      expect(gsc.site).toBe(DOMAIN);
      const r = await gsc.submitSitemap('http://shop.example.com/sitemap.xml');
      expect(r.status).toBe('submitted');
      expect(google.requests.at(-1)!.path).toContain('/sites/sc-domain%3Aexample.com/sitemaps/');
      const before = google.requests.length;
      const out = await gsc.submitSitemap('https://www.example.org/sitemap.xml');
      expect(out.status).toBe('failed');
      expect(out.message).toBe(
        'https://www.example.org/sitemap.xml is not in the domain property sc-domain:example.com',
      );
      expect(google.requests.length).toBe(before);
    } finally {
      await gsc.close();
    }
  });

  it('a key the token endpoint does not accept stops the run with a sentence that shows no secret', async () => {
    const other = testAccount(account.clientEmail); // same e-mail, another key
    const wrong = join(dir, 'wrong.json');
    writeFileSync(wrong, JSON.stringify(other.keyFile(`${google.origin}/token`)));
    google.property(SITE, [account.clientEmail]);
    const gsc = await openSearchConsole(options({ credentials: wrong }));
    try {
      const e = await gsc.submitSitemap(`${SITE}sitemap.xml`).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(GoogleApiError);
      expect((e as GoogleApiError).kind).toBe('auth');
      expect((e as Error).message).toBe(
        `the token endpoint refused the service account ${account.clientEmail} (HTTP 400: Invalid JWT Signature.)`,
      );
      expect((e as GoogleApiError).where).toBe(`${google.origin}/token`);
      expect(JSON.stringify(e)).not.toMatch(/PRIVATE KEY|eyJ/);
    } finally {
      await gsc.close();
    }
  });

  it('a dry run sends nothing and shows each request with the assertion and the token redacted', async () => {
    const seen: GoogleRequest[] = [];
    const gsc = await openSearchConsole(options({ dryRun: true, onRequest: (r) => seen.push(r) }));
    try {
      const r = await gsc.submitSitemap(`${SITE}sitemap.xml`);
      expect(r.status).toBe('dry-run');
      expect(google.requests).toEqual([]);
      expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
        `POST ${google.origin}/token`,
        `PUT ${gsc.sitemapsUrl(`${SITE}sitemap.xml`)}`,
      ]);
      expect(seen[0]!.body).toBe(
        'grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=[redacted]',
      );
      expect(seen[1]!.headers['authorization']).toBe('Bearer [redacted]');
    } finally {
      await gsc.close();
    }
  });
});

describe('Google Search Console: requests and tokens', () => {
  it('any sitemap URL reaches the API as the very string given, for either kind of property (a property)', async () => {
    google.property(SITE, [account.clientEmail]);
    google.property(DOMAIN, [account.clientEmail]);
    const prefix = await openSearchConsole(options());
    const domain = await openSearchConsole(options({ site: DOMAIN }));
    const segment = fc.string({
      unit: fc.constantFrom(
        'a',
        'Z',
        '0',
        '-',
        '_',
        '.',
        '~',
        '%',
        '?',
        '=',
        '&',
        '+',
        ' ',
        'é',
        '/',
        ':',
        '#',
        ';',
      ),
      minLength: 1,
      maxLength: 12,
    });
    try {
      await fc.assert(
        fc.asyncProperty(segment, fc.boolean(), async (tail, useDomain) => {
          const sitemap = `${useDomain ? 'http://shop.example.com/' : SITE}x${tail}.xml`;
          const r = await (useDomain ? domain : prefix).submitSitemap(sitemap);
          expect(r.status, sitemap).toBe('submitted');
          expect(google.properties.get(useDomain ? DOMAIN : SITE)!.sitemaps.has(sitemap), sitemap).toBe(true);
        }),
        { numRuns: 40 },
      );
      expect(google.issued).toBe(2); // one token per client, however many calls
    } finally {
      await prefix.close();
      await domain.close();
    }
  });

  it('concurrent calls share one token request; a 401 after a renewal is a failed result that says so', async () => {
    google.property(SITE, [account.clientEmail]);
    const gsc = await openSearchConsole(options());
    try {
      const all = await Promise.all([1, 2, 3, 4].map((i) => gsc.submitSitemap(`${SITE}s${i}.xml`)));
      expect(all.map((r) => r.status)).toEqual(['submitted', 'submitted', 'submitted', 'submitted']);
      expect(google.issued).toBe(1);
      google.queue.push({ status: 401 }, { status: 401 });
      const r = await gsc.submitSitemap(`${SITE}s5.xml`);
      expect(r.status).toBe('failed');
      expect(r.error!.kind).toBe('unauthenticated');
      expect(r.message).toContain(`Google did not accept the access token of ${account.clientEmail}`);
      expect(google.issued).toBe(2);
    } finally {
      await gsc.close();
    }
  });

  it('an unknown host is not retried: the run stops at once with a sentence', async () => {
    const key = account.keyFile('http://token.invalid/token');
    const gsc = await openSearchConsole(options({ credentials: key as never }));
    try {
      const e = (await gsc.submitSitemap(`${SITE}sitemap.xml`).catch((x: unknown) => x)) as GoogleApiError;
      expect(e.kind).toBe('network');
      expect(e.message).toMatch(
        /^no answer from Google while getting an access token for \S+ \(network error: (ENOTFOUND|EAI_AGAIN)\)$/,
      );
      expect(sleeps).toEqual([]);
    } finally {
      await gsc.close();
    }
  });

  it('a parsed key file is checked like a file: an EC key is refused, as Google signs with RS256', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    expect(() =>
      serviceAccountFrom({ client_email: 'a@b.iam.gserviceaccount.com', private_key: ec }, 'credentials'),
    ).toThrow('credentials: its private_key is not an RSA key (Google signs with RS256)');
  });
});

describe('Google Search Console: status and inspection', () => {
  it('lists and gets sitemaps with the API field names, counts as numbers, without the deprecated indexed', async () => {
    const p = google.property(SITE, [account.clientEmail]);
    const gsc = await openSearchConsole(options());
    try {
      expect(await gsc.listSitemaps()).toEqual([]);
      p.sitemaps.set(`${SITE}sitemap.xml`, {
        path: `${SITE}sitemap.xml`,
        lastSubmitted: '2026-11-20T10:00:00.000Z',
        lastDownloaded: '2026-11-21T08:30:00.000Z',
        isPending: false,
        isSitemapsIndex: true,
        type: 'sitemap',
        warnings: '2',
        errors: '1',
        contents: [
          { type: 'web', submitted: '1200', indexed: '0' },
          { type: 'image', submitted: '300', indexed: '0' },
        ],
      });
      const expected = {
        path: `${SITE}sitemap.xml`,
        lastSubmitted: '2026-11-20T10:00:00.000Z',
        lastDownloaded: '2026-11-21T08:30:00.000Z',
        isPending: false,
        isSitemapsIndex: true,
        type: 'sitemap',
        errors: 1,
        warnings: 2,
        contents: [
          { type: 'web', submitted: 1200 },
          { type: 'image', submitted: 300 },
        ],
      };
      expect(await gsc.listSitemaps()).toEqual([expected]);
      expect(await gsc.getSitemap(`${SITE}sitemap.xml`)).toEqual(expected);
    } finally {
      await gsc.close();
    }
  });

  it('404 names the sitemap Google does not know', async () => {
    google.property(SITE, [account.clientEmail]);
    const gsc = await openSearchConsole(options());
    try {
      const e = (await gsc.getSitemap(`${SITE}nope.xml`).catch((x: unknown) => x)) as GoogleApiError;
      expect(e.kind).toBe('not-found');
      expect(e.message).toBe(
        `Google does not know the sitemap ${SITE}nope.xml in ${SITE} (HTTP 404: Requested entity was not found.)`,
      );
      expect(e.hint).toContain('sitemapkit submit --engine google');
    } finally {
      await gsc.close();
    }
  });

  it('inspects a page: the verdict, the coverage, the last crawl and the canonical Google chose', async () => {
    const p = google.property(SITE, [account.clientEmail]);
    p.pages.set(`${SITE}a`, {
      verdict: 'PASS',
      coverageState: 'Submitted and indexed',
      lastCrawlTime: '2026-11-24T03:00:00Z',
      googleCanonical: `${SITE}a`,
      userCanonical: `${SITE}a`,
      sitemap: [`${SITE}sitemap.xml`],
    });
    const gsc = await openSearchConsole(options({ languageCode: 'de-CH' }));
    try {
      const a = await gsc.inspectUrl(`${SITE}a`);
      expect(a.indexStatusResult).toMatchObject({ verdict: 'PASS', googleCanonical: `${SITE}a` });
      expect(a.inspectionResultLink).toMatch(/^https:\/\/search\.google\.com\//);
      expect(JSON.parse(google.bodies.at(-1)!)).toEqual({
        inspectionUrl: `${SITE}a`,
        siteUrl: SITE,
        languageCode: 'de-CH',
      });
      const b = await gsc.inspectUrl(`${SITE}b`);
      expect(b.indexStatusResult.coverageState).toBe('URL is unknown to Google');
      google.queue.push({ status: 429, headers: { 'retry-after': '999999' } });
      const e = (await gsc.inspectUrl(`${SITE}c`).catch((x: unknown) => x)) as GoogleApiError;
      expect(e.kind).toBe('rate-limited');
    } finally {
      await gsc.close();
    }
  });
});

describe('Google Search Console: options and key files', () => {
  it('refuses a property that is not one, and a key file that is not a service account key, in one sentence', async () => {
    expect(checkSite('https://www.example.com')).toBe(SITE);
    for (const bad of ['www.example.com', 'https://www.example.com/blog', 'sc-domain:', 'ftp://x.com/']) {
      expect(() => checkSite(bad), bad).toThrow(expect.objectContaining({ code: 'ERR_OPTIONS' }));
    }
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, 'hello');
    const noKey = join(dir, 'nokey.json');
    writeFileSync(noKey, JSON.stringify({ type: 'service_account', client_email: 'a@b.c' }));
    const user = join(dir, 'user.json');
    writeFileSync(user, JSON.stringify({ type: 'authorized_user' }));
    const cases: Array<[string, string]> = [
      [notJson, `${notJson} is not JSON, so not a service account key file`],
      [noKey, `${noKey} has no private_key (a PEM "-----BEGIN PRIVATE KEY-----" block)`],
      [user, `${user} is a "authorized_user" credentials file, not a service account key file`],
      [
        join(dir, 'missing.json'),
        `cannot read the service account key file ${join(dir, 'missing.json')}: no such file`,
      ],
    ];
    for (const [path, message] of cases) {
      const e = await openSearchConsole(options({ credentials: path })).catch((x: unknown) => x);
      expect(isSitemapkitError(e, 'ERR_INPUT'), path).toBe(true);
      expect((e as Error).message).toBe(message);
    }
  });
});
