import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SitemapEntry } from '../core/entry.js';
import { HtmlSitemapBuilder } from '../html/html-sitemap.js';

export type HtmlPagesResult = Array<{
  path: string;
  url: string;
  links: number;
  bytes: number;
  sha256: string;
}>;

/** The HTML site map written beside the sitemaps, with the sizes and hashes the manifest needs. */
export function buildHtmlSitemap(
  dir: string,
  baseUrl: string,
  options: { siteName?: string; linksPerPage?: number },
): { add(entry: SitemapEntry): Promise<void>; finish(): Promise<HtmlPagesResult> } {
  const builder = new HtmlSitemapBuilder({ dir, baseUrl, ...options });
  return {
    add: (entry) => builder.add(entry),
    async finish() {
      const files = await builder.finish();
      const out: HtmlPagesResult = [];
      for (const f of files) {
        const data = await readFile(join(dir, f.path));
        out.push({ ...f, bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') });
      }
      return out;
    },
  };
}
