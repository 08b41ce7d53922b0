/**
 * `customSitemaps`: other sitemaps listed in the written index beside the generated children, as
 * `@astrojs/sitemap` lists them. The writer knows only its own children, so the published index
 * is rewritten once more, atomically (a reader sees the old index or the new one, never half).
 */
import { readFile } from 'node:fs/promises';
import { gunzipSync, gzipSync } from 'node:zlib';
import { SitemapkitError } from '../core/errors.js';
import { MAX_URLS } from '../core/limits.js';
import { escapeXml } from '../core/xml.js';
import { writeFileAtomic } from '../writer/atomic.js';
import type { WriteSitemapsResult } from '../writer/write-sitemaps.js';

/** Adds `<sitemap><loc>URL</loc></sitemap>` for each of `urls` to the set's (first) index. */
export async function addCustomSitemaps(result: WriteSitemapsResult, urls: readonly string[]): Promise<void> {
  const index = result.roots[0]!;
  if (index.kind !== 'index') {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      "sitemap({ customSitemaps }) needs a sitemap index to list them in, and with names: 'sitemapkit' a set of one file has none",
      { hint: "leave names out (the default, 'astro', always writes an index)" },
    );
  }
  if (index.urls + urls.length > MAX_URLS) {
    throw new SitemapkitError(
      'ERR_LIMIT',
      `sitemap({ customSitemaps }) would make the index list ${(index.urls + urls.length).toLocaleString('en-US')} sitemaps, more than the protocol's 50,000`,
    );
  }
  const data = await readFile(index.path);
  const gzip = data[0] === 0x1f && data[1] === 0x8b;
  const text = (gzip ? gunzipSync(data) : data).toString('utf8');
  const end = text.lastIndexOf('</sitemapindex>');
  const added = urls.map((u) => `<sitemap><loc>${escapeXml(u)}</loc></sitemap>\n`).join('');
  const next = `${text.slice(0, end)}${added}${text.slice(end)}`;
  await writeFileAtomic(index.path, gzip ? gzipSync(next) : next, {
    doing: 'list customSitemaps in the index',
  });
  index.urls += urls.length;
}
