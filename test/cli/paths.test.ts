/**
 * Every subcommand, walked through the paths a user gets wrong: missing, unreadable, the wrong
 * kind (a folder for a file, a file for a folder) and unwritable. Each must end in one sentence
 * naming the path (never a stack trace, never "internal error") and the documented exit code.
 *
 * Tests may run as root, where chmod does not stop reads or writes: there, unreadable and
 * unwritable are made in ways root cannot get past (a symbolic link loop, a path through a regular
 * file, /proc, whose files fail to read and which takes no new files). The chmod cases run as well
 * wherever chmod has an effect; which ones ran is part of each test's name.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, type CliRun, cli, runBin } from '../support/cli.js';
import { html, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const BASE = 'https://example.com/';
const root = tempDir('paths');
const file = join(root, 'file.txt');
const folder = join(root, 'folder');
const urls = join(root, 'urls.txt');
const sitemap = join(root, 'sitemap.xml');
const robots = join(root, 'robots.txt');
const missing = join(root, 'missing.txt');
const missingFolder = join(root, 'no-such-folder');
const loop = join(root, 'loop');
const throughFile = join(file, 'inside');
const LINUX = process.platform === 'linux';

writeFileSync(file, 'just a file\n');
mkdirSync(folder);
writeFileSync(urls, `${BASE}\n${BASE}a\n`);
writeFileSync(
  sitemap,
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${BASE}</loc></url></urlset>\n`,
);
writeFileSync(robots, 'User-agent: *\nAllow: /\n');
symlinkSync(loop, loop);

/** Whether chmod keeps this process out (it does not for root). */
function chmodBites(): boolean {
  const probe = join(root, 'probe');
  writeFileSync(probe, 'x');
  chmodSync(probe, 0o000);
  try {
    readFileSync(probe);
    return false;
  } catch {
    return true;
  }
}
const CHMOD = chmodBites();

/** Files no read gets through: [label, path]. */
const UNREADABLE: Array<[string, string]> = [
  ['a symbolic link loop (ELOOP)', loop],
  ['a path through a regular file (ENOTDIR)', throughFile],
];
if (LINUX) UNREADABLE.push(['/proc/self/mem (EIO)', '/proc/self/mem']);
if (CHMOD) {
  const locked = join(root, 'locked.txt');
  writeFileSync(locked, `${BASE}\n`);
  chmodSync(locked, 0o000);
  UNREADABLE.push(['chmod 000', locked]);
}

/** Folders nothing can be written into, in-process safe: [label, path]. */
const UNWRITABLE: Array<[string, string]> = [
  ['a path through a regular file (ENOTDIR)', join(file, 'out')],
  ['a symbolic link loop (ELOOP)', join(loop, 'out')],
];
if (CHMOD) {
  const readOnly = join(root, 'read-only');
  mkdirSync(readOnly);
  chmodSync(readOnly, 0o555);
  UNWRITABLE.push(['chmod 555', join(readOnly, 'out')]);
}
const how = `(unreadable: ${UNREADABLE.map(([l]) => l).join(', ')}; unwritable: ${UNWRITABLE.map(([l]) => l).join(', ')}${LINUX ? ', /proc' : ''})`;

/** One sentence naming `path`, its advice, no stack, and the exit code. */
function expectOneLineError(r: { code: number | null; stderr: string }, path: string, code = 2): void {
  const context = `exit ${r.code}, stderr:\n${r.stderr}`;
  expect(r.code, context).toBe(code);
  expect(r.stderr, context).not.toMatch(/^\s+at /m);
  expect(r.stderr, context).not.toMatch(/internal error|Error: E[A-Z]+:/);
  const errors = r.stderr.split('\n').filter((l) => /^sitemapkit: (?!note:|warning:)/.test(l));
  expect(errors, context).toHaveLength(1);
  expect(errors[0], context).toContain(path);
}

/** The built CLI in a child process, killed when it runs past a generous limit (see runBin). */
const bounded = (args: string[]): Promise<CliRun> => runBin(args, { cwd: root, limitMs: 60_000 });

const gen = (...args: string[]): string[] => ['generate', ...args, '--base-url', BASE];

