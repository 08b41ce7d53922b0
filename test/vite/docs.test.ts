/**
 * docs/vite.md runs verbatim: its two vite.config examples are written into a project folder
 * beside the pages they expect and built with Vite (the config loaded as Node loads it, so that
 * `sitemapkit/vite` resolves to this package as in an app); the output lines the page shows are
 * what the plug-in prints, and its error sentences are the ones it throws.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Logger } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';
import { sitemapkit } from '../../src/vite/plugin.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs/vite.md'), 'utf8');

/** The fenced blocks of the page with their info string (`js`, `sh`, '' for output), in order. */
function blocks(text: string): Array<{ lang: string; body: string }> {
  const out: Array<{ lang: string; body: string }> = [];
  let open: { lang: string; lines: string[] } | undefined;
  for (const line of text.split('\n')) {
    if (open === undefined && line.startsWith('```')) open = { lang: line.slice(3).trim(), lines: [] };
    else if (open !== undefined && line === '```') {
      out.push({ lang: open.lang, body: open.lines.join('\n') });
      open = undefined;
    } else open?.lines.push(line);
  }
  return out;
}
const configs = blocks(DOC)
  .filter((b) => b.lang === 'js')
  .map((b) => `${b.body}\n`);
const shown = blocks(DOC)
  .filter((b) => b.lang === '')
  .map((b) => b.body);

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const readmeSection = README.slice(
  README.indexOf('\n## Vite\n'),
  README.indexOf('\n## ', README.indexOf('\n## Vite\n') + 1),
);
const readmeConfig = blocks(readmeSection).find((b) => b.lang === 'js')!;

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A project folder inside the repository (test/.artifacts, ignored), so that `sitemapkit/…` is this package. */
function project(name: string, files: Record<string, string>): string {
  const base = join(ROOT, 'test', '.artifacts');
  mkdirSync(base, { recursive: true });
  writeFileSync(join(base, '.gitignore'), '*\n');
  const dir = join(base, `${name}-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const page = (title: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`;

async function viteBuild(dir: string): Promise<string[]> {
  const lines: string[] = [];
  const keep = (msg: string): void => {
    lines.push(msg);
  };
  const logger: Logger = {
    info: keep,
    warn: keep,
    warnOnce: keep,
    error: keep,
    clearScreen: () => {},
    hasErrorLogged: () => false,
    hasWarned: false,
  };
  await build({
    root: dir,
    configFile: join(dir, 'vite.config.mjs'),
    configLoader: 'native',
    customLogger: logger,
  });
  return lines;
}

const locs = (xml: string): string[] => [...xml.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

describe('docs/vite.md', () => {
  it('has the two configurations and the three outputs', () => {
    expect(configs.length).toBe(2);
    expect(shown.length).toBe(3);
  });

  it('the multi-page configuration lists both built pages', async () => {
    const dir = project('vite-doc-mpa', {
      'vite.config.mjs': configs[0]!,
      'index.html': page('Home'),
      'about.html': page('About'),
    });
    await viteBuild(dir);
    expect(locs(readFileSync(join(dir, 'dist', 'sitemap.xml'), 'utf8'))).toEqual([
      'https://example.com/about.html',
      'https://example.com/',
    ]);
  });

  it('the single-page configuration lists its routes with the post’s lastmod and cover, and prints the line the page shows', async () => {
    const dir = project('vite-doc-spa', {
      'vite.config.mjs': configs[1]!,
      'index.html': page('Shop'),
    });
    const lines = await viteBuild(dir);
    expect(lines).toContain(shown[0]);
    const xml = readFileSync(join(dir, 'dist', 'sitemap.xml'), 'utf8');
    expect(locs(xml)).toEqual([
      'https://example.com/',
      'https://example.com/pricing',
      'https://example.com/blog/hello-world',
    ]);
    expect(xml).toContain(
      '<lastmod>2024-05-01</lastmod><image:image><image:loc>https://example.com/covers/hello.png</image:loc></image:image>',
    );
    expect(readFileSync(join(dir, 'dist', 'robots.txt'), 'utf8')).toContain(
      'Sitemap: https://example.com/sitemap.xml',
    );
  });

  it('the README’s configuration lists the built home page and the route, each once', async () => {
    const dir = project('vite-doc-readme', {
      'vite.config.mjs': `${readmeConfig.body}\n`,
      'index.html': page('Home'),
    });
    await viteBuild(dir);
    expect(locs(readFileSync(join(dir, 'dist', 'sitemap.xml'), 'utf8'))).toEqual([
      'https://example.com/',
      'https://example.com/pricing',
    ]);
  });

  it('the error sentences are the ones the plug-in throws', async () => {
    expect(() => sitemapkit({ baseUrl: 'https://example.com/', routes: '/about' as never })).toThrow(
      shown[1]!,
    );
    const dir = project('vite-doc-error', { 'index.html': page('Shop') });
    const failed = build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      plugins: [
        sitemapkit({
          baseUrl: 'https://example.com/',
          routes: () => {
            throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
          },
        }),
      ],
    });
    const error = (await failed.catch((e: unknown) => e)) as Error;
    // Vite prints "error during build:" and the error's stack, which is the sentence and its hint.
    expect(`error during build:\n${error.stack}`).toBe(shown[2]);
  });
});
