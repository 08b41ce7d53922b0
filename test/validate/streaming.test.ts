import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { tempDir } from '../support/tmp.js';

const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const N = 1_000_000;
const LIMIT_MIB = 200;

function* entries(): Generator<{ loc: string; lastmod: string }> {
  for (let i = 0; i < N; i++) {
    yield {
      loc: `https://example.com/catalogue/${i % 500}/item-${i}${i % 3 === 0 ? `?colour=${i % 7}` : ''}`,
      lastmod: `20${String(10 + (i % 15))}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`,
    };
  }
}

// The validator in a child process of its own, so that its peak RSS is its own (the tree is
// written by this process beforehand).
const CHILD = `
const { validateSitemap } = await import(process.argv[1]);
const r = await validateSitemap(process.argv[2], { recursive: true, sitemapUrl: 'https://example.com/sitemap.xml' });
process.stdout.write(JSON.stringify({ summary: r.summary, rules: r.rules.map((x) => x.code), maxRssKiB: process.resourceUsage().maxRSS }));
`;

describe('streaming', () => {
  it(`validates a tree of ${N.toLocaleString('en-US')} URLs across files with peak RSS under ${LIMIT_MIB} MB`, async () => {
    const dir = tempDir('sk-validate-1m');
    const written = await writeSitemaps(entries(), { outDir: dir, baseUrl: 'https://example.com/' });
    expect(written.urls).toBe(N);
    const child = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', CHILD, DIST, join(dir, 'sitemap.xml')],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    expect(child.status, child.stderr).toBe(0);
    const out = JSON.parse(child.stdout) as {
      summary: { urls: number; sitemaps: number; errors: number; warnings: number };
      rules: string[];
      maxRssKiB: number;
    };
    expect(out.summary).toMatchObject({ urls: N, sitemaps: 21, errors: 0, warnings: 0 });
    expect(out.rules).toEqual([]);
    const mib = out.maxRssKiB / 1024;
    console.log(`validated ${N.toLocaleString('en-US')} URLs in 21 files: peak RSS ${mib.toFixed(0)} MiB`);
    expect(mib).toBeLessThan(LIMIT_MIB);
  }, 180_000);
});
