import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { runProcess } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// The astro.config.mjs examples of docs/astro.md, each written verbatim into a copy of the test
// fixture site and built with the `astro build` command, sitemapkit installed as a user has it
// (node_modules/sitemapkit is this repository, built). The log the page shows is what it prints.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/astro.md'), 'utf8');
const ASTRO = join(ROOT, 'node_modules/astro/astro.js');
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** The ```js blocks that are an astro.config.mjs. */
const configs = [...PAGE.matchAll(/```js\n(\/\/ astro\.config\.mjs[\s\S]*?)```/g)].map((m) => m[1]!);

/** A copy of the fixture site with `config` as its astro.config.mjs, built by `astro build`. */
async function build(config: string): Promise<{ dist: string; log: string[] }> {
  const root = tempDir('sk-astro-doc');
  made.push(root);
  cpSync(join(ROOT, 'test/fixtures/astro/site'), root, { recursive: true });
  mkdirSync(join(root, 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules/astro'), join(root, 'node_modules/astro'), 'dir');
  symlinkSync(ROOT, join(root, 'node_modules/sitemapkit'), 'dir');
  writeFileSync(join(root, 'astro.config.mjs'), config);
  const r = await runProcess(process.execPath, [ASTRO, 'build'], {
    cwd: root,
    env: { ASTRO_TELEMETRY_DISABLED: '1', NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  expect(r.code, r.stderr + r.stdout).toBe(0);
  // Astro's lines are `HH:MM:SS [name] message`.
  const log = `${r.stdout}${r.stderr}`
    .split('\n')
    .map((l) => l.replace(/^\d\d:\d\d:\d\d /, ''))
    .filter((l) => l.startsWith('[sitemapkit]'));
  return { dist: join(root, 'dist'), log };
}

describe('docs/astro.md', () => {
  it('has the set-up and the extras example', () => {
    expect(configs).toHaveLength(2);
  });

  it('the set-up builds the site with its sitemaps and prints the log the page shows', async () => {
    const { dist, log } = await build(configs[0]!);
    expect(readdirSync(dist).filter((n) => n.startsWith('sitemap'))).toEqual([
      'sitemap-0.xml',
      'sitemap-index.xml',
    ]);
    expect(readFileSync(join(dist, 'robots.txt'), 'utf8')).toContain(
      'Sitemap: https://www.example.com/sitemap-index.xml',
    );
    const shown = /in `dist\/`\. Astro's log shows what happened:\n\n```\n([\s\S]*?)```/.exec(PAGE)![1]!;
    expect(log.join('\n')).toBe(shown.trimEnd());
  });

  it('the extras example: chunks, gzip and the readable view', async () => {
    const { dist } = await build(configs[1]!);
    const names = readdirSync(dist).filter((n) => n.startsWith('sitemap'));
    expect(names.sort()).toEqual([
      'sitemap-blog-0.xml.gz',
      'sitemap-index.xml.gz',
      'sitemap-pages-0.xml.gz',
      'sitemap.xsl',
    ]);
    const blog = gunzipSync(readFileSync(join(dist, 'sitemap-blog-0.xml.gz'))).toString('utf8');
    expect(blog).toContain('<loc>https://www.example.com/blog/first-post/</loc>');
    expect(blog).toContain('<?xml-stylesheet');
    const pages = gunzipSync(readFileSync(join(dist, 'sitemap-pages-0.xml.gz'))).toString('utf8');
    expect(pages).not.toContain('/drafts/');
  });
});
