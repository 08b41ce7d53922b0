/**
 * `sitemapkit serve --store FILE` of a store whose format is `txt`: the built CLI over 127.0.0.1
 * serves the files a build of the store writes, under their names and types (each child as
 * `NAME.txt`, text/plain, listed as such by the XML index; a store of one file as `sitemap.txt`
 * alone), byte for byte, and the `.xml` paths the build did not write are 404s that say where to
 * look.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { BIN } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { BASE, get, xsdProblems } from './fixtures.js';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

/** A text store of `n` URLs, built into `out`, served by the CLI: its folder, origin and JSON line. */
async function servedTextStore(
  n: number,
): Promise<{ out: string; origin: string; line: { url: string; sitemap: string } }> {
  const dir = tempDir('sk-serve-txt');
  const path = join(dir, 'site.db');
  const store = await openStore(path, { baseUrl: BASE, format: 'txt', maxUrlsPerFile: 10 });
  await store.add(Array.from({ length: n }, (_, i) => ({ loc: `${BASE}p/${i + 1}`, lastmod: '2026-01-01' })));
  await store.build({ outDir: join(dir, 'out'), lastmodPolicy: 'keep' });
  await store.close();
  const child = spawn(process.execPath, [BIN, 'serve', '--store', path, '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const [data] = (await once(child.stdout!, 'data')) as [Buffer];
  const line = JSON.parse(String(data)) as { url: string; sitemap: string };
  return { out: join(dir, 'out'), origin: line.url.replace(/\/$/, ''), line };
}

/** The files a build wrote (its manifest left out). */
const built = (out: string): string[] =>
  readdirSync(out)
    .filter((f) => !f.startsWith('.'))
    .sort();

describe('sitemapkit serve --store of a text store', () => {
  it('serves each child as NAME.txt (text/plain), listed so by the index, byte for byte as the build wrote them', async () => {
    const { out, origin, line } = await servedTextStore(25);
    expect(built(out)).toEqual([
      'sitemap-00001.txt',
      'sitemap-00002.txt',
      'sitemap-00003.txt',
      'sitemap.xml',
    ]);
    expect(line.sitemap).toBe(`${origin}/sitemap.xml`);
    for (const name of built(out)) {
      const got = await get(origin, `/${name}`, { 'accept-encoding': 'gzip' });
      expect([name, got.status, got.headers['content-type']]).toEqual([
        name,
        200,
        name.endsWith('.txt') ? 'text/plain; charset=utf-8' : 'application/xml; charset=utf-8',
      ]);
      expect(got.text).toBe(readFileSync(join(out, name), 'utf8'));
    }
    const index = await get(origin, '/sitemap.xml');
    expect(xsdProblems('sitemap.xml', index.text)).toBe('');
    expect([...index.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1])).toEqual([
      `${BASE}sitemap-00001.txt`,
      `${BASE}sitemap-00002.txt`,
      `${BASE}sitemap-00003.txt`,
    ]);
    // The build wrote no XML child: its path says where the file is.
    const xml = await get(origin, '/sitemap-00001.xml');
    expect([xml.status, xml.text]).toEqual([404, 'the set is published as text: read sitemap-00001.txt\n']);
    // The readable view links the text files.
    const view = await get(origin, '/sitemap.html');
    expect(view.text).toContain('<a href="sitemap-00001.txt">sitemap-00001.txt</a>');
    expect(view.text).toContain('listed by <a href="sitemap.xml">sitemap.xml</a>');
    expect((await get(origin, '/sitemap-00002.html')).text).toContain('<a href="sitemap-00002.txt">');
  });

  it('serves a text store of one file as sitemap.txt alone, the entry point it prints', async () => {
    const { out, origin, line } = await servedTextStore(5);
    expect(built(out)).toEqual(['sitemap.txt']);
    expect(line.sitemap).toBe(`${origin}/sitemap.txt`);
    const got = await get(origin, '/sitemap.txt');
    expect([got.status, got.headers['content-type']]).toEqual([200, 'text/plain; charset=utf-8']);
    expect(got.text).toBe(readFileSync(join(out, 'sitemap.txt'), 'utf8'));
    const xml = await get(origin, '/sitemap.xml');
    expect([xml.status, xml.text]).toEqual([404, 'the set is published as text: read sitemap.txt\n']);
  });
});
