#!/usr/bin/env node
import { statSync } from 'node:fs';
import { packageVersion } from './version.js';

/** Modification time of a file next to this one, or -1 when there is none. */
function builtAt(name: string): number {
  try {
    return statSync(new URL(name, import.meta.url)).mtimeMs;
  } catch {
    return -1;
  }
}

// `sitemapkit --version` alone needs nothing else: scripts and hooks call it often (issue 16).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${packageVersion()}\n`);
} else {
  // The bundle (`npm run build` makes it with esbuild after tsc) loads a few files instead of a
  // module per source file. A build by tsc alone leaves tsc's output newer than the bundle: then
  // that runs, so that a stale bundle never runs old code.
  // `parse` (named first, where main.ts finds it too) has a bundle of its own with no other
  // command in it: a few files to load instead of the whole CLI's twenty-odd chunks.
  const name = argv[0] === 'parse' ? './sitemapkit-parse.js' : './sitemapkit.js';
  const bundle = builtAt(name);
  await import(bundle !== -1 && bundle >= builtAt('./start.js') ? name : './start.js');
}
