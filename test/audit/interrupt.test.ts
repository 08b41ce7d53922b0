import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { BIN } from '../support/cli.js';
import { body, html, type Route, startServer, type TestServer, text } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const sites: TestServer[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

describe('sitemapkit audit interrupted', () => {
  it('Ctrl-C: exit 130 with one line, no report folder left, the previous --out sitemaps untouched', async () => {
    let child: ChildProcess | undefined;
    const routes: Record<string, Route> = {
      '/': html('Home', '<a href="/a">a</a><a href="/slow">slow</a>'),
      '/a': html('A'),
      // The crawl's request for this page interrupts the audit and is never answered: the window
      // is hit on purpose, at the same point on a loaded machine as on an idle one.
      '/slow': () => {
        child!.kill('SIGINT');
      },
    };
    const s = await startServer(routes);
    sites.push(s);
    routes['/robots.txt'] = text(`User-agent: *\nAllow: /\nSitemap: ${s.origin}/sitemap.xml\n`);
    routes['/sitemap.xml'] = body(
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${s.origin}/</loc></url></urlset>`,
    );
    const dir = tempDir('sk-audit-int');
    await writeSitemaps([{ loc: `${s.origin}/previous` }], {
      outDir: join(dir, 'out'),
      baseUrl: `${s.origin}/`,
    });
    const before = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
    child = spawn(process.execPath, [BIN, 'audit', s.url, '--out', 'out', '--report', 'report'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdout!.resume();
    const code = await new Promise<number | null>((resolve) => child!.on('close', (c) => resolve(c)));
    expect(code).toBe(130);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/interrupted/);
    expect(existsSync(join(dir, 'report'))).toBe(false);
    expect(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')).toBe(before);
  });
});
