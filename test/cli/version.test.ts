import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CliContext } from '../../src/cli/context.js';
import { buildProgram } from '../../src/cli/main.js';
import { runBin } from '../support/cli.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;

describe('sitemapkit --version', () => {
  it('prints the package version and exits 0, as --version and -V', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runBin([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${VERSION}\n`);
      expect(r.stderr).toBe('');
    }
  });

  it('loads no command for --version alone (scripts call it often), every command for help', async () => {
    const ctx = { stdout: process.stdout, stderr: process.stderr } as unknown as CliContext;
    expect((await buildProgram(ctx, ['--version'])).commands).toHaveLength(0);
    expect((await buildProgram(ctx, ['parse', '--version'])).commands.map((c) => c.name())).toEqual([
      'parse',
    ]);
    expect((await buildProgram(ctx, ['--help'])).commands.length).toBeGreaterThan(5);
  });
});