describe(`every subcommand, every wrong path: one sentence and the exit code ${how}`, () => {
  describe('generate', () => {
    it('an input file that is missing, a folder, or unreadable', async () => {
      expectOneLineError(await cli(gen(missing, '--out', join(root, 'g1'))), missing);
      expectOneLineError(await cli(gen(folder, '--input-format', 'txt', '--out', join(root, 'g1'))), folder);
      for (const [, path] of UNREADABLE) {
        expectOneLineError(await cli(gen(path, '--input-format', 'txt', '--out', join(root, 'g1'))), path);
      }
      expect(existsSync(join(root, 'g1'))).toBe(false);
    });

    it('--from-dir that is missing, a file, or unreadable', async () => {
      const out = join(root, 'g2');
      expectOneLineError(await cli(gen('--from-dir', missingFolder, '--out', out)), missingFolder);
      expectOneLineError(await cli(gen('--from-dir', file, '--out', out)), file);
      expectOneLineError(await cli(gen('--from-dir', loop, '--out', out)), loop);
      expect(existsSync(out)).toBe(false);
    });

    it('--out that is a file, or cannot be written', async () => {
      expectOneLineError(await cli(gen(urls, '--out', file)), file);
      for (const [, path] of UNWRITABLE) expectOneLineError(await cli(gen(urls, '--out', path)), path);
    });

    it('--update-robots naming a folder, a missing folder or an unwritable place: checked before anything is written', async () => {
      const out = join(root, 'g3');
      for (const path of [folder, join(missingFolder, 'robots.txt'), join(file, 'robots.txt')]) {
        expectOneLineError(await cli(gen(urls, '--out', out, '--update-robots', path)), path);
        expect(existsSync(out), path).toBe(false);
      }
    });
  });

  describe('parse and validate', () => {
    for (const command of ['parse', 'validate']) {
      it(`${command}: a sitemap that is missing, a folder, or unreadable`, async () => {
        expectOneLineError(await cli([command, missing]), missing);
        expectOneLineError(await cli([command, folder]), folder);
        for (const [, path] of UNREADABLE) expectOneLineError(await cli([command, path]), path);
      });
    }

    it('validate --out in a missing folder, a folder, or an unwritable place', async () => {
      for (const path of [join(missingFolder, 'r.txt'), folder, join(file, 'r.txt'), join(loop, 'r.txt')]) {
        expectOneLineError(await cli(['validate', sitemap, '--out', path]), path);
      }
      if (LINUX)
        expectOneLineError(await cli(['validate', sitemap, '--out', '/proc/self/r.txt']), '/proc/self/r.txt');
    });

    it('validate --config and --robots that are missing or folders', async () => {
      for (const path of [missing, folder]) {
        expectOneLineError(await cli(['validate', sitemap, '--config', path]), path);
        expectOneLineError(await cli(['validate', sitemap, '--robots', path]), path);
      }
    });
  });

  describe('robots', () => {
    it('lint and check: a robots.txt that is missing, a folder, or unreadable', async () => {
      for (const path of [missing, folder, ...UNREADABLE.map(([, p]) => p)]) {
        expectOneLineError(await cli(['robots', 'lint', path]), path);
        expectOneLineError(await cli(['robots', 'check', path, '--agent', 'a', BASE]), path);
      }
    });

    it('lint --sitemap that is missing, a folder without a manifest, or unreadable', async () => {
      for (const path of [missing, folder, loop]) {
        expectOneLineError(await cli(['robots', 'lint', robots, '--sitemap', path]), path);
      }
    });
  });

  describe('submit', () => {
    const submit = ['submit', '--indexnow', 'http://127.0.0.1:9/indexnow', '--key', 'abcdef0123456789'];

    it('--urls, --sitemap and --since that are missing, folders, or unreadable', async () => {
      for (const path of [missing, folder, ...UNREADABLE.map(([, p]) => p)]) {
        expectOneLineError(await cli([...submit, '--urls', path]), path);
      }
      for (const path of [missing, loop]) {
        expectOneLineError(await cli([...submit, '--sitemap', path]), path);
        expectOneLineError(await cli([...submit, '--sitemap', urls, '--since', path]), path);
      }
    });

    it('submit key --out that is a file or cannot be written', async () => {
      expectOneLineError(await cli(['submit', 'key', '--out', file]), file);
      for (const [, path] of UNWRITABLE)
        expectOneLineError(await cli(['submit', 'key', '--out', path]), path);
    });
  });

  describe('crawl', () => {
    let site: TestServer;
    beforeAll(async () => {
      site = await startServer({
        '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
        '/': html('Home'),
      });
    });
    afterAll(() => site.close());
    let states = 0;
    const crawl = (...args: string[]): string[] => [
      'crawl',
      site.url,
      '--state',
      join(root, `state-${++states}.db`),
      '--no-report',
      ...args,
    ];

    it('--out, --state, --report and --update-robots that cannot be used', async () => {
      expectOneLineError(await cli(crawl('--out', file)), file);
      for (const [, path] of UNWRITABLE) expectOneLineError(await cli(crawl('--out', path)), path);
      const out = join(root, 'c1');
      for (const [, path] of UNWRITABLE) {
        // Named by the folder that cannot be made: the one --state would be in.
        const state = join(path, 'state.db');
        expectOneLineError(
          await cli(['crawl', site.url, '--out', out, '--state', state, '--no-report']),
          path,
        );
        expectOneLineError(
          await cli(['crawl', site.url, '--out', out, '--state', join(root, 'c1.db'), '--report', path]),
          path,
        );
      }
      expectOneLineError(await cli(crawl('--out', out, '--update-robots', folder)), folder);
    });

    it('a crawl that cannot start leaves no output, report or state folder behind', async () => {
      const down = await startServer({ '/robots.txt': { status: 500 } });
      try {
        const made = join(root, 'c3');
        const r = await cli([
          'crawl',
          down.url,
          '--out',
          join(made, 'out'),
          '--report',
          join(made, 'report'),
          '--state',
          join(made, 'state', 'crawl.db'),
        ]);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).not.toMatch(/^\s+at /m);
        expect(existsSync(made)).toBe(false);
      } finally {
        await down.close();
      }
    });
  });

  describe.runIf(LINUX)(
    '/proc: folder creation ends, with a clear error (Node recursive mkdir loops there)',
    () => {
      it('generate --out, submit key --out, crawl --out and --report under /proc', async () => {
        const runs: Array<[string[], string]> = [
          [gen(urls, '--out', '/proc/self/sk-out/deep'), '/proc/self/sk-out/deep'],
          [['submit', 'key', '--out', '/proc/self/x'], '/proc/self/x'],
          [
            gen(urls, '--out', join(root, 'g5'), '--update-robots', '/proc/self/robots.txt'),
            '/proc/self/robots.txt',
          ],
        ];
        for (const [args, path] of runs) {
          const r = await bounded(args);
          expect(r.signal, `${args.join(' ')} did not finish`).toBeNull();
          expectOneLineError(r, path);
        }
        expect(existsSync(join(root, 'g5'))).toBe(false);
      });

      it('crawl --out and --report under /proc', async () => {
        const site = await startServer({
          '/robots.txt': { body: 'User-agent: *\nAllow: /\n' },
          '/': html('Home'),
        });
        try {
          const state = ['--state', join(root, 'proc.db')];
          for (const [args, path] of [
            [['--out', '/proc/self/sk-crawl', '--no-report'], '/proc/self/sk-crawl'],
            [['--out', join(root, 'c2'), '--report', '/proc/self/sk-report'], '/proc/self/sk-report'],
          ] as const) {
            const r = await bounded(['crawl', site.url, ...state, ...args, '--fresh']);
            expect(r.signal, `crawl ${args.join(' ')} did not finish`).toBeNull();
            expectOneLineError(r, path);
          }
        } finally {
          await site.close();
        }
      });
    },
  );

  describe('standard output', () => {
    const big = join(root, 'big.xml');
    writeFileSync(
      big,
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: 20_000 }, (_, i) => `<url><loc>${BASE}p${i}</loc></url>`).join('')}</urlset>`,
    );
    /** Runs `parse big.xml` with `stdout` as its standard output. */
    const parseInto = (stdout: 'pipe' | number, closeEarly: boolean): Promise<CliRun> =>
      new Promise((resolve, reject) => {
        const child = spawn(process.execPath, [BIN, 'parse', big], {
          env: { ...process.env, NO_COLOR: '1' },
          stdio: ['ignore', stdout, 'pipe'],
        });
        let stderr = '';
        child.stderr?.setEncoding('utf8').on('data', (d: string) => {
          stderr += d;
        });
        // The reader goes away after the first chunk, as `| head -1` does.
        if (closeEarly) child.stdout?.once('data', () => child.stdout?.destroy());
        child.on('error', reject);
        child.on('close', (code, signal) => resolve({ code, signal, stdout: '', stderr }));
      });

    it('closed by its reader (| head): the run ends quietly, exit 0', async () => {
      const r = await parseInto('pipe', true);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    });

    it.runIf(LINUX)('full (/dev/full): one sentence, exit 2', async () => {
      const full = openSync('/dev/full', 'w');
      try {
        const r = await parseInto(full, false);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toMatch(
          /^sitemapkit: cannot write to standard output: no space is left on the device/,
        );
        expect(r.stderr).not.toMatch(/^\s+at /m);
      } finally {
        closeSync(full);
      }
    });
  });

  it('no temp files are left beside the paths that were tried', () => {
    expect(readdirSync(root).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(readdirSync(folder)).toEqual([]);
  });
});
