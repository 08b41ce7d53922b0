import { runCli } from './main.js';

// The CLI proper, run by bin.ts (bundled by scripts/bundle-cli.mjs into sitemapkit.js).
process.exitCode = await runCli(process.argv.slice(2));
