#!/usr/bin/env node
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageVersion } from './version.js';

/** Modification time of a file next to this one, or -1 when there is none. */
function builtAt(name: string): number {
  try {
    return statSync(new URL(name, import.meta.url)).mtimeMs;
  } catch {
    return -1;
  }
}

/**
 * Runs `sitemapkit parse` from its script bundle (scripts/bundle-cli.mjs): one classic script
 * compiled with `vm.Script`, with V8's code cache made at build time when it belongs to this very
 * script (the hash on the first line of both files; V8 checks only the source's length, its
 * version and its flags). Without the cache, or with one V8 rejects (another Node, other V8
 * flags), the script is compiled as usual: slower to start, the same run.
 * scripts/parse-code-cache.mjs compiles the script the same way (the file's text as it is).
 */
async function runParseScript(url: URL, args: readonly string[]): Promise<number> {
  const filename = fileURLToPath(url);
  const text = readFileSync(url, 'utf8');
  const hash = text.slice(0, text.indexOf('\n') + 1).replace('//sitemapkit-parse ', '');
  let cachedData: Buffer | undefined;
  try {
    const cache = readFileSync(new URL('./sitemapkit-parse.code-cache', import.meta.url));
    if (hash.length > 1 && cache.toString('latin1', 0, hash.length) === hash)
      cachedData = cache.subarray(hash.length);
  } catch {
    // No cache (a build without it): compiled as usual.
  }
  // Required here, not imported: `--version` (and any other command) does without them.
  const { Script } = process.getBuiltinModule('node:vm');
  const { createRequire } = process.getBuiltinModule('node:module');
  const script = new Script(text, cachedData === undefined ? { filename } : { filename, cachedData });
  const module = { exports: {} as { runCli?: (argv: readonly string[]) => Promise<number> } };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, createRequire(url), module, filename, fileURLToPath(new URL('.', url)));
  return module.exports.runCli!(args);
}

// `sitemapkit --version` alone needs nothing else: scripts and hooks call it often (issue 16).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${packageVersion()}\n`);
} else if (
  argv[0] === 'parse' &&
  builtAt('./sitemapkit-parse.script.js') >= Math.max(0, builtAt('./start.js'))
) {
  // `parse` (named first, where main.ts finds it too) has a bundle of its own with no other
  // command in it, run as a script (above) rather than as modules, for its code cache.
  process.exitCode = await runParseScript(new URL('./sitemapkit-parse.script.js', import.meta.url), argv);
} else {
  // The bundle (`npm run build` makes it with esbuild after tsc) loads a few files instead of a
  // module per source file. A build by tsc alone leaves tsc's output newer than the bundle: then
  // that runs, so that a stale bundle never runs old code.
  const bundle = builtAt('./sitemapkit.js');
  await import(bundle !== -1 && bundle >= builtAt('./start.js') ? './sitemapkit.js' : './start.js');
}
