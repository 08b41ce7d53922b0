/**
 * Astro is an optional peer dependency: the integration imports it for its types only, and
 * nothing else in sitemapkit names it, so a project without Astro installs and runs sitemapkit.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Code, not comments (a doc comment shows `import … from 'astro/config'` to users).
const ASTRO_IMPORT =
  /^\s*(?:import|export)\b.*(?:from\s+|import\s*\(\s*|import\s+)['"](?:astro|@astrojs\/[^'"]+)(?:\/[^'"]*)?['"]|\bimport\s*\(\s*['"]astro['"]/m;

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => ext.test(f))
    .map((f) => join(dir, f));
}

describe('astro, an optional peer dependency', () => {
  it('is declared as one', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.peerDependencies.astro).toBeDefined();
    expect(pkg.peerDependenciesMeta.astro.optional).toBe(true);
    expect(pkg.dependencies.astro).toBeUndefined();
    expect(pkg.exports['./astro'].default).toBe('./dist/astro/index.js');
  });

  it('the built code never loads it; the sources name it only in src/astro, for types', () => {
    const loading = files(join(ROOT, 'dist'), /\.js$/).filter((f) =>
      ASTRO_IMPORT.test(readFileSync(f, 'utf8')),
    );
    expect(loading).toEqual([]);
    for (const f of files(join(ROOT, 'src'), /\.ts$/)) {
      for (const line of readFileSync(f, 'utf8').split('\n')) {
        if (!ASTRO_IMPORT.test(line)) continue;
        expect(f.startsWith(join(ROOT, 'src/astro/')), f).toBe(true);
        expect(line, f).toMatch(/^import type /);
      }
    }
  });
});
