#!/usr/bin/env node
// `npm run bench`: every benchmark in bench/, one after another, each printing its own table.
// Pass a name to run one: `npm run bench -- generate`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const skip = new Set(['run.mjs', 'lib.mjs', 'rss-hook.mjs']);
const only = process.argv.slice(2);
const scripts = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && !skip.has(f))
  .filter((f) => only.length === 0 || only.includes(f.replace(/\.mjs$/, '')))
  .sort();
let failed = 0;
for (const s of scripts) {
  console.log(`\n######## bench/${s}`);
  const r = spawnSync(process.execPath, [`${dir}${s}`], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`bench/${s} exited ${r.status}`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
