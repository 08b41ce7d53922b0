import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runProcess } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// The commands of docs/inputs.md's sections on server logs and existing sitemaps run here
// verbatim, with `sitemapkit` on the PATH, in a folder holding the files they name: the log
// fixtures as access.log and access.log.2.gz, an old sitemap in old/. The printed summary of the
// first is the one the page shows (its time aside). A command aimed at example.com fails as a
// user offline would see it fail: one sentence about the network.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/inputs.md'), 'utf8');
const FIXTURES = new URL('../fixtures/logs/', import.meta.url);

function section(title: string): string {
  const start = PAGE.indexOf(`\n## ${title}`);
  if (start === -1) throw new Error(`docs/inputs.md has no section "${title}"`);
  const end = PAGE.indexOf('\n## ', start + 1);
  return PAGE.slice(start, end === -1 ? undefined : end);
}

function commands(text: string): string[] {
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!.split('\n').filter((l) => l.trim() !== ''),
  );
}

let work = '';
beforeAll(() => {
  work = tempDir('inputs-doc');
  mkdirSync(join(work, 'bin'));
  writeFileSync(join(work, 'bin', 'sitemapkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(work, 'bin', 'sitemapkit'), 0o755);
  copyFileSync(new URL('nginx-combined.log', FIXTURES), join(work, 'access.log'));
  writeFileSync(
    join(work, 'access.log.2.gz'),
    gzipSync(readFileSync(new URL('apache-common.log', FIXTURES))),
  );
  mkdirSync(join(work, 'old'));
  writeFileSync(
    join(work, 'old', 'sitemap.xml'),
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
      '<url><loc>https://example.com/a</loc><lastmod>2026-01-02</lastmod></url>\n<url><loc>https://example.com/b</loc></url>\n</urlset>\n',
  );
});

const run = (line: string) =>
  runProcess('sh', ['-c', line], { cwd: work, env: { PATH: `${join(work, 'bin')}:${process.env['PATH']}` } });

describe('docs/inputs.md: server logs and existing sitemaps, as printed', () => {
  it('the --from-log example prints the summary the page shows', async () => {
    const text = section('Server logs: `--from-log`');
    const [command, ...rest] = commands(text);
    expect(rest).toEqual([]);
    const r = await run(command!);
    expect(r.code, r.stderr).toBe(0);
    const shown = /```\n(Wrote[\s\S]*?)```/.exec(text)![1]!;
    const mask = (s: string): string => s.replace(/in \d+\.\d s/, 'in N s');
    expect(mask(r.stdout)).toBe(mask(shown));
  });

  it('the error the page shows for a format without status and time is the one printed', async () => {
    const text = section('Server logs: `--from-log`');
    const shown = /```\n(sitemapkit: --log-format: [^\n]*?) …/.exec(text)![1]!;
    const r = await run(
      `sitemapkit generate --from-log access.log --site https://example.com/ --log-format '%h "%r" %b' --base-url https://example.com/ --out dist/`,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(shown);
  });

  it('the --from-sitemap examples: a file migrates; a site offline fails in one sentence', async () => {
    const [file, site, ...rest] = commands(section('Existing sitemaps: `--from-sitemap`'));
    expect(rest).toEqual([]);
    const r = await run(file!);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('existing sitemaps: 1 read, 2 URLs');
    expect(readFileSync(join(work, 'dist', 'sitemap.xml'), 'utf8')).toContain(
      '<url><loc>https://example.com/a</loc><lastmod>2026-01-02</lastmod></url>',
    );
    const offline = await run(site!);
    expect(offline.code).toBe(2);
    expect(offline.stderr).toMatch(
      /^sitemapkit: https:\/\/www\.example\.com\/sitemap_index\.xml: .*\[ERR_HTTP\]/,
    );
    expect(offline.stderr).not.toMatch(/^\s+at /m);
  });
});

describe('docs/inputs.md: JSON Lines', () => {
  it('the --threads example runs as printed and writes what one thread writes', async () => {
    const [command, ...rest] = commands(section('JSON Lines'));
    expect(rest).toEqual([]);
    const lines = Array.from({ length: 300 }, (_, i) =>
      JSON.stringify({ loc: `https://example.com/p/${i}`, lastmod: '2024-03-01', priority: 0.5 }),
    );
    writeFileSync(join(work, 'pages.jsonl'), `${lines.join('\n')}\n`);
    const one = await run(command!);
    expect(one.code, one.stderr).toBe(0);
    const two = await run(command!.replace(' --threads 1', '').replace('dist/', 'dist2/'));
    expect(two.code, two.stderr).toBe(0);
    for (const name of ['sitemap.xml', '.sitemapkit-manifest.json']) {
      const strip = (s: string) => s.replace(/"generatedAt":"[^"]*"/, '');
      expect(strip(readFileSync(join(work, 'dist2', name), 'utf8'))).toBe(
        strip(readFileSync(join(work, 'dist', name), 'utf8')),
      );
    }
  });
});
