import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function newest(dir: string): number {
  let t = 0;
  for (const f of readdirSync(dir)) t = Math.max(t, statSync(join(dir, f)).mtimeMs);
  return t;
}

/**
 * Child-process tests run the built library (dist/). `npm test` builds first; when the parser's
 * sources are newer than its build (running vitest directly), build once here.
 */
export function ensureBuilt(): void {
  let built = 0;
  try {
    built = statSync(join(ROOT, 'dist/parser/index.js')).mtimeMs;
  } catch {
    built = 0;
  }
  const sources = Math.max(newest(join(ROOT, 'src/parser')), newest(join(ROOT, 'src/core')));
  if (built >= sources) return;
  try {
    execFileSync(
      process.execPath,
      [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
      {
        cwd: ROOT,
        stdio: 'ignore',
      },
    );
  } catch {
    // tsc exits non-zero for type errors elsewhere in the tree but still emits; the tests say whether it works.
  }
  // The CLI runs from its bundle when there is one: a stale bundle would run the old code.
  execFileSync(process.execPath, [join(ROOT, 'scripts/bundle-cli.mjs')], { cwd: ROOT, stdio: 'ignore' });
}
