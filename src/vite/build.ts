/**
 * What the plug-in does after a build, free of Vite so that it is tested on its own: the built
 * pages of the output folder (read as `generate --from-dir` reads a site) and the route list,
 * merged by URL, written as a sitemap set into the same folder, atomically.
 */
import { join, resolve } from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import { isSitemapkitError, SitemapkitError } from '../core/errors.js';
import type { SourceRecord } from '../sources/record.js';
import { readStaticSite } from '../sources/static-site.js';
import { readManifestHeader } from '../writer/manifest.js';
import { untypedRecords, type WriteSitemapsResult, writeSitemaps } from '../writer/write-sitemaps.js';
import type { ResolvedViteOptions } from './options.js';
import { readRoutes } from './routes.js';

export interface SiteBuild {
  /** The build's output folder (absolute). */
  outDir: string;
  /** Its public URL (see `siteUrl`). */
  site: string;
  /** Receives every finding. */
  onDiagnostic: (d: Diagnostic) => void;
}

/** Error pages that hosts serve for missing pages (`404.html`, `fr/404.html`): never listed. */
const ERROR_PAGES = '**/{404,500}.html';

/** Findings of the page reader that leave a page out: a route to the same URL is left out too. */
const LEFT_OUT = new Set(['page-noindex', 'page-canonicalized']);

/** The pages, then the routes that are not pages, each URL once (a route's fields over its page's). */
async function records(o: ResolvedViteOptions, b: SiteBuild): Promise<SourceRecord[]> {
  const byUrl = new Map<string, SourceRecord>();
  const leftOut = new Map<string, Diagnostic>();
  if (o.pages) {
    // Our own HTML site map pages, when a build writes into a folder it did not empty.
    const previous = await readManifestHeader(b.outDir).catch(() => undefined);
    const skip = new Set(
      (previous?.files ?? []).filter((f) => f.kind === 'html').map((f) => resolve(b.outDir, f.path)),
    );
    const pages = readStaticSite({
      dir: b.outDir,
      baseUrl: b.site,
      exclude: [...o.exclude, ERROR_PAGES],
      skip,
      lastmod: 'none',
      images: o.images !== false,
      ...(o.images !== false && { imageFilter: o.images }),
      onDiagnostic: (d) => {
        if (LEFT_OUT.has(d.code) && d.url !== undefined) leftOut.set(d.url, d);
        b.onDiagnostic(d);
      },
    });
    for await (const rec of pages) byUrl.set(rec['loc'] as string, rec);
  }
  if (o.routes !== undefined) {
    for (const route of await readRoutes(o.routes, b.site)) {
      const loc = route['loc'] as string;
      const why = leftOut.get(loc);
      if (why !== undefined) {
        b.onDiagnostic({
          ...why,
          severity: 'warning',
          message: `the route is left out: ${why.message.replace(/^left out: /, '')}`,
        });
        continue;
      }
      const page = byUrl.get(loc);
      byUrl.set(loc, page === undefined ? route : { ...page, ...route });
    }
  }
  const all = [...byUrl.values()];
  const filter = o.filter;
  if (filter === undefined) return all;
  return all.filter((r) => {
    const url = r['loc'] as string;
    try {
      return filter(url);
    } catch (cause) {
      throw new SitemapkitError(
        'ERR_INPUT',
        `sitemapkit({ filter }): the filter threw for ${url}: ${cause instanceof Error ? cause.message : String(cause)}; no sitemap was written`,
        { where: url, hint: 'fix the function given as filter', cause },
      );
    }
  });
}

/**
 * Writes the sitemaps of a finished build into its output folder. Every failure is a
 * `SitemapkitError` whose sentence starts with `sitemapkit`; the previous files stay as they were.
 */
export async function writeBuildSitemaps(o: ResolvedViteOptions, b: SiteBuild): Promise<WriteSitemapsResult> {
  try {
    const recs = await records(o, b);
    return await writeSitemaps(untypedRecords(recs), {
      outDir: b.outDir,
      baseUrl: b.site,
      ...(o.names !== undefined && { names: o.names }),
      alwaysIndex: o.alwaysIndex,
      gzip: o.gzip,
      format: o.format,
      ...(o.maxUrlsPerFile !== undefined && { maxUrlsPerFile: o.maxUrlsPerFile }),
      onInvalid: o.onInvalid,
      xsl: o.xsl,
      html: o.html,
      ...(o.robots && { updateRobots: join(b.outDir, 'robots.txt') }),
      ...(o.lastmodPolicy !== undefined && { lastmodPolicy: o.lastmodPolicy }),
      onDiagnostic: b.onDiagnostic,
    });
  } catch (error) {
    if (!isSitemapkitError(error)) throw error;
    if (error.message.startsWith('sitemapkit')) throw error;
    const hint =
      error.code === 'ERR_NO_URLS'
        ? 'the build has no indexable HTML page: give the routes of a single-page app with sitemapkit({ routes })'
        : error.hint;
    throw new SitemapkitError(error.code, `sitemapkit: ${error.message}`, {
      cause: error,
      ...(error.where !== undefined && { where: error.where }),
      ...(hint !== undefined && { hint }),
    });
  }
}
