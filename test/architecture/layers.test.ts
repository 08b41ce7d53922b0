/**
 * The layering of src/, read from the code itself: every import between folders points down, never
 * up or sideways, and no two files import each other (not even for types). ARCHITECTURE.md draws
 * the same table; when a folder is added, it is added to both.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

/** Lower rank first; a folder may import only folders of a strictly lower rank (and itself). */
const LAYERS: readonly (readonly string[])[] = [
  ['core', 'chart'],
  ['http'],
  ['robots'],
  // render: headless Chromium (issue 14); it reads nothing of the site's own layers.
  ['parser', 'page', 'html', 'render'],
  ['writer'],
  ['sources'],
  // The site store sits under the crawler, which feeds a recrawl's changes into it.
  ['store'],
  ['validate', 'crawler', 'submit'],
  ['audit', 'handler', 'next'],
  // The framework integrations (issue 15) read sources and drive the writer, as the CLI does.
  ['cli', 'integrations', 'vite', 'astro'],
];

const rank = new Map<string, number>(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i] as const)));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return name.endsWith('.ts') || name.endsWith('.cts') ? [path] : [];
  });
}

// `from '…'` covers import, import type and export … from; import('…') covers lazy loading.
const SPECIFIER = /\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'\s*\)|^\s*import\s+'([^']+)'/gm;

/** Relative imports of a file, resolved to files under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (!spec.startsWith('.')) continue;
    out.push(
      resolve(dirname(file), spec)
        .replace(/\.js$/, '.ts')
        .replace(/\.cjs$/, '.cts'),
    );
  }
  return out;
}

/** The concept folder of a file (`crawler` for src/crawler/x.ts); the package root is ''. */
function folderOf(file: string): string {
  const rel = relative(SRC, file);
  return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : '';
}

const FILES = filesUnder(SRC);
const GRAPH = new Map(FILES.map((f) => [f, importsOf(f)] as const));

describe('the layers of src/', () => {
  it('every concept folder has a layer', () => {
    const folders = new Set(FILES.map(folderOf).filter((f) => f !== ''));
    expect([...folders].filter((f) => !rank.has(f))).toEqual([]);
  });

  it('imports point down: never up, never sideways within a layer', () => {
    const wrong: string[] = [];
    for (const [file, targets] of GRAPH) {
      const from = folderOf(file);
      if (from === '') continue; // the package root re-exports every concept
      for (const target of targets) {
        const to = folderOf(target);
        if (to === from) continue;
        if (to === '' || (rank.get(to) ?? Infinity) >= (rank.get(from) ?? -1)) {
          wrong.push(`${relative(SRC, file)} imports ${relative(SRC, target)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('no import cycle between files, type-only imports included', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const next of GRAPH.get(file) ?? []) {
        if (!GRAPH.has(next)) continue;
        const s = state.get(next);
        if (s === 'open') {
          const loop = stack.slice(stack.indexOf(next)).map((f) => relative(SRC, f));
          cycles.push([...loop, relative(SRC, next)].join(' → '));
        } else if (s === undefined) visit(next);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of FILES) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('every relative import names a file that exists', () => {
    const missing = [...GRAPH].flatMap(([file, targets]) =>
      targets.filter((t) => !GRAPH.has(t)).map((t) => `${relative(SRC, file)} → ${relative(SRC, t)}`),
    );
    expect(missing).toEqual([]);
  });
});

/** Files allowed past the size limit, each with the measurement that keeps it whole in its opening comment. */
const LONG_FILES_ALLOWED: readonly string[] = [];
const MAX_LINES = 500;

describe('file size', () => {
  it(`no file in src/ is over ${MAX_LINES} lines`, () => {
    const long = FILES.map((f) => [relative(SRC, f), readFileSync(f, 'utf8').split('\n').length - 1] as const)
      .filter(([f, n]) => n > MAX_LINES && !LONG_FILES_ALLOWED.includes(f))
      .map(([f, n]) => `${f}: ${n} lines`);
    expect(long).toEqual([]);
  });
});
