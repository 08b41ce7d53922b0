import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { readSitemapText } from '../support/xmllint.js';

const BASE = 'https://example.com/';

function generate(input: string, out: string, ...extra: string[]): ReturnType<typeof runBin> {
  return runBin(['generate', input, '--base-url', BASE, '--out', out, ...extra]);
}

describe('generate --on-invalid: what is written passes validate', () => {
  it('skip: a one-sided hreflang group is written without its alternates, and validate passes', async () => {
    const dir = tempDir();
    // /en lists /de, which lists nothing: the group is one-sided.
    writeFileSync(
      join(dir, 'urls.csv'),
      `url,hreflang:en,hreflang:de\n${BASE}en,${BASE}en,${BASE}de\n${BASE}de,,\n`,
    );
    const out = join(dir, 'out');
    const r = await generate(join(dir, 'urls.csv'), out, '--on-invalid', 'skip');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('hreflang-not-reciprocal');
    expect(r.stderr).toContain(`${BASE}de`);
    expect(readSitemapText(join(out, 'sitemap.xml'))).not.toContain('xhtml:link');
    const v = await runBin(['validate', join(out, 'sitemap.xml')]);
    expect(v.code, `${v.stdout}${v.stderr}`).toBe(0);
  });

  it('drop-field: a bad lastmod loses the field, not the URL; a bad loc is still skipped', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'urls.csv'),
      `url,lastmod,priority\n${BASE}a,yesterday,0.5\n${BASE}b,2024-01-02,2\nnot-a-url,2024-01-02,\n`,
    );
    const out = join(dir, 'out');
    const r = await generate(join(dir, 'urls.csv'), out, '--on-invalid', 'drop-field');
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/Wrote 2 URLs/);
    expect(r.stdout).toMatch(/1 invalid or duplicate record skipped/);
    expect(r.stderr).toMatch(/warning lastmod-invalid \(lastmod\)/);
    const xml = readSitemapText(join(out, 'sitemap.xml'));
    expect(xml).toContain(`<url><loc>${BASE}a</loc><priority>0.5</priority></url>`);
    expect(xml).toContain(`<url><loc>${BASE}b</loc><lastmod>2024-01-02</lastmod></url>`);
    const v = await runBin(['validate', join(out, 'sitemap.xml')]);
    expect(v.code, `${v.stdout}${v.stderr}`).toBe(0);
  });

  it('lists drop-field in --help', async () => {
    const r = await runBin(['generate', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/choices: "fail", "skip", "drop-field"/);
  });
});
