/**
 * What the CLI says, in every mode: all diagnostics in text and JSON (capped, with a count of the
 * rest), an optional-value option that never swallows an input, the CLI's own words for options,
 * and help texts without noise.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { unswallow } from '../../src/cli/flags.js';
import { reportFailure } from '../../src/cli/main.js';
import { cliWords } from '../../src/cli/words.js';
import { SitemapkitError } from '../../src/core/errors.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const BASE = 'https://example.com/';

function invalidList(dir: string, bad: number): string {
  const path = join(dir, 'urls.txt');
  const lines = [`${BASE}ok`];
  for (let i = 0; i < bad; i++) lines.push(`relative/${i}`);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('generate reports every diagnostic, in text and JSON (issue 11, defect 8)', () => {
  it('--json on failure: every diagnostic, not only the first', async () => {
    const dir = tempDir();
    const r = await cli([
      'generate',
      invalidList(dir, 3),
      '--base-url',
      BASE,
      '--out',
      join(dir, 'out'),
      '--json',
    ]);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as {
      ok: boolean;
      code: string;
      diagnostics: Array<{ code: string; line: number }>;
      diagnosticsOmitted: number;
    };
    expect(json.ok).toBe(false);
    expect(json.code).toBe('ERR_INVALID_ENTRY');
    expect(json.diagnostics.map((d) => [d.code, d.line])).toEqual([
      ['url-invalid', 2],
      ['url-invalid', 3],
      ['url-invalid', 4],
    ]);
    expect(json.diagnosticsOmitted).toBe(0);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('--json caps the list at 1,000 and counts the rest; text caps each code at 20 and counts the rest', async () => {
    const dir = tempDir();
    const list = invalidList(dir, 1005);
    const json = await cli(['generate', list, '--base-url', BASE, '--out', join(dir, 'out'), '--json']);
    const doc = JSON.parse(json.stdout) as { diagnostics: unknown[]; diagnosticsOmitted: number };
    expect(doc.diagnostics).toHaveLength(1000);
    expect(doc.diagnosticsOmitted).toBe(5);
    const text = await cli(['generate', list, '--base-url', BASE, '--out', join(dir, 'out')]);
    expect(text.code).toBe(1);
    expect(text.stderr.match(/error url-invalid/g)).toHaveLength(20);
    expect(text.stderr).toContain('... and 985 more url-invalid');
  });

  it('--json on success carries the diagnostics of the static-site reader too', async () => {
    const dir = tempDir();
    const site = join(dir, 'site');
    mkdirSync(site);
    writeFileSync(join(site, 'index.html'), '<title>Home</title>');
    writeFileSync(join(site, 'hidden.html'), '<meta name="robots" content="noindex"><title>Hidden</title>');
    const r = await cli([
      'generate',
      '--from-dir',
      site,
      '--base-url',
      BASE,
      '--out',
      join(dir, 'out'),
      '--json',
    ]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { diagnostics: Array<{ code: string }>; diagnosticsOmitted: number };
    expect(doc.diagnostics.length).toBeGreaterThan(0);
    expect(doc.diagnosticsOmitted).toBe(0);
  });
});

describe('an optional-value option never swallows an input (issue 11, defect 12)', () => {
  it('generate --xsl urls.txt: urls.txt stays an input, the bundled stylesheet is used, a note says so', async () => {
    const dir = tempDir();
    const list = join(dir, 'urls.txt');
    writeFileSync(list, `${BASE}\n${BASE}a\n`);
    const out = join(dir, 'out');
    const r = await cli(['generate', '--xsl', list, '--base-url', BASE, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /note: --xsl takes a stylesheet URL ending in \.xsl, and ".*urls\.txt" is not one/,
    );
    expect(r.stdout).toMatch(/Wrote 2 URLs/);
    expect(existsSync(join(out, 'sitemap.xsl'))).toBe(true);
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain('href="sitemap.xsl"');
  });

  it('a stylesheet URL, --xsl=VALUE, a flag or the end keep their meaning', () => {
    expect(unswallow(['generate', '--xsl', '/s.xsl', 'a.txt'])).toEqual({
      argv: ['generate', '--xsl', '/s.xsl', 'a.txt'],
      notes: [],
    });
    expect(unswallow(['generate', '--xsl=/style', 'a.txt']).notes).toEqual([]);
    expect(unswallow(['generate', 'a.txt', '--xsl', '--gzip']).notes).toEqual([]);
    expect(unswallow(['generate', 'a.txt', '--xsl']).notes).toEqual([]);
    // crawl: a start URL after --xsl stays a start URL.
    const crawl = unswallow(['crawl', '--xsl', 'https://example.com/', '--out', 'dist']);
    expect(crawl.argv).toEqual(['crawl', 'https://example.com/', '--out', 'dist', '--xsl']);
    expect(crawl.notes).toHaveLength(1);
    // Never moved past `--`.
    expect(unswallow(['generate', '--xsl', 'a.txt', '--', 'b.txt']).argv).toEqual([
      'generate',
      'a.txt',
      '--xsl',
      '--',
      'b.txt',
    ]);
  });

  it('a stylesheet on another origin is warned about (browsers refuse it)', async () => {
    const dir = tempDir();
    const list = join(dir, 'urls.txt');
    writeFileSync(list, `${BASE}\n`);
    const cdn = await cli([
      'generate',
      list,
      '--base-url',
      BASE,
      '--out',
      join(dir, 'a'),
      '--xsl',
      'https://cdn.example.net/s.xsl',
    ]);
    expect(cdn.code).toBe(0);
    expect(cdn.stderr).toMatch(/warning: --xsl https:\/\/cdn\.example\.net\/s\.xsl is on another origin/);
    const own = await cli([
      'generate',
      list,
      '--base-url',
      BASE,
      '--out',
      join(dir, 'b'),
      '--xsl',
      '/assets/s.xsl',
    ]);
    expect(own.stderr).not.toMatch(/another origin/);
  });
});

describe("the CLI's words", () => {
  it('library option names become flags; URLs, paths and quoted values are left alone', () => {
    expect(cliWords('maxUrlsPerFile must be a whole number from 1 to 50,000; leave maxUrlsPerFile out')).toBe(
      '--max-urls must be a whole number from 1 to 50,000; leave --max-urls out',
    );
    expect(cliWords('publicOrigin "ftp://x" is not http(s)')).toBe(
      '--public-origin "ftp://x" is not http(s)',
    );
    expect(cliWords('sitemaps.maxBytesPerFile and live.timeoutMs')).toBe('--max-bytes and --live-timeout');
    expect(cliWords('https://example.com/baseUrl "baseUrl" unknownName')).toBe(
      'https://example.com/baseUrl "baseUrl" unknownName',
    );
  });

  it('generate and crawl errors name the flag; --max-urls states the range it accepts', async () => {
    const bad = await cli([
      'generate',
      '-',
      '--input-format',
      'txt',
      '--base-url',
      'example.com',
      '--out',
      tempDir(),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^sitemapkit: --base-url "example\.com" must be an absolute http\(s\) URL/);
    const crawl = await cli([
      'crawl',
      'http://127.0.0.1:9/',
      '--out',
      tempDir(),
      '--public-origin',
      'ftp://x',
    ]);
    expect(crawl.code).toBe(2);
    expect(crawl.stderr).toMatch(/--public-origin "ftp:\/\/x"/);
    expect(crawl.stderr).not.toMatch(/publicOrigin/);
    for (const value of ['abc', '0', '50001']) {
      const r = await cli(['generate', '-', '--base-url', BASE, '--out', tempDir(), '--max-urls', value]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--max-urls needs a whole number from 1 to 50,000, not "${value}"`);
    }
  });
});

describe('help texts', () => {
  const commands = [
    ['generate'],
    ['parse'],
    ['validate'],
    ['crawl'],
    ['crawl-worker'],
    ['crawl-status'],
    ['robots', 'lint'],
    ['robots', 'check'],
    ['submit'],
    ['submit', 'key'],
    ['status'],
  ];

  it('no repeatable option shows "(default: [])"; --meta-agent shows one default', async () => {
    for (const c of commands) {
      const r = await cli([...c, '--help']);
      expect(r.code, c.join(' ')).toBe(0);
      expect(r.stdout, c.join(' ')).not.toMatch(/default: \[\]/);
    }
    const crawl = (await cli(['crawl', '--help'])).stdout;
    const meta = crawl.slice(crawl.indexOf('--meta-agent'), crawl.indexOf('--header'));
    expect(meta.match(/default/g)).toHaveLength(1);
  });

  it('submit --help has one "Commands:" section', async () => {
    const r = await cli(['submit', '--help']);
    expect(r.stdout.match(/^Commands:/gm)).toHaveLength(1);
  });
});

describe('the last resort of main.ts: one line for anything (issue 11, defect 1)', () => {
  function report(error: unknown, debug?: string): { code: number; text: string } {
    let text = '';
    const stderr = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString('utf8');
        done();
      },
    });
    const before = process.env['SITEMAPKIT_DEBUG'];
    if (debug === undefined) delete process.env['SITEMAPKIT_DEBUG'];
    else process.env['SITEMAPKIT_DEBUG'] = debug;
    try {
      // Writable.write calls write() synchronously while nothing is buffered.
      return { code: reportFailure(error, { stderr }), text };
    } finally {
      if (before === undefined) delete process.env['SITEMAPKIT_DEBUG'];
      else process.env['SITEMAPKIT_DEBUG'] = before;
    }
  }

  it('a bug: "internal error" and its message on one line, no stack; SITEMAPKIT_DEBUG=1 adds the stack', () => {
    const bug = new TypeError('Cannot read properties of undefined (reading "x")');
    const plain = report(bug);
    expect(plain.code).toBe(2);
    expect(plain.text.trimEnd().split('\n')).toHaveLength(1);
    expect(plain.text).toMatch(/^sitemapkit: internal error: Cannot read properties of undefined/);
    expect(plain.text).not.toMatch(/^\s+at /m);
    expect(report(bug, '1').text).toMatch(/^\s+at /m);
  });

  it('a system error no edge translated: worded from its system call, naming its path', () => {
    const e = Object.assign(new Error("EACCES: permission denied, open '/srv/x.txt'"), {
      code: 'EACCES',
      syscall: 'open',
      path: '/srv/x.txt',
    });
    const r = report(e);
    expect(r.code).toBe(2);
    expect(r.text).toMatch(
      /^sitemapkit: \/srv\/x\.txt: cannot open: permission denied \[ERR_INPUT\]\n {2}\S/,
    );
  });

  it('ERR_PARTIAL exits 1; ERR_ABORTED exits 130', () => {
    expect(report(new SitemapkitError('ERR_PARTIAL', 'the sitemaps are published, …')).code).toBe(1);
    expect(report(new SitemapkitError('ERR_ABORTED', 'aborted')).code).toBe(130);
  });
});
