import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { cliSuite } from './cli-suite.js';
import { sqliteTarget } from './targets.js';

cliSuite(sqliteTarget);

describe('store commands and a store file that is not there', () => {
  it.each([
    [['store', 'add', 'https://example.com/a'], 'give --base-url URL to make it with this first import'],
    [
      ['store', 'remove', 'https://example.com/a'],
      'make one first with sitemapkit store import (or store add) --base-url URL',
    ],
    [['store', 'list'], 'make one first with sitemapkit store import (or store add) --base-url URL'],
    [['store', 'stats'], 'make one first with sitemapkit store import (or store add) --base-url URL'],
    [
      ['generate', '--base-url', 'https://example.com/', '--out', 'out'],
      'give the URLs as inputs (generate INPUT --store), or import them first (sitemapkit store import)',
    ],
  ])('%j: one sentence, exit 2, and no empty store file left behind', async (args, what) => {
    const dir = tempDir();
    const db = join(dir, 'site.db');
    const r = await runBin([...args, '--store', db], { cwd: dir });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`sitemapkit: there is no site store at ${db}: ${what}\n`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a first add with --base-url makes the store', async () => {
    const dir = tempDir();
    const db = join(dir, 'site.db');
    const r = await runBin([
      'store',
      'add',
      'https://example.com/a',
      '--store',
      db,
      '--base-url',
      'https://example.com/',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const list = await runBin(['store', 'list', '--store', db]);
    expect(list.stdout).toBe('https://example.com/a\n');
  });
});
