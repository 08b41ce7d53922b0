import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../parser/build.js';
import { runProcess } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/**
 * What the CLI loads to start (issue 16, item 6): a regression in start-up shows here as a count,
 * never as a timing. `--version` alone loads bin.js and the version reader; `parse` of a local
 * file runs the parse command's script bundle (scripts/bundle-cli.mjs) with its V8 code cache, not
 * the crawler, the store, the HTTP stack's packages or any other command. Counted by a module
 * loader hook that logs every URL Node loads, and every script compiled through `vm.Script` with
 * what became of its code cache.
 */
/** The command as npm installs it: package.json's "bin". */
const BIN = fileURLToPath(
  new URL(
    `../../${(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { bin: { sitemapkit: string } }).bin.sitemapkit}`,
    import.meta.url,
  ),
);
const DIST_CLI = fileURLToPath(new URL('../../dist/cli/', import.meta.url));

function oneUrlFile(): string {
  const file = join(tempDir('sk-one'), 'one.xml');
  writeFileSync(
    file,
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/</loc></url></urlset>\n',
  );
  return file;
}

const HOOK = `import { register, syncBuiltinESMExports } from 'node:module';
import { appendFileSync } from 'node:fs';
import vm from 'node:vm';
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    const cache = options?.cachedData === undefined ? 'none' : this.cachedDataRejected ? 'rejected' : 'accepted';
    appendFileSync(process.env.SK_MODULE_LOG, 'script:' + cache + ':' + options?.filename + '\\n');
  }
};
syncBuiltinESMExports();
register('data:text/javascript,' + encodeURIComponent(\`
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(process.env.SK_MODULE_LOG, url + '\\\\n'); return next(url, context); }
\`));
// Node's own modules, also those loaded by require() (which the hook above does not see).
process.on('exit', () => appendFileSync(process.env.SK_MODULE_LOG, process.moduleLoadList.map((m) => 'builtin:' + m).join('\\n') + '\\n'));
`;

interface Loaded {
  /** Files loaded as modules. */
  files: string[];
  builtins: string[];
  internal: string[];
  /** Scripts compiled with `vm.Script`: `accepted`, `rejected` or `none` (no cache given), then the file. */
  scripts: string[];
  /** Bytes of the module files and the scripts. */
  bytes: number;
  stdout: string;
}

async function loaded(
  args: string[],
  bin = BIN,
  nodeFlags: string[] = [],
  options: { cwd?: string } = {},
): Promise<Loaded> {
  const dir = tempDir('sk-modules');
  const hook = join(dir, 'hook.mjs');
  const log = join(dir, 'modules.log');
  writeFileSync(hook, HOOK);
  writeFileSync(log, '');
  const r = await runProcess(process.execPath, [...nodeFlags, '--import', hook, bin, ...args], {
    env: { SK_MODULE_LOG: log },
    ...options,
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const urls = readFileSync(log, 'utf8').trim().split('\n');
  const files = urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u));
  const scripts = urls.filter((u) => u.startsWith('script:')).map((u) => u.slice('script:'.length));
  const scriptFiles = scripts.map((s) => s.slice(s.indexOf(':') + 1));
  const bytes = [...files, ...scriptFiles].reduce((n, f) => n + statSync(f).size, 0);
  return {
    files,
    scripts,
    stdout: r.stdout,
    builtins: urls.filter((u) => u.startsWith('node:')),
    internal: urls.filter((u) => u.startsWith('builtin:')).map((u) => u.slice('builtin:'.length)),
    bytes,
  };
}

/**
 * The parts of Node's ES module loader that a run loads to load ES modules (resolving, reading and
 * linking files), seen with a CommonJS preload: the module hook above is itself an ES module.
 */
