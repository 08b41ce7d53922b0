/**
 * `sitemapkit serve --store FILE`: the built CLI serving a site store opened read-only, requested
 * over 127.0.0.1: every child byte for byte the file a build of the same store writes, an index
 * that dates every child, a write by another process served at once (only its child changes),
 * and the usage errors in one line each.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { BIN, runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { BASE, get, xsdProblems } from './fixtures.js';

const at = (day: number): Date => new Date(Date.UTC(2026, 0, day));
const entry = (i: number, lastmod = '2026-01-01') => ({
  loc: `${BASE}p/${i}`,
  lastmod,
  ...(i % 4 === 0 ? { images: [{ loc: `${BASE}img/${i}.jpg` }] } : {}),
});
const locs = (text: string): string[] => [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);

let dir: string;
let storePath: string;
let child: ChildProcess;
let origin: string;
let stderr = '';

beforeAll(async () => {
  dir = tempDir('sk-serve-store');
  storePath = join(dir, 'site.db');
  const store = await openStore(storePath, { baseUrl: BASE, maxUrlsPerFile: 10, now: () => at(2) });
  await store.add(Array.from({ length: 25 }, (_, i) => entry(i + 1)));
  await store.build({ outDir: join(dir, 'out'), lastmodPolicy: 'keep' });
  await store.close();
  child = spawn(process.execPath, [BIN, 'serve', '--store', storePath, '--port', '0', '--json'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  origin = (JSON.parse(String(line)) as { url: string }).url.replace(/\/$/, '');
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('sitemapkit serve --store', () => {
  it('serves every child byte for byte as a build of the store wrote it, and an index dating each', async () => {
    const out = join(dir, 'out');
    const built = readFileSync(join(out, 'sitemap.xml'), 'utf8');
    const index = await get(origin, '/sitemap.xml');
    expect(index.status).toBe(200);
    expect(xsdProblems('sitemap.xml', index.text)).toBe('');
    // The build published every file as it is: each child dated as its index dates it.
    expect(index.text).toBe(built);
    expect(index.text.match(/<lastmod>2026-01-02T00:00:00Z<\/lastmod>/g)?.length).toBe(3);
    for (const url of locs(built)) {
      const name = url.slice(BASE.length);
      const got = await get(origin, `/${name}`, { 'accept-encoding': 'gzip' });
      expect([name, got.status, got.headers['content-encoding']]).toEqual([name, 200, 'gzip']);
      expect(got.text).toBe(readFileSync(join(out, name), 'utf8'));
    }
    expect(stderr).toBe('');
  });

  it('serves a write by another process at once: only the child holding the URL changes', async () => {
    const before = new Map<string, Awaited<ReturnType<typeof get>>>();
    for (const n of [1, 2, 3]) before.set(`sitemap-0000${n}.xml`, await get(origin, `/sitemap-0000${n}.xml`));
    const index = await get(origin, '/sitemap.xml');
    const writer = await openStore(storePath, { now: () => at(3) });
    await writer.add([entry(13, '2026-01-03')]);
    await writer.build({ outDir: join(dir, 'out'), lastmodPolicy: 'keep' });
    await writer.close();
    for (const [name, old] of before) {
      const now = await get(origin, `/${name}`);
      expect(now.text).toBe(readFileSync(join(dir, 'out', name), 'utf8'));
      if (name === 'sitemap-00002.xml') {
        expect(now.text).toContain('<lastmod>2026-01-03</lastmod>');
        expect(now.headers['etag']).not.toBe(old.headers['etag']);
      } else expect([name, now.headers['etag']]).toEqual([name, old.headers['etag']]);
    }
    // In the index, the changed child's lastmod moves on to the build that published it; the
    // others keep theirs: the rebuilt index, byte for byte.
    const dates = (text: string): string[] =>
      [...text.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((m) => m[1]!);
    const [a, , c] = dates(index.text);
    const after = await get(origin, '/sitemap.xml');
    expect(after.text).toBe(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8'));
    expect(dates(after.text)).toEqual([a, '2026-01-03T00:00:00Z', c]);

    // A write no build has published yet: its child is dated by when the server first saw the
    // change (the clock of this machine, later than any build here); the others keep their
    // builds' dates.
    const hook = await openStore(storePath, { now: () => at(4) });
    await hook.add([{ loc: `${BASE}p/26` }]);
    await hook.close();
    const [a3, b3, c3] = dates((await get(origin, '/sitemap.xml')).text);
    expect([a3, b3]).toEqual([a, '2026-01-03T00:00:00Z']);
    expect(Date.parse(c3!)).toBeGreaterThan(Date.parse('2026-01-04'));
    expect((await get(origin, '/sitemap-00003.xml')).text).toContain(`${BASE}p/26`);
  });

  it('refuses a store that does not exist, a folder with --store, neither, and a bad --news-window, in one line, exit 2', async () => {
    const missing = await runBin(['serve', '--store', join(dir, 'nothing.db'), '--port', '0']);
    expect(missing.code).toBe(2);
    // One sentence (and the CLI's pointer to --help), never a stack.
    expect(missing.stderr.split('\n')[0]).toMatch(
      /^sitemapkit: there is no site store at .*nothing\.db: build one first/,
    );
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    const both = await runBin(['serve', dir, '--store', storePath, '--port', '0']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/give a folder or --store, not both/);
    const window = await runBin(['serve', '--store', storePath, '--news-window', 'soon', '--port', '0']);
    expect(window.code).toBe(2);
    expect(window.stderr.split('\n')[0]).toMatch(/--news-window/);
    const folderWindow = await runBin(['serve', dir, '--news-window', '1d', '--port', '0']);
    expect(folderWindow.code).toBe(2);
    expect(folderWindow.stderr).toMatch(/--news-window applies to --store/);
    const neither = await runBin(['serve', '--port', '0']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(/give the folder generate wrote, or a site store with --store FILE/);
  });

  it('stops on Ctrl-C with exit code 130', async () => {
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(130);
  });
});
