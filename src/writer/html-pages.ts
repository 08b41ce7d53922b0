import { createHash } from 'node:crypto';
import type { SitemapEntry } from '../core/entry.js';
import { HtmlSitemapBuilder } from '../html/html-sitemap.js';
import type { Sink } from './sink.js';

export type HtmlPagesResult = Array<{
  path: string;
  url: string;
  links: number;
  bytes: number;
  sha256: string;
}>;

/** The HTML site map written beside the sitemaps into the same sink, with the sizes and hashes the manifest needs. */
export function buildHtmlSitemap(
  sink: Sink,
  baseUrl: string,
  options: { siteName?: string; linksPerPage?: number },
): { add(entry: SitemapEntry): Promise<void>; finish(): Promise<HtmlPagesResult> } {
  const written = new Map<string, { bytes: number; sha256: string }>();
  const builder = new HtmlSitemapBuilder({
    baseUrl,
    ...options,
    write: (path, html) => {
      const data = Buffer.from(html, 'utf8');
      written.set(path, { bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') });
      return sink.put(path, data);
    },
  });
  return {
    add: (entry) => builder.add(entry),
    async finish() {
      const files = await builder.finish();
      return files.map((f) => ({ ...f, ...written.get(f.path)! }));
    },
  };
}
