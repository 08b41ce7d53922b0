/**
 * The pages of a finished `next build` as writer records (`generate --from-next`): each page's URL
 * on the site, and what its HTML shows, read as `--from-dir` reads a static site. No next-sitemap
 * option applies here; `sitemapkit next` is the command that takes them.
 */
import type { DiagnosticHandler } from '../core/diagnostics.js';
import type { ImageFilterOptions } from '../page/image-filter.js';
import type { SourceRecord } from '../sources/record.js';
import { readStaticSite } from '../sources/static-site.js';
import { readNextBuild } from './build.js';
import { nextPageUrl } from './fields.js';

export interface NextPagesOptions {
  /** The Next.js project folder, or its static export folder. */
  dir: string;
  /** The build folder, relative to `dir`. @default '.next' */
  distDir?: string;
  /** The site's public URL (with the basePath, if any). */
  siteUrl: string;
  /** lastmod from the time `next build` wrote each page, or none. @default 'none' */
  lastmod?: 'mtime' | 'none';
  /** List the pages' images. @default true */
  images?: boolean;
  imageFilter?: ImageFilterOptions;
  onDiagnostic?: DiagnosticHandler;
}

/** Yields one record per page of the build (pages with `noindex` or another canonical left out, as findings). */
export async function* readNextPages(options: NextPagesOptions): AsyncGenerator<SourceRecord> {
  const build = await readNextBuild({
    dir: options.dir,
    ...(options.distDir !== undefined && { distDir: options.distDir }),
  });
  const pages = build.pages.map((p) => {
    const url = nextPageUrl(options.siteUrl, p.path, build.trailingSlash);
    return p.file === undefined ? { url } : { url, file: p.file };
  });
  yield* readStaticSite({
    dir: build.kind === 'export' ? build.outDir : options.dir,
    baseUrl: `${options.siteUrl.replace(/\/+$/, '')}/`,
    pages,
    lastmod: options.lastmod ?? 'none',
    images: options.images ?? true,
    ...(options.imageFilter !== undefined && { imageFilter: options.imageFilter }),
    ...(options.onDiagnostic !== undefined && { onDiagnostic: options.onDiagnostic }),
  });
}
