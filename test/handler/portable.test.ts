/**
 * `sitemapkit/handler` runs without Node: its built import graph names no `node:` module and no
 * package, and it serves requests in a vm context holding only the web platform's globals.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8LengthPortable } from '../../src/core/utf8.js';

const DIST = new URL('../../dist/handler/', import.meta.url);

/** Every module the file reaches by static or dynamic import, and every specifier it names. */
function importGraph(entry: URL): { files: Set<string>; specifiers: Set<string> } {
  const files = new Set<string>();
  const specifiers = new Set<string>();
  const visit = (url: URL): void => {
    if (files.has(url.href)) return;
    files.add(url.href);
    const code = readFileSync(url, 'utf8');
    const found = [
      ...code.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm),
      ...code.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm),
      ...code.matchAll(/\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g),
    ];
    for (const m of found) {
      const spec = m[1]!;
      specifiers.add(spec);
      if (spec.startsWith('.')) visit(new URL(spec, url));
    }
  };
  visit(entry);
  return { files, specifiers };
}

describe('the handler subpath is portable', () => {
  it('imports nothing from node: and no package, statically or dynamically (the built files)', () => {
    const { files, specifiers } = importGraph(new URL('index.js', DIST));
    expect(files.size).toBeGreaterThan(10);
    expect([...specifiers].filter((s) => !s.startsWith('.'))).toEqual([]);
    // The Node adapter is the one that needs node: — and it is a separate subpath.
    const node = importGraph(new URL('node.js', DIST));
    expect([...node.specifiers].filter((s) => s.startsWith('node:')).length).toBeGreaterThan(0);
  });

  it('serves a set in a vm context with the web globals and no Buffer, process or require', () => {
    const out = execFileSync(
      process.execPath,
      ['--experimental-vm-modules', '--no-warnings', new URL('edge-runtime.mjs', import.meta.url).pathname],
      { encoding: 'utf8' },
    );
    const r = JSON.parse(out) as {
      globals: string;
      modules: number;
      index: string;
      encoding: string;
      child: string;
    };
    expect(r.globals).toBe('undefined undefined undefined');
    expect(r.index).toContain(
      '<loc>https://example.com/sitemap-00002.xml</loc><lastmod>2024-05-03</lastmod>',
    );
    expect(r.encoding).toBe('gzip');
    expect(r.child).toContain('<url><loc>https://example.com/%C3%A93</loc>');
  });

  it('counts UTF-8 bytes without Buffer exactly as Node does (file budgets hold in every runtime)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(utf8LengthPortable(s)).toBe(Buffer.byteLength(s));
      }),
      { numRuns: 2000 },
    );
  });
});
