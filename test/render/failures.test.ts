/**
 * Pages the renderer cannot finish: one whose script never yields (the tab hangs) and one that
 * crashes its renderer (a script that allocates until a small heap is gone: Chromium kills the
 * renderer, `page.on('crash')`). Each is tried once more in a fresh tab, then recorded as failed;
 * the crawl goes on and renders the next pages; no Chromium process is left behind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { crawl } from '../../src/crawler/crawl.js';
import { type SpaServer, startSpaServer } from '../support/spa-server.mjs';
import { tempDir } from '../support/tmp.js';
import { chromiumChildren } from './processes.js';

let site: SpaServer;

beforeAll(async () => {
  site = await startSpaServer();
});
afterAll(async () => {
  await site.close();
});

describe('a hung page and a page that crashes the renderer', () => {
  it('are each tried twice, then recorded as failed; the crawl finishes', async () => {
    const dir = tempDir('render-fail');
    const diagnostics: Diagnostic[] = [];
    const result = await crawl({
      start: [`${site.origin}/hang`, `${site.origin}/crash`, `${site.origin}/docs/1.html`],
      outDir: join(dir, 'out'),
      report: join(dir, 'report'),
      render: true,
      renderTimeoutMs: 2000,
      // A small script heap: the allocating page takes its renderer down at once.
      chromiumArgs: ['--js-flags=--max-old-space-size=64'],
      maxDepth: 1,
      onDiagnostic: (d) => diagnostics.push(d),
    });
    expect(result.complete).toBe(true);
    const rows = new Map(
      readFileSync(join(dir, 'report', 'urls.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .map((r) => [new URL(String(r['url'])).pathname, r]),
    );
    expect(rows.get('/hang')).toMatchObject({ verdict: 'error', rendered: 'failed' });
    expect(String(rows.get('/hang')!['reason'])).toMatch(
      /^rendering failed twice: the page did not answer within/,
    );
    expect(rows.get('/crash')).toMatchObject({
      verdict: 'error',
      rendered: 'failed',
      reason: 'rendering failed twice: the page crashed the renderer',
    });
    // Tried once more each, in a fresh tab: the page's script ran twice.
    expect(site.paths.filter((p) => p === '/api/ping/hang')).toHaveLength(2);
    expect(site.paths.filter((p) => p === '/api/ping/crash')).toHaveLength(2);
    // The crawl went on: the static pages rendered after the failures.
    expect(rows.get('/docs/1.html')).toMatchObject({ verdict: 'listed', rendered: 'yes' });
    expect(rows.get('/docs/6.html')).toMatchObject({ verdict: 'listed', rendered: 'yes' });
    expect(diagnostics.filter((d) => d.code === 'crawl-render-failed').map((d) => d.url)).toEqual(
      expect.arrayContaining([`${site.origin}/hang`, `${site.origin}/crash`]),
    );
    expect(chromiumChildren(process.pid)).toEqual([]);
  });

  it('a missing Chromium is one sentence naming the option, before any request', async () => {
    const before = site.paths.length;
    await expect(
      crawl({
        start: `${site.origin}/`,
        outDir: tempDir('render-none'),
        render: true,
        chromium: '/nowhere/chromium',
      }),
    ).rejects.toMatchObject({
      code: 'ERR_OPTIONS',
      message: 'rendering needs Chromium, and there is none at /nowhere/chromium',
      hint: expect.stringContaining('--chromium PATH'),
    });
    expect(site.paths.length).toBe(before);
  });
});
