#!/usr/bin/env node
// The `sitemapkit` command (package.json's "bin"; dist/cli/bin.js runs this file too). CommonJS,
// not an ES module: a CommonJS entry point spares every run Node's ES module loader (its own
// modules, `fs/promises`, the resolution, reading and linking of each file), about 5 ms of CPU
// over a bare `node -e ''` (start-up, issue 16). Node's modules are taken with
// `process.getBuiltinModule`, each where it is needed.
// The CLI itself stays ES modules: the commands scripts call most run from script bundles of their
// own (below), any other command from the CLI's bundle (or tsc's output), loaded with import().

const { readFileSync, statSync } = process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');

/** Modification time of a file next to this one, or -1 when there is none. */
function builtAt(name: string): number {
  try {
    return statSync(join(__dirname, name)).mtimeMs;
  } catch {
    return -1;
  }
}

/** The package's version, from its package.json, as version.ts reads it for `--help`. */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Runs a command from its script bundle (scripts/bundle-cli.mjs), `dist/cli/sitemapkit-COMMAND.script.js`:
 * one classic script compiled with `vm.Script`, with V8's code cache made at build time when it
 * belongs to this very script (the hash on the first line of both files; V8 checks only the
 * source's length, its version and its flags). Without the cache, or with one V8 rejects (another
 * Node, other V8 flags such as --max-old-space-size), the script is compiled as usual: slower to
 * start, the same run. scripts/command-code-cache.mjs compiles the script the same way (the
 * file's text as it is).
 */
function runScript(command: string, args: readonly string[]): Promise<number> {
  const filename = join(__dirname, `sitemapkit-${command}.script.js`);
  const text = readFileSync(filename, 'utf8');
  const hash = text.slice(0, text.indexOf('\n') + 1).replace(`//sitemapkit-${command} `, '');
  let cachedData: Buffer | undefined;
  try {
    const cache = readFileSync(join(__dirname, `sitemapkit-${command}.code-cache`));
    if (hash.length > 1 && cache.toString('latin1', 0, hash.length) === hash)
      cachedData = cache.subarray(hash.length);
  } catch {
    // No cache (a build without it): compiled as usual.
  }
  const { Script } = process.getBuiltinModule('node:vm');
  const script = new Script(text, cachedData === undefined ? { filename } : { filename, cachedData });
  const module = { exports: {} as { runCli?: (argv: readonly string[]) => Promise<number> } };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, require, module, filename, __dirname);
  return module.exports.runCli!(args);
}

// `sitemapkit --version` alone needs nothing else: scripts and hooks call it often (issue 16).
const argv = process.argv.slice(2);
const command = argv[0] ?? '';
if (argv.length === 1 && (command === '--version' || command === '-V')) {
  process.stdout.write(`${packageVersion()}\n`);
} else if (
  /^[a-z]+$/.test(command) &&
  builtAt(`sitemapkit-${command}.script.js`) >= Math.max(0, builtAt('start.js'))
) {
  // The commands scripts call most (parse, validate, generate, …: the build's list) have a bundle
  // of their own with no other command in it, run as a script rather than as modules, for its code
  // cache, when the command is named first (main.ts then picks the same command). A build by tsc
  // alone leaves start.js newer than the bundles: then that runs, never a stale bundle's old code.
  void runScript(command, argv).then((code) => {
    process.exitCode = code;
  });
} else {
  // The bundle (`npm run build` makes it with esbuild after tsc) loads a few files instead of a
  // module per source file.
  const bundle = builtAt('sitemapkit.js');
  void import(bundle !== -1 && bundle >= builtAt('start.js') ? './sitemapkit.js' : './start.js');
}