async function esModuleLoader(args: string[], bin = BIN): Promise<string[]> {
  const dir = tempDir('sk-esm');
  const hook = join(dir, 'hook.cjs');
  const log = join(dir, 'modules.log');
  writeFileSync(
    hook,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.SK_MODULE_LOG, process.moduleLoadList.join('\\n')));\n",
  );
  const r = await runProcess(process.execPath, ['-r', hook, bin, ...args], { env: { SK_MODULE_LOG: log } });
  expect(r.code).toBe(0);
  const internal = readFileSync(log, 'utf8').split('\n');
  expect(internal).toContain('NativeModule fs');
  return ['module_job', 'translators', 'resolve'].filter((m) =>
    internal.includes(`NativeModule internal/modules/esm/${m}`),
  );
}

describe('start-up loads only what the command needs', () => {
  ensureBuilt();

  it('--version loads the CommonJS entry point alone, nothing else of the package, no ES module', async () => {
    const { files, internal } = await loaded(['--version']);
    // Before (issue 16): dist/cli/bin.js and version.js, ES modules, with Node's ES module loader.
    expect(files.map((f) => f.slice(f.indexOf('/dist/') + 1))).toEqual(['dist/cli/bin.cjs']);
    expect(internal.length).toBeGreaterThan(0);
    expect(await esModuleLoader(['--version'])).toEqual([]);
  });

  it('parse of a local file runs its own script bundle with its code cache, none of the other commands', async () => {
    const { files, bytes, internal, scripts } = await loaded(['parse', oneUrlFile(), '--format', 'jsonl']);
    // Before the bundle (issue 16): 57 files of dist/ and commander's, about 440 KB; with the
    // whole CLI's bundle, 23 files (its chunks split by command), 229 KB; with the parse command's
    // ES-module bundle, 8 files, 201 KB, compiled afresh by every run.
    expect(files.map((f) => f.slice(f.indexOf('/dist/') + 1))).toEqual(['dist/cli/bin.cjs']);
    expect(await esModuleLoader(['parse', oneUrlFile(), '--format', 'jsonl'])).toEqual([]);
    expect(scripts.map((s) => s.slice(0, s.indexOf(':') + 1) + s.slice(s.indexOf('/dist/') + 1))).toEqual([
      'accepted:dist/cli/sitemapkit-parse.script.js',
    ]);
    expect(bytes).toBeLessThan(270_000);
    // The networking modules (HTTP client, gzip, commander's child_process) are loaded on use: a
    // local file uses none of them. Before: child_process, net, dgram, zlib and http were loaded
    // (`net` is left out of the list: Node loads it for a standard output that is a pipe, as here).
    const networking = ['http', 'zlib', 'child_process', 'dgram'].filter((m) =>
      internal.includes(`NativeModule ${m}`),
    );
    expect(networking).toEqual([]);
  });

  it('a missing, foreign or damaged code cache leaves parse as it is, compiled without it', async () => {
    const file = oneUrlFile();
    const expected = (await loaded(['parse', file, '--format', 'jsonl'])).stdout;
    expect(expected).toContain('https://example.com/');
    // A copy of the files the parse script needs: the shared dist/ is left alone.
    const cli = join(tempDir('sk-cache'), 'dist/cli');
    mkdirSync(cli, { recursive: true });
    for (const f of ['bin.cjs', 'sitemapkit-parse.script.js']) copyFileSync(join(DIST_CLI, f), join(cli, f));
    const cache = readFileSync(join(DIST_CLI, 'sitemapkit-parse.code-cache'));
    const hashLine = cache.subarray(0, cache.indexOf(10) + 1);
    const otherScript = new Script('"another script"');
    otherScript.runInThisContext();
    const cases: [string, Buffer | undefined, string][] = [
      ['missing', undefined, 'none'],
      // Another build's cache (its hash differs): never handed to V8, which checks only lengths.
      [
        'another build',
        Buffer.concat([Buffer.from('0123456789abcdef0123456789abcdef\n'), cache.subarray(hashLine.length)]),
        'none',
      ],
      ['cut short', cache.subarray(0, Math.floor(cache.length / 2)), 'rejected'],
      ['made for another script', Buffer.concat([hashLine, otherScript.createCachedData()]), 'rejected'],
    ];
    for (const [why, bytes, verdict] of cases) {
      const path = join(cli, 'sitemapkit-parse.code-cache');
      rmSync(path, { force: true });
      if (bytes !== undefined) writeFileSync(path, bytes);
      const run = await loaded(['parse', file, '--format', 'jsonl'], join(cli, 'bin.cjs'));
      expect({
        why,
        scripts: run.scripts.map((s) => s.slice(0, s.indexOf(':'))),
        stdout: run.stdout,
      }).toEqual({
        why,
        scripts: [verdict],
        stdout: expected,
      });
    }
  });

  it('under a V8 flag that changes its hash, V8 rejects the cache and parse prints the same', async () => {
    const file = oneUrlFile();
    const expected = (await loaded(['parse', file, '--format', 'jsonl'])).stdout;
    const run = await loaded(['parse', file, '--format', 'jsonl'], BIN, ['--max-old-space-size=4096']);
    expect(run.scripts.map((s) => s.slice(0, s.indexOf(':')))).toEqual(['rejected']);
    expect(run.stdout).toBe(expected);
  });

  it('node dist/cli/bin.js is the same command, through the ES module loader', async () => {
    const esm = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));
    expect(await esModuleLoader(['--version'], esm)).toEqual(['module_job', 'translators', 'resolve']);
    const file = oneUrlFile();
    const run = await loaded(['parse', file, '--format', 'jsonl'], esm);
    expect(run.scripts.map((s) => s.slice(0, s.indexOf(':')))).toEqual(['accepted']);
    expect(run.stdout).toBe((await loaded(['parse', file, '--format', 'jsonl'])).stdout);
  });

  it('any other command still runs from the whole CLI bundle', async () => {
    const { files, scripts } = await loaded(['store', '--help']);
    expect(files.some((f) => f.endsWith('dist/cli/sitemapkit.js'))).toBe(true);
    expect(scripts).toEqual([]);
  });
});

