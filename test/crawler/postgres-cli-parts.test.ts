/**
 * The parts of the shared crawl's CLI that need no crawl (issue 17): the command recorded for
 * crawl-worker (its JSON keeps every flag value, Infinity included; it round-trips through a real
 * PostgreSQL), the worst exit code of the workers, the default crawl id.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CrawlCommand,
  decodeCommand,
  encodeCommand,
  loadCrawlCommand,
  saveCrawlCommand,
  withDatabase,
} from '../../src/cli/crawl-commands.js';
import { worst } from '../../src/cli/crawl-workers.js';
import { crawlIdArg, defaultCrawlId } from '../../src/cli/shared-crawl.js';
import { usePostgres } from '../support/postgres.js';

const server = usePostgres();

const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.double(),
  fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
  fc.array(fc.oneof(fc.string(), fc.double({ noNaN: true })), { maxLength: 4 }),
);
const command: fc.Arbitrary<CrawlCommand> = fc.record({
  urls: fc.array(fc.webUrl(), { minLength: 1, maxLength: 3 }),
  flags: fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), value, { maxKeys: 8 }),
});

describe('the recorded crawl command', () => {
  it('every flag value survives the JSON (Infinity too, an unlimited --max-pages)', () => {
    fc.assert(
      fc.property(command, (c) => {
        expect(decodeCommand(encodeCommand(c))).toEqual(c);
      }),
    );
  });

  it('is saved, replaced and read back through PostgreSQL; an unknown id is undefined', async () => {
    const url = server().url;
    const one: CrawlCommand = { urls: ['https://example.com/'], flags: { maxPages: Infinity, out: 'dist' } };
    const two: CrawlCommand = { urls: ['https://example.com/'], flags: { maxPages: 10, include: ['/a*'] } };
    // Two first saves at once: the table is created once, neither fails.
    await Promise.all([
      withDatabase(url, (c) => saveCrawlCommand(c, 'a', one)),
      withDatabase(url, (c) => saveCrawlCommand(c, 'b', one)),
    ]);
    await withDatabase(url, (c) => saveCrawlCommand(c, 'b', two));
    expect(await withDatabase(url, (c) => loadCrawlCommand(c, 'a'))).toEqual(one);
    expect(await withDatabase(url, (c) => loadCrawlCommand(c, 'b'))).toEqual(two);
    expect(await withDatabase(url, (c) => loadCrawlCommand(c, 'none'))).toBeUndefined();
  });

  it('a database that cannot be reached is one sentence naming it and what to check', async () => {
    const e = await withDatabase('postgres://sk:secret@127.0.0.1:1/crawls', async () => 1).catch((x) => x);
    expect(e.code).toBe('ERR_STATE');
    expect(e.message).toBe('cannot connect to the database: the connection was refused');
    expect(e.where).toContain('127.0.0.1:1/crawls');
    expect(e.hint).toContain('--state');
    expect(`${e.message} ${e.where} ${e.hint}`).not.toContain('secret');
  });
});

describe('TLS settings, worded for --state', () => {
  it('sslmode=require (or PGSSLMODE) against a server without TLS; a certificate file that is missing', async () => {
    const url = server().url;
    const plain = await withDatabase(`${url}?sslmode=require`, async () => 1).catch((x) => x);
    expect(plain.message).toBe('cannot connect to the database: the server does not accept TLS connections');
    expect(plain.hint).toContain('Drop sslmode=require from --state');
    const env = process.env['PGSSLMODE'];
    process.env['PGSSLMODE'] = 'require';
    try {
      const viaEnv = await withDatabase(url, async () => 1).catch((x) => x);
      expect(viaEnv.message).toBe(
        'cannot connect to the database: the server does not accept TLS connections',
      );
    } finally {
      if (env === undefined) delete process.env['PGSSLMODE'];
      else process.env['PGSSLMODE'] = env;
    }
    const missing = await withDatabase(
      `${url}?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem`,
      async () => 1,
    ).catch((x) => x);
    expect(missing.message).toBe(
      'cannot read /nonexistent/ca.pem, a certificate or key file of the connection (no such file)',
    );
    expect(missing.hint).toContain('sslrootcert');
  });
});

describe('the workers', () => {
  it('the exit code is the worst of theirs: could not run, interrupted, findings, ok', () => {
    expect(worst([])).toBe(0);
    expect(worst([0, 0, 0])).toBe(0);
    expect(worst([0, 1, 0])).toBe(1);
    expect(worst([1, 130, 0])).toBe(130);
    expect(worst([130, 2, 1])).toBe(2);
    fc.assert(
      fc.property(fc.array(fc.constantFrom<number>(0, 1, 2, 130)), (codes) => {
        expect(worst(codes)).toBe(worst([...codes].reverse()));
        expect(codes.length === 0 || codes.includes(worst(codes))).toBe(true);
      }),
    );
  });

  it('the default crawl id is the start host (and port), a valid --crawl-id', () => {
    expect(defaultCrawlId('https://www.example.com/docs/')).toBe('www_example_com');
    expect(defaultCrawlId('http://127.0.0.1:8080/')).toBe('127_0_0_1_8080');
    expect(defaultCrawlId('http://[::1]:8080/')).toBe('1_8080');
    fc.assert(
      fc.property(fc.webUrl(), (u) => {
        expect(crawlIdArg(defaultCrawlId(u))).toBe(defaultCrawlId(u));
      }),
    );
  });
});
