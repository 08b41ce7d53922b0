/** The rendering flags of `sitemapkit crawl`, worded as flags: usage errors are exit 2 and one sentence. */
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

describe('sitemapkit crawl --render flags', () => {
  it('refuses a --render mode other than auto, naming the likely mistake', async () => {
    const r = await cli(['crawl', '--render', 'http://127.0.0.1:9/', '--out', tempDir('render-cli')]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      'sitemapkit: --render takes "auto" or nothing, not "http://127.0.0.1:9/" (give the start URL before --render: sitemapkit crawl URL --render)',
    );
  });

  it('refuses the rendering options without --render', async () => {
    for (const flag of [
      ['--render-concurrency', '3'],
      ['--render-timeout', '5s'],
      ['--chromium', '/usr/bin/chromium'],
    ]) {
      const r = await cli(['crawl', 'http://127.0.0.1:9/', '--out', tempDir('render-cli'), ...flag]);
      expect(r.code, flag[0]).toBe(2);
      expect(r.stderr).toContain(`${flag[0]} needs --render (or --render auto)`);
    }
  });

  it('names --chromium when there is no Chromium, before any request', async () => {
    const r = await cli([
      'crawl',
      'http://127.0.0.1:9/',
      '--out',
      tempDir('render-cli'),
      '--render',
      '--chromium',
      '/nowhere/chromium',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('rendering needs Chromium, and there is none at /nowhere/chromium');
    expect(r.stderr).toContain('--chromium PATH');
  });
});
