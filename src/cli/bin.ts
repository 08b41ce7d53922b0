#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { packageVersion } from './version.js';

// `sitemapkit --version` alone needs nothing else: scripts and hooks call it often (issue 16).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${packageVersion()}\n`);
} else {
  // The bundle (`npm run build` makes it with esbuild) loads a few files instead of a module per
  // source file; a build without it runs the same code from tsc's output.
  const bundle = new URL('./sitemapkit.js', import.meta.url);
  await import(existsSync(bundle) ? bundle.href : './start.js');
}
