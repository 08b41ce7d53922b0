/**
 * docs/next.md's code runs verbatim: its next-sitemap.config.js is the config of the server build
 * in test/next/next.test.ts, and its route handler and rewrite are the files of
 * examples/next-handler, which test/next/handler-example.test.ts builds and serves. Here: the
 * page shows those files as they are, and its script example runs against a build.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../support/cli.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs/next.md'), 'utf8');

/** The js block that follows the line naming `file` in backquotes. */
function blockAfter(file: string): string {
  const at = DOC.indexOf(`\`${file}\`:\n\n\`\`\`js\n`);
  expect(at, file).toBeGreaterThan(-1);
  const start = DOC.indexOf('```js\n', at) + 6;
  return DOC.slice(start, DOC.indexOf('```', start));
}

describe('docs/next.md', () => {
  it('shows the route handler and the rewrite of examples/next-handler as they are', () => {
    for (const file of ['next.config.mjs', 'app/sitemaps/[file]/route.js'])
      expect(blockAfter(file)).toBe(readFileSync(join(ROOT, 'examples/next-handler', file), 'utf8'));
  });

  it('its script example runs against a server build', async () => {
    const script = /## From a script\n\n```js\n([\s\S]*?)```/.exec(DOC)![1]!;
    // A minimal server build: one prerendered page, as next build leaves it.
    const dir = join(ROOT, 'test', '.artifacts', `next-doc-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(ROOT, 'test', '.artifacts', '.gitignore'), '*\n');
    const put = (rel: string, text: string): void => {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    };
    put('.next/prerender-manifest.json', JSON.stringify({ routes: { '/': { srcRoute: '/' } } }));
    put('.next/routes-manifest.json', '{}');
    put('.next/app-path-routes-manifest.json', JSON.stringify({ '/page': '/' }));
    put('.next/server/app/index.html', '<title>Home</title>');
    put('app.mjs', script);
    const run = await runProcess(process.execPath, ['app.mjs'], { cwd: dir });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^1 URLs in .*public \[\]\n$/);
    expect(readFileSync(join(dir, 'public/robots.txt'), 'utf8')).toContain(
      'Sitemap: https://example.com/sitemap.xml',
    );
    rmSync(dir, { recursive: true, force: true });
  });
});
