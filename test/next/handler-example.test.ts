/**
 * examples/next-handler built by `next build` and served by `next start` on a loopback port: the
 * sitemaps of a SQLite table, served at request time by one App Router route handler that a
 * rewrite reaches from the site root, answer valid sitemaps (the index, every child) and 304 on a
 * repeat with If-None-Match.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyApp, NEXT_BIN, NEXT_ENV, nextBuild, removeApps } from '../support/next-build.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';

const PAGES = 120;
const PER_FILE = 50;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

describe('examples/next-handler under next start', () => {
  let dir: string;
  let server: ChildProcess | undefined;
  let origin: string;
  const env: NodeJS.ProcessEnv = {};

  beforeAll(async () => {
    assertXmllint();
    dir = copyApp('examples/next-handler', 'next-handler');
    env['PAGES_DB'] = join(dir, 'pages.db');
    env['SITEMAP_URLS_PER_FILE'] = String(PER_FILE);
    execFileSync(process.execPath, ['scripts/seed.mjs', String(PAGES)], {
      cwd: dir,
      env: { ...process.env, ...env },
    });
    const seconds = await nextBuild(dir, env);
    process.stderr.write(`next build (handler example): ${seconds.toFixed(1)} s\n`);
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [NEXT_BIN, 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: dir,
      env: { ...process.env, ...NEXT_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    let output = '';
    // Ready when it says so; a server that dies first fails the suite with what it printed.
    await new Promise<void>((resolve, reject) => {
      const onData = (d: Buffer): void => {
        output += d.toString();
        if (/Ready in/.test(output)) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`next start ended (${code}):\n${output}`)));
    });
  }, 600_000);

  afterAll(async () => {
    if (server !== undefined && server.exitCode === null) {
      const ended = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGTERM');
      await ended;
    }
    removeApps();
  });

  async function fetchFile(name: string, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${origin}/${name}`, { headers });
  }

  function valid(name: string, text: string): void {
    const file = join(dir, `served-${name}`);
    writeFileSync(file, text);
    const r = xmllint(file);
    expect(r.ok, `${name}: ${r.output}`).toBe(true);
  }

  it('answers the index at the site root, over every child', async () => {
    const res = await fetchFile('sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const text = await res.text();
    valid('sitemap.xml', text);
    const children = [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(children).toEqual([
      'https://example.com/sitemap-00001.xml',
      'https://example.com/sitemap-00002.xml',
      'https://example.com/sitemap-00003.xml',
    ]);
  });

  it('answers every child, valid, with every page of the table once', async () => {
    const locs: string[] = [];
    for (const name of ['sitemap-00001.xml', 'sitemap-00002.xml', 'sitemap-00003.xml']) {
      const res = await fetchFile(name);
      expect(res.status, name).toBe(200);
      const text = await res.text();
      valid(name, text);
      locs.push(...[...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!));
    }
    expect(locs).toHaveLength(PAGES);
    expect(new Set(locs).size).toBe(PAGES);
    expect(locs[0]).toBe('https://example.com/');
    expect((await fetchFile('sitemap-00004.xml')).status).toBe(404);
  });

  it('answers 304 to a repeat with If-None-Match', async () => {
    const first = await fetchFile('sitemap-00002.xml');
    await first.arrayBuffer();
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetchFile('sitemap-00002.xml', { 'if-none-match': etag! });
    expect(again.status).toBe(304);
  });
});
