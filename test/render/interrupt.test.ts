/**
 * `sitemapkit crawl URL --render` interrupted by Ctrl-C while a page is being rendered: exit 130,
 * the browser and every process it started gone (no orphan Chromium), the state saved; `--resume`
 * then finishes the crawl with every page of the application.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runBin } from '../support/cli.js';
import { type SpaServer, startSpaServer } from '../support/spa-server.mjs';
import { tempDir } from '../support/tmp.js';
import { alive, chromiumChildren } from './processes.js';

const sites: SpaServer[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

describe('crawl --render interrupted', () => {
  it('Ctrl-C mid-render: exit 130, no Chromium process left, and --resume finishes the crawl', async () => {
    let child: ChildProcess | undefined;
    let browser: number[] = [];
    let hold = true;
    // The rendered /products page asks the API: the browser is running a page right then. That
    // request interrupts the crawl and is never answered (the window is hit on purpose).
    const site = await startSpaServer({
      onPath: (path) => {
        if (path !== '/api/products.json' || !hold) return undefined;
        hold = false;
        browser = chromiumChildren(child!.pid!).map((p) => Number(p.split(' ')[0]));
        child!.kill('SIGINT');
        return false;
      },
    });
    sites.push(site);
    const dir = tempDir('render-int');
    const args = ['crawl', `${site.origin}/`, '--out', 'out', '--state', 'state.db', '--render'];
    child = spawn(process.execPath, [BIN, ...args], {
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
    expect(code, stderr).toBe(130);
    expect(stderr).toMatch(/interrupted: the crawl state is saved/);
    // The browser was running (its processes were seen), and none of them outlived the CLI.
    expect(browser.length).toBeGreaterThan(0);
    expect(browser.filter(alive)).toEqual([]);
    expect(existsSync(join(dir, 'out', 'sitemap.xml'))).toBe(false);

    const resumed = await runBin([...args, '--resume', '--json'], { cwd: dir, limitMs: 120_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const sitemap = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
    for (const p of ['/', '/about', '/products', '/products/3', '/contact', '/blog', '/docs/6.html']) {
      expect(sitemap).toContain(`<loc>${site.origin}${p}</loc>`);
    }
  });
});
