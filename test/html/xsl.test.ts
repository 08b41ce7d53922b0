/**
 * The bundled XSL view, checked with xsltproc (libxslt, the XSLT engine Chromium embeds): every
 * sample becomes a valid HTML5 page whose table lists exactly the sitemap's URLs.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePage, validateHtml } from './helpers.js';
import {
  locsOf,
  SAMPLES_DIR,
  sitemapIndex,
  urlset,
  validSamples,
  XSL_PATH,
  xsltproc,
} from './xsl-fixtures.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sitemapkit-xsl-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function transform(name: string, xml: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, xml);
  const html = await xsltproc(file);
  await writeFile(`${file}.html`, html);
  return html;
}

/** The table's link targets in row order, and the number of rows. */
function tableOf(html: string): { hrefs: string[]; rows: number } {
  const body = html.slice(html.indexOf('<tbody>'), html.indexOf('</tbody>'));
  return {
    hrefs: parsePage(body)
      .anchors.filter((a) => /^https?:/i.test(a.href))
      .map((a) => a.href),
    rows: body.split('<tr>').length - 1,
  };
}

describe('assets/sitemap.xsl with xsltproc', () => {
  it('is well-formed XSLT 1.0 (xmllint) and loads nothing from the network', async () => {
    await promisify(execFile)('xmllint', ['--noout', '--nonet', XSL_PATH]);
    const xsl = await readFile(XSL_PATH, 'utf8');
    expect(xsl).toMatch(/<xsl:stylesheet version="1\.0"/);
    // The only URLs in it are namespace names and the protocol link in the footer.
    const urls = [...xsl.matchAll(/(?:src|href)="(https?:[^"]*)"/g)].map((m) => m[1]);
    expect(urls).toEqual(['https://www.sitemaps.org/protocol.html']);
    expect(xsl).not.toMatch(/@import|url\(|<link[^>]+stylesheet|<script[^>]+src/);
  });

  it('turns every shared valid sample into a table of exactly its URLs', async () => {
    const samples = validSamples();
    expect(samples.map((s) => s.name)).toContain('index.xml');
    for (const sample of samples) {
      const html = await transform(sample.name, sample.xml);
      const locs = locsOf(sample.xml);
      expect(locs.length, sample.name).toBeGreaterThan(0);
      const table = tableOf(html);
      expect(table.hrefs, sample.name).toEqual(locs);
      expect(table.rows, sample.name).toBe(locs.length);
      const count = /<strong id="count">([\d,]+)<\/strong>/.exec(html)?.[1];
      expect(count, sample.name).toBe(String(locs.length));
      expect(html, sample.name).toContain(
        sample.name === 'index.xml' ? '<h1>Sitemap index</h1>' : '<h1>Sitemap</h1>',
      );
    }
  });

  it('shows extension counts only for extensions in use, with the hreflangs and video titles', async () => {
    const byName = new Map(validSamples().map((s) => [s.name, s.xml]));
    const hreflang = await transform('h.xml', byName.get('hreflang.xml')!);
    expect(hreflang).toContain('>Alternates</th>');
    expect(hreflang).not.toContain('>Images</th>');
    expect(hreflang).toContain('title="de, de-ch, en, x-default">4</td>');
    const video = await transform('v.xml', byName.get('video.xml')!);
    expect(video).toContain('title="Grilling steaks for summer">1</td>');
    const basic = await transform('b.xml', byName.get('basic.xml')!);
    expect(basic).not.toMatch(/>(Images|Videos|Alternates|News|Mobile)<\/th>/);
    const mobile = await transform('m.xml', byName.get('mobile.xml')!);
    expect(mobile).toContain('>Mobile</th>');
  });

  it('shows a column only when some URL fills it', async () => {
    const heads = (html: string): string[] => [...html.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]!);
    const bare = await transform('bare.xml', urlset([{ loc: 'https://example.com/' }]));
    expect(heads(bare)).toEqual(['#', 'URL']);
    expect(tableOf(bare).rows).toBe(1);
    expect(bare).toContain(
      '<td class="url"><a href="https://example.com/">https://example.com/</a></td></tr>',
    );
    const some = await transform(
      'some.xml',
      urlset([
        { loc: 'https://example.com/', priority: '0.5' },
        { loc: 'https://example.com/a', changefreq: ' ' },
      ]),
    );
    expect(heads(some)).toEqual(['#', 'URL', 'Priority']);
    const index = await transform('bare-index.xml', sitemapIndex([{ loc: 'https://example.com/s.xml' }]));
    expect(heads(index)).toEqual(['#', 'Sitemap']);
  });

  it('keeps hostile content as text and links only http(s) locations', async () => {
    const xml = urlset([
      { loc: 'javascript:alert(document.domain)' },
      { loc: 'JavaScript://%0Aalert(1)' },
      { loc: 'https://example.com/"><script>alert(1)</script>' },
      { loc: '  HTTPS://Example.com/ok  ', lastmod: '<b>2024</b>' },
    ]);
    const html = await transform('hostile.xml', xml);
    const page = parsePage(html);
    expect(page.anchors.map((a) => a.href).filter((h) => !/^https?:\/\//i.test(h))).toEqual([]);
    // libxslt's html output escapes '"' in URI attributes (XSLT 1.0 §16.2); the rest stays attribute text.
    expect(tableOf(html).hrefs).toEqual([
      'https://example.com/%22><script>alert(1)</script>',
      'HTTPS://Example.com/ok',
    ]);
    // One script element: the stylesheet's own sorting script.
    expect(html.match(/<script>/g)).toHaveLength(1);
    expect(html).toContain('javascript:alert(document.domain)</td>');
    expect(html).toContain('&lt;b&gt;2024&lt;/b&gt;');
  });

  it('says plainly when the document is not a sitemap', async () => {
    const html = await xsltproc(join(SAMPLES_DIR, 'invalid', 'wrong-namespace.xml'));
    expect(html).toContain('<h1>Not a sitemap</h1>');
    expect(tableOf(html).rows).toBe(0);
  });

  it('produces valid HTML5 (W3C Nu HTML Checker) for urlsets, indexes and the not-a-sitemap page', async () => {
    const files: string[] = [];
    for (const sample of validSamples()) {
      await transform(sample.name, sample.xml);
      files.push(join(dir, `${sample.name}.html`));
    }
    await transform(
      'idx.xml',
      sitemapIndex([{ loc: 'https://example.com/a.xml' }, { loc: 'https://example.com/b.xml' }]),
    );
    files.push(join(dir, 'idx.xml.html'));
    await copyFile(join(SAMPLES_DIR, 'invalid', 'wrong-namespace.xml'), join(dir, 'wrong.xml'));
    await writeFile(join(dir, 'wrong.xml.html'), await xsltproc(join(dir, 'wrong.xml')));
    files.push(join(dir, 'wrong.xml.html'));
    expect(await validateHtml(files)).toEqual([]);
  });
});
