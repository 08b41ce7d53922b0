// The address policy in a crawl, over real loopback servers: 127.0.0.2 plays a public address (an
// injected classifier), 127.0.0.1 is what it is. A crawl that starts public does not follow a link
// or a redirect to a private address (the URL is recorded as refused, with a warning); a crawl
// that starts on localhost crawls it; strict mode refuses even that start.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { crawl } from '../../src/crawler/crawl.js';
import type { CrawlOptions } from '../../src/crawler/options.js';
import { type AddressKind, classifyAddress, HttpClient } from '../../src/http/index.js';
import { cli } from '../support/cli.js';
import { html, startServer, type TestServer, text } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const servers: TestServer[] = [];
const clients: HttpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** 127.0.0.2 is "public"; everything else as the built-in classifier says. */
const playPublic = (address: string): AddressKind =>
  address === '127.0.0.2' ? 'public' : classifyAddress(address);

const ALLOW = text('User-agent: *\nAllow: /\n');

/** A private site on 127.0.0.1 and a "public" one on 127.0.0.2 that links and redirects to it. */
async function sites(): Promise<{ inside: TestServer; outside: TestServer }> {
  const inside = await startServer({
    '/robots.txt': ALLOW,
    '/': html('Inside', '<a href="/admin">admin</a>'),
    '/admin': html('Admin'),
    '/metadata': html('Metadata'),
  });
  servers.push(inside);
  const outside = await startServer(
    {
      '/robots.txt': ALLOW,
      '/': html(
        'Outside',
        `<a href="${inside.origin}/admin">admin</a><a href="/moved">moved</a><a href="/about">about</a>`,
      ),
      '/moved': { status: 302, headers: { location: `${inside.origin}/metadata` } },
      '/about': html('About'),
    },
    { host: '127.0.0.2' },
  );
  servers.push(outside);
  return { inside, outside };
}

function rows(dir: string): Map<string, Record<string, unknown>> {
  const lines = readFileSync(join(dir, 'report', 'urls.jsonl'), 'utf8')
    .trim()
    .split('\n');
  return new Map(
    lines.map((l) => {
      const r = JSON.parse(l) as Record<string, unknown>;
      return [r['url'] as string, r];
    }),
  );
}

function run(
  start: string,
  extra: Partial<CrawlOptions>,
): { options: CrawlOptions; dir: string; diagnostics: Diagnostic[] } {
  const dir = tempDir('sk-crawl-address');
  const diagnostics: Diagnostic[] = [];
  return {
    dir,
    diagnostics,
    options: {
      start,
      outDir: join(dir, 'out'),
      state: join(dir, 'state.db'),
      report: join(dir, 'report'),
      retryBaseMs: 1,
      onDiagnostic: (d) => diagnostics.push(d),
      ...extra,
    },
  };
}

function client(o: ConstructorParameters<typeof HttpClient>[0] = {}): HttpClient {
  const c = new HttpClient({ classifyAddress: playPublic, ...o });
  clients.push(c);
  return c;
}

describe('the address policy in a crawl', () => {
  it('a public start does not follow a link or a redirect to 127.0.0.1: the URLs are refused, with a warning', async () => {
    const { inside, outside } = await sites();
    const { options, dir, diagnostics } = run(`${outside.origin}/`, {
      hosts: [`127.0.0.1:${inside.port}`],
      httpClient: client(),
    });
    const result = await crawl(options);
    expect(inside.requests).toEqual([]);
    const r = rows(dir);
    expect(r.get(`${outside.origin}/about`)?.['verdict']).toBe('listed');
    expect(r.get(`${outside.origin}/moved`)?.['verdict']).toBe('redirect');
    for (const path of ['/admin', '/metadata']) {
      const row = r.get(`${inside.origin}${path}`);
      expect(row?.['verdict']).toBe('error');
      expect(row?.['reason']).toMatch(/address refused: .*127\.0\.0\.1.*started at a public address/);
    }
    const refused = diagnostics.filter((d) => d.code === 'crawl-address-refused');
    expect(refused.map((d) => d.url).sort()).toEqual([`${inside.origin}/admin`, `${inside.origin}/metadata`]);
    expect(diagnostics.filter((d) => d.code === 'robots-unreachable')).toEqual([]);
    expect(result.stats.listed).toBe(2);
  });

  it('without robots.txt, the page request itself is refused, once (a refused address is not retried)', async () => {
    const { inside, outside } = await sites();
    const { options, dir, diagnostics } = run(`${outside.origin}/`, {
      hosts: [`127.0.0.1:${inside.port}`],
      robots: false,
      retries: 3,
      httpClient: client(),
    });
    await crawl(options);
    expect(inside.requests).toEqual([]);
    const row = rows(dir).get(`${inside.origin}/admin`);
    expect(row?.['verdict']).toBe('error');
    expect(row?.['attempts']).toBe(1);
    expect(row?.['reason']).toMatch(/address refused/);
    expect(diagnostics.filter((d) => d.code === 'crawl-address-refused')).toHaveLength(2);
  });

  it('with the policy off, the same crawl reaches 127.0.0.1', async () => {
    const { inside, outside } = await sites();
    const { options, dir } = run(`${outside.origin}/`, {
      hosts: [`127.0.0.1:${inside.port}`],
      httpClient: client({ addressPolicy: 'off' }),
    });
    await crawl(options);
    const r = rows(dir);
    expect(r.get(`${inside.origin}/admin`)?.['verdict']).toBe('listed');
    expect(r.get(`${inside.origin}/metadata`)?.['verdict']).toBe('listed');
  });

  it('a start on 127.0.0.1 crawls normally (the crawl’s own client, default policy)', async () => {
    const { inside } = await sites();
    const { options, dir, diagnostics } = run(`${inside.origin}/`, {});
    const result = await crawl(options);
    expect(result.stats.listed).toBe(2);
    expect(rows(dir).get(`${inside.origin}/admin`)?.['verdict']).toBe('listed');
    expect(diagnostics.filter((d) => d.code === 'crawl-address-refused')).toEqual([]);
  });

  it('strict mode refuses a start on 127.0.0.1: nothing is crawled, and the error names the policy', async () => {
    const { inside } = await sites();
    const { options } = run(`${inside.origin}/`, { addressPolicy: 'strict' });
    const error = await crawl(options).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSitemapkitError(error) && error.code).toBe('ERR_HTTP');
    expect(String((error as Error).message)).toMatch(/refused in strict mode: nothing was crawled/);
    expect(inside.requests).toEqual([]);
  });

  it('the CLI takes --strict-addresses and --allow-private-addresses, not both', async () => {
    const { inside } = await sites();
    const dir = tempDir('sk-crawl-address-cli');
    const strict = await cli([
      'crawl',
      `${inside.origin}/`,
      '--out',
      join(dir, 'out'),
      '--state',
      join(dir, 'state.db'),
      '--no-report',
      '--strict-addresses',
    ]);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/refused in strict mode/);
    expect(inside.requests).toEqual([]);
    const both = await cli([
      'crawl',
      `${inside.origin}/`,
      '--out',
      join(dir, 'out'),
      '--allow-private-addresses',
      '--strict-addresses',
    ]);
    expect(both.stderr).toMatch(/contradict each other/);
    expect(both.code).not.toBe(0);
  });
});
