import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../parser/build.js';
import { runProcess } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/**
 * What the CLI loads to start (issue 16, item 6): a regression in start-up shows here as a count,
 * never as a timing. `--version` alone loads bin.js and the version reader; `parse` of a local
 * file loads the bundle's chunks for the parse command (scripts/bundle-cli.mjs), not the
 * crawler, the store, the HTTP stack's packages or any other command. Counted by a module loader
 * hook that logs every URL Node loads.
 */
const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

const HOOK = `import { register } from 'node:module';
import { appendFileSync } from 'node:fs';
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.SK_MODULE_LOG, url + '\\\\n'); return next(url, context); }
\`));
// Node's own modules, also those loaded by require() (which the hook above does not see).
process.on('exit', () => appendFileSync(process.env.SK_MODULE_LOG, process.moduleLoadList.map((m) => 'builtin:' + m).join('\\n') + '\\n'));
`;

async function loaded(
  args: string[],
): Promise<{ files: string[]; builtins: string[]; internal: string[]; bytes: number }> {
  const dir = tempDir('sk-modules');
  const hook = join(dir, 'hook.mjs');
  const log = join(dir, 'modules.log');
  writeFileSync(hook, HOOK);
  writeFileSync(log, '');
  const r = await runProcess(process.execPath, ['--import', hook, BIN, ...args], {
    env: { SK_MODULE_LOG: log },
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const urls = readFileSync(log, 'utf8').trim().split('\n');
  const files = urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);
  return {
    files,
    builtins: urls.filter((u) => u.startsWith('node:')),
    internal: urls.filter((u) => u.startsWith('builtin:')).map((u) => u.slice('builtin:'.length)),
    bytes,
  };
}

describe('start-up loads only what the command needs', () => {
  ensureBuilt();

  it('--version loads bin.js and the version reader, nothing else of the package', async () => {
    const { files } = await loaded(['--version']);
    expect(files.map((f) => f.slice(f.indexOf('/dist/') + 1)).sort()).toEqual([
      'dist/cli/bin.js',
      'dist/cli/version.js',
    ]);
  });

  it('parse of a local file loads its own bundle, at most 10 files, none of the other commands', async () => {
    const file = join(tempDir('sk-one'), 'one.xml');
    writeFileSync(
      file,
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>\n',
    );
    const { files, bytes, internal } = await loaded(['parse', file, '--format', 'jsonl']);
    // Before the bundle (issue 16): 57 files of dist/ and commander's, about 440 KB; with the
    // whole CLI's bundle, 23 files (its chunks split by command), 229 KB.
    expect(files.length).toBeLessThanOrEqual(10);
    expect(bytes).toBeLessThan(230_000);
    expect(files.filter((f) => !f.includes('/dist/cli/'))).toEqual([]);
    expect(files.some((f) => f.endsWith('dist/cli/sitemapkit-parse.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('dist/cli/sitemapkit.js'))).toBe(false);
    // The networking modules (HTTP client, gzip, commander's child_process) are loaded on use: a
    // local file uses none of them. Before: child_process, net, dgram, zlib and http were loaded
    // (`net` is left out of the list: Node loads it for a standard output that is a pipe, as here).
    const networking = ['http', 'zlib', 'child_process', 'dgram'].filter((m) =>
      internal.includes(`NativeModule ${m}`),
    );
    expect(networking).toEqual([]);
  });

  it('any other command still runs from the whole CLI bundle', async () => {
    const { files } = await loaded(['robots', '--help']);
    expect(files.some((f) => f.endsWith('dist/cli/sitemapkit.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('dist/cli/sitemapkit-parse.js'))).toBe(false);
  });
});
