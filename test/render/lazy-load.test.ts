/**
 * playwright-core is a dependency of the renderer alone, loaded when the first page is rendered:
 * every other file of src/ (a plain crawl, the CLI starting up) never imports it, and the renderer
 * only lazily (types are erased).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith('.ts') ? [p] : [];
  });
}

describe('playwright-core', () => {
  it('is imported by src/render/renderer.ts only, and there only lazily or for types', () => {
    const users: string[] = [];
    for (const f of files(SRC)) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/^.*['"]playwright(?:-core)?['"].*$/gm)) {
        users.push(`${relative(SRC, f)}: ${m[0].trim()}`);
      }
    }
    expect(users).toEqual([
      "render/renderer.ts: import type { Browser, BrowserContext, Page, Route } from 'playwright-core';",
      "render/renderer.ts: type Playwright = typeof import('playwright-core');",
      "render/renderer.ts: return await import('playwright-core');",
    ]);
  });
});