/**
 * The fifth pass (issue 16, item 6): validate, generate, robots and submit run from script bundles
 * of their own with their code caches, as parse does. A one-URL validate or generate loaded 32 and
 * 42 files of the whole CLI's bundle (with htmlparser2, csv-parse, picomatch: 67 and 90 files).
 */
describe('the commands scripts call most start from their own script bundle', () => {
  ensureBuilt();
  const START = fileURLToPath(new URL('../../dist/cli/start.js', import.meta.url));
  /** One-URL inputs in a folder of their own, which is also the runs' working folder. */
  function inputs(): string {
    const dir = tempDir('sk-inputs');
    writeFileSync(join(dir, 'one.txt'), 'https://example.com/\n');
    writeFileSync(join(dir, 'one.jsonl'), '{"loc":"https://example.com/a","lastmod":"2024-01-01"}\n');
    writeFileSync(join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
    return dir;
  }
  /** A run's output with its one varying part, the seconds a write took, made steady. */
  const steady = (text: string): string => text.replace(/ in \d+\.\d s$/m, ' in N s');

  const RUNS: [string, string[]][] = [
    ['validate', ['validate', 'one.txt']],
    ['generate', ['generate', 'one.txt', '--base-url', 'https://example.com/', '--out', 'out']],
    ['robots', ['robots', 'check', 'robots.txt', '--agent', 'Googlebot', 'https://example.com/']],
  ];

  it.each(RUNS)(
    '%s runs from its script with its cache accepted, no ES module, nothing of the network',
    async (command, args) => {
      const dir = inputs();
      const { files, scripts, internal } = await loaded(args, BIN, [], { cwd: dir });
      expect(files.map((f) => f.slice(f.indexOf('/dist/') + 1))).toEqual(['dist/cli/bin.cjs']);
      expect(scripts.map((s) => s.slice(0, s.indexOf(':') + 1) + s.slice(s.indexOf('/dist/') + 1))).toEqual([
        `accepted:dist/cli/sitemapkit-${command}.script.js`,
      ]);
      const networking = ['http', 'zlib', 'child_process', 'dgram'].filter((m) =>
        internal.includes(`NativeModule ${m}`),
      );
      expect(networking).toEqual([]);
    },
  );

  it.each(RUNS)(
    '%s prints what the whole CLI prints, with a missing, foreign or rejected cache too',
    async (command, args) => {
      const dir = inputs();
      const reference = await runProcess(process.execPath, [START, ...args], { cwd: dir });
      expect(reference.code).toBe(0);
      // A copy of the files the script needs, beside the installed packages it requires.
      const root = tempDir('sk-cache');
      const cli = join(root, 'dist/cli');
      mkdirSync(cli, { recursive: true });
      symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(root, 'node_modules'));
      for (const f of ['bin.cjs', `sitemapkit-${command}.script.js`])
        copyFileSync(join(DIST_CLI, f), join(cli, f));
      const cache = readFileSync(join(DIST_CLI, `sitemapkit-${command}.code-cache`));
      const hashLine = cache.subarray(0, cache.indexOf(10) + 1);
      const cases: [string, Buffer | undefined, string][] = [
        ['as built', cache, 'accepted'],
        ['missing', undefined, 'none'],
        [
          'another build',
          Buffer.concat([Buffer.from('0123456789abcdef0123456789abcdef\n'), cache.subarray(hashLine.length)]),
          'none',
        ],
        ['cut short', cache.subarray(0, Math.floor(cache.length / 2)), 'rejected'],
      ];
      for (const [why, bytes, verdict] of cases) {
        const path = join(cli, `sitemapkit-${command}.code-cache`);
        rmSync(path, { force: true });
        if (bytes !== undefined) writeFileSync(path, bytes);
        rmSync(join(dir, 'out'), { recursive: true, force: true });
        const run = await loaded(args, join(cli, 'bin.cjs'), [], { cwd: dir });
        expect({
          why,
          scripts: run.scripts.map((s) => s.slice(0, s.indexOf(':'))),
          stdout: steady(run.stdout),
        }).toEqual({ why, scripts: [verdict], stdout: steady(reference.stdout) });
      }
    },
  );

  it('every --help of a scripted command is the whole CLI’s, word for word', async () => {
    const commands = readdirSync(DIST_CLI)
      .map((f) => /^sitemapkit-([a-z]+)\.script\.js$/.exec(f)?.[1])
      .filter((c) => c !== undefined);
    expect(commands.sort()).toEqual(['generate', 'parse', 'robots', 'submit', 'validate']);
    for (const args of [
      ...commands.map((c) => [c, '--help']),
      ['robots', 'check', '--help'],
      ['robots', 'lint', '--help'],
      ['submit', 'key', '--help'],
      ['validate', '--no-such-flag'],
      ['generate', 'one.txt'],
    ]) {
      const [script, whole] = await Promise.all([
        runProcess(process.execPath, [BIN, ...args]),
        runProcess(process.execPath, [START, ...args]),
      ]);
      expect({ args, ...script }).toEqual({ args, ...whole });
    }
  });

  it('generate --threads 1 from its script finds the JSONL reader thread beside the library', async () => {
    const [a, b] = [inputs(), inputs()];
    const args = [
      'generate',
      'one.jsonl',
      '--threads',
      '1',
      '--base-url',
      'https://example.com/',
      '--out',
      'out',
    ];
    const script = await runProcess(process.execPath, [BIN, ...args], { cwd: a });
    const whole = await runProcess(process.execPath, [START, ...args], { cwd: b });
    expect(script.stderr).toBe('');
    expect(script.code).toBe(0);
    expect(steady(script.stdout)).toBe(steady(whole.stdout));
    expect(readFileSync(join(a, 'out/sitemap.xml'), 'utf8')).toBe(
      readFileSync(join(b, 'out/sitemap.xml'), 'utf8'),
    );
  });
});
