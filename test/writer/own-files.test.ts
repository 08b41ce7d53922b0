import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { FolderSink } from '../../src/writer/folder-sink.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// The supporting files of a set (the stylesheet, the HTML site map, the delta feed) often land in
// the site's own folder, where a file of the same name may be the site's (a hand-written site map
// page, a theme's stylesheet, a generator's feed). sitemapkit replaces only the ones it wrote.
const BASE = 'https://example.com/';
const entries = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ loc: `${BASE}p/${i}`, title: `Page ${i}` }));
const FOREIGN = '<!doctype html><title>Our own site map</title>\n';

async function refused(p: Promise<unknown>): Promise<{ code: string; message: string } | undefined> {
  return p.then(
    () => undefined,
    (e: unknown) => e as { code: string; message: string },
  );
}

describe("a folder's own files", () => {
  it.each([
    ['sitemap.html', { html: true }, 'a page of the HTML site map'],
    ['sitemap-00001.html', { html: { linksPerPage: 10 } }, 'a page of the HTML site map'],
    ['sitemap.xsl', { xsl: true }, 'the XSL stylesheet'],
    ['feed.xml', { feed: { format: 'atom' as const } }, 'the delta feed'],
  ])('a %s that sitemapkit did not write is refused, nothing is published', async (name, extra, what) => {
    const out = tempDir();
    writeFileSync(join(out, name), FOREIGN);
    const e = await refused(writeSitemaps(entries(30), { outDir: out, baseUrl: BASE, ...extra }));
    expect(e?.code).toBe('ERR_OUTPUT');
    expect(e?.message).toBe(
      `${join(out, name)} exists and was not written by sitemapkit, so ${what} would replace it; nothing was published`,
    );
    expect(readFileSync(join(out, name), 'utf8')).toBe(FOREIGN);
    expect(readdirSync(out)).toEqual([name]);
  });

  it('its own files from the previous set are replaced as any file of the set', async () => {
    const out = tempDir();
    const o = { outDir: out, baseUrl: BASE, html: true, xsl: true, feed: { format: 'rss' as const } };
    await writeSitemaps(entries(30), o);
    const r = await writeSitemaps(entries(31), o);
    expect(r.html.map((f) => f.path)).toContain(join(out, 'sitemap.html'));
    expect(readFileSync(join(out, 'sitemap.html'), 'utf8')).toContain('Page 30');
    expect(existsSync(join(out, 'sitemap.xsl'))).toBe(true);
  });

  it("a file that an interrupted commit published before its manifest is sitemapkit's own: the rerun replaces it", async () => {
    const out = tempDir();
    const died = new Error('killed');
    const sink = new FolderSink(out, {
      onCommitStep(step) {
        // The process "dies" after the first supporting file is in place, before the manifest.
        if (step === 'moved:sitemap.xsl') throw died;
      },
    });
    const e = await refused(
      writeSitemaps(entries(30), { output: sink, baseUrl: BASE, xsl: true, html: true }),
    );
    expect(e).toBe(died);
    expect(existsSync(join(out, 'sitemap.xsl'))).toBe(true);
    expect(existsSync(join(out, '.sitemapkit-manifest.json'))).toBe(false);
    const r = await writeSitemaps(entries(30), { outDir: out, baseUrl: BASE, xsl: true, html: true });
    expect(r.files.map((f) => f.path)).toEqual([join(out, 'sitemap.xml')]);
    expect(readdirSync(out).filter((n) => n.startsWith('.sitemapkit-tmp-'))).toEqual([]);
  });

  it('a store build refuses a foreign sitemap.xsl too', async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    const s = await openStore(join(dir, 'site.db'), { baseUrl: BASE });
    try {
      await s.sync(entries(5));
      await s.build({ outDir: out });
      writeFileSync(join(out, 'sitemap.xsl'), FOREIGN);
      const e = await refused(s.build({ outDir: out, xsl: true }));
      expect(e?.message).toBe(
        `${join(out, 'sitemap.xsl')} exists and was not written by sitemapkit, so the XSL stylesheet would replace it; nothing was published`,
      );
      expect(readFileSync(join(out, 'sitemap.xsl'), 'utf8')).toBe(FOREIGN);
    } finally {
      await s.close();
    }
  });

  it('the CLI says it in one sentence and exits 2', async () => {
    const dir = tempDir();
    const list = join(dir, 'urls.txt');
    writeFileSync(list, `${BASE}a\n${BASE}b\n`);
    const out = join(dir, 'public');
    await runBin(['generate', list, '--base-url', BASE, '--out', out]);
    writeFileSync(join(out, 'sitemap.html'), FOREIGN);
    const r = await runBin(['generate', list, '--base-url', BASE, '--out', out, '--html']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `${join(out, 'sitemap.html')} exists and was not written by sitemapkit, so a page of the HTML site map would replace it; nothing was published`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readFileSync(join(out, 'sitemap.html'), 'utf8')).toBe(FOREIGN);
  });
});
