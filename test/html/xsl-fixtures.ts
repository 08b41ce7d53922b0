/** Sitemaps for the XSL view tests: the shared valid samples and a few made here. */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Parser } from 'htmlparser2';

export const XSL_PATH: string = fileURLToPath(new URL('../../assets/sitemap.xsl', import.meta.url));
export const SAMPLES_DIR: string = fileURLToPath(new URL('../fixtures/spec/samples/', import.meta.url));

export interface Sample {
  name: string;
  xml: string;
}

/** The shared valid samples (urlsets with every extension, and an index). */
export function validSamples(): Sample[] {
  const dir = join(SAMPLES_DIR, 'valid');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.xml'))
    .sort()
    .map((name) => ({ name, xml: readFileSync(join(dir, name), 'utf8') }));
}

/** Adds `<?xml-stylesheet?>` after the XML declaration, as the writer does with `--xsl`. */
export function withStylesheet(xml: string, href = 'sitemap.xsl'): string {
  const pi = `<?xml-stylesheet type="text/xsl" href="${href}"?>`;
  return /^<\?xml[^>]*\?>/.test(xml) ? xml.replace(/^(<\?xml[^>]*\?>)/, `$1\n${pi}`) : `${pi}\n${xml}`;
}

/** The `loc` of every `url` or `sitemap` of a sitemap, entities decoded, whitespace trimmed. */
export function locsOf(xml: string): string[] {
  const locs: string[] = [];
  const stack: string[] = [];
  let text: string | undefined;
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'loc' && (stack.at(-1) === 'url' || stack.at(-1) === 'sitemap')) text = '';
        stack.push(name);
      },
      ontext(t) {
        if (text !== undefined) text += t;
      },
      onclosetag(name) {
        stack.pop();
        if (name === 'loc' && text !== undefined) {
          locs.push(text.trim());
          text = undefined;
        }
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.end(xml);
  return locs;
}

export interface UrlRow {
  loc: string;
  lastmod?: string;
  changefreq?: string;
  priority?: string;
  images?: number;
  alternates?: string[];
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A urlset written by hand (test input independent of the writer). */
export function urlset(rows: readonly UrlRow[]): string {
  const body = rows
    .map((r) => {
      let s = `<url><loc>${esc(r.loc)}</loc>`;
      if (r.lastmod !== undefined) s += `<lastmod>${esc(r.lastmod)}</lastmod>`;
      if (r.changefreq !== undefined) s += `<changefreq>${esc(r.changefreq)}</changefreq>`;
      if (r.priority !== undefined) s += `<priority>${esc(r.priority)}</priority>`;
      for (let i = 0; i < (r.images ?? 0); i++)
        s += `<image:image><image:loc>${esc(r.loc)}/i${i}.jpg</image:loc></image:image>`;
      for (const lang of r.alternates ?? []) {
        s += `<xhtml:link rel="alternate" hreflang="${lang}" href="${esc(r.loc)}?hl=${lang}"/>`;
      }
      return `${s}</url>`;
    })
    .join('\n');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" ' +
    'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n' +
    `${body}\n</urlset>\n`
  );
}

/** A sitemap index written by hand. */
export function sitemapIndex(children: ReadonlyArray<{ loc: string; lastmod?: string }>): string {
  const body = children
    .map(
      (c) =>
        `<sitemap><loc>${esc(c.loc)}</loc>${c.lastmod === undefined ? '' : `<lastmod>${c.lastmod}</lastmod>`}</sitemap>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`;
}

/** Runs xsltproc (libxslt, the engine Chromium embeds) with the bundled stylesheet. */
export async function xsltproc(xmlFile: string): Promise<string> {
  const { stdout } = await promisify(execFile)('xsltproc', ['--nonet', '--nowrite', XSL_PATH, xmlFile], {
    maxBuffer: 256 * 1024 * 1024,
  });
  return stdout;
}
