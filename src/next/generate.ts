/**
 * `generateNextSitemaps`: a finished `next build` to sitemaps (and robots.txt) with next-sitemap's
 * options and file names. The build's pages are read like a static site's (titles, images,
 * hreflang, canonical, noindex from the HTML), next-sitemap's options shape each entry, and the
 * writer cuts and publishes the set atomically.
 */
import { join, resolve } from 'node:path';
import type { SourceRecord } from '../sources/record.js';
import { readStaticSite, type StaticPage } from '../sources/static-site.js';
import { writeFileAtomic } from '../writer/atomic.js';
import { untypedRecords, type WriteSitemapsResult, writeSitemaps } from '../writer/write-sitemaps.js';
import { readNextBuild } from './build.js';
import { pathExcluder } from './exclude.js';
import { nextEntryShaper } from './fields.js';
import { type NextSitemapOptions, type ResolvedNextOptions, resolveNextOptions } from './options.js';
import { robotsTxtText } from './robots-txt.js';
import type { NextLeftOut, NextLeftOutReason } from './routes.js';

/** A route of the build not in the sitemaps, and why. */
export interface NextSkipped {
  path: string;
  /** A reason of the build (see `LEFT_OUT_REASONS`), `exclude` or `transform` (it returned nothing). */
  reason: NextLeftOutReason | 'exclude' | 'transform';
}

export interface NextSitemapsResult extends WriteSitemapsResult {
  /** What was read: a static export or a server build, and its page count. */
  build: { kind: 'export' | 'server'; pages: number };
  /** The folder the files went to. */
  outDir: string;
  /** Routes left out, sorted by path (pages left out for noindex or a canonical are diagnostics). */
  leftOut: NextSkipped[];
  /** The robots.txt written, when `generateRobotsTxt` is on. */
  robotsTxt?: string;
}

/** next-sitemap's defaults, as a `transform` written for next-sitemap reads them from its config. */
const NEXT_SITEMAP_DEFAULTS = {
  sourceDir: '.next',
  outDir: 'public',
  priority: 0.7,
  changefreq: 'daily',
  sitemapSize: 5000,
  autoLastmod: true,
  sitemapBaseFileName: 'sitemap',
  generateIndexSitemap: true,
  exclude: [],
} as const;

/**
 * Writes the sitemaps of the Next.js build in `options.dir` into its export folder or `public/`
 * (or `outDir`), named as next-sitemap names them (`sitemap.xml`, `sitemap-0.xml`, …), and
 * robots.txt when `generateRobotsTxt` is on. Throws `ERR_OPTIONS` for a wrong option, `ERR_INPUT`
 * when there is no finished build, and the writer's errors.
 */
export async function generateNextSitemaps(options: NextSitemapOptions): Promise<NextSitemapsResult> {
  const r = resolveNextOptions(options);
  // A transform written for next-sitemap reads its defaults from the config it is handed.
  const config = { ...NEXT_SITEMAP_DEFAULTS, ...options } as NextSitemapOptions;
  const build = await readNextBuild({ dir: r.dir, distDir: r.sourceDir });
  const outDir = r.outDir !== undefined ? resolve(r.dir, r.outDir) : build.outDir;
  const trailingSlash = r.trailingSlash ?? build.trailingSlash;
  const shaper = nextEntryShaper(r, config, trailingSlash);
  const leftOut: NextSkipped[] = build.leftOut.map((l: NextLeftOut) => ({ ...l }));
  const patterns = typeof r.exclude === 'function' ? await r.exclude() : (r.exclude ?? []);
  const excluded = pathExcluder(patterns);
  const pages: StaticPage[] = [];
  const pathOf = new Map<string, string>();
  for (const page of build.pages) {
    if (excluded(page.path)) {
      leftOut.push({ path: page.path, reason: 'exclude' });
      continue;
    }
    const url = shaper.url(page.path, trailingSlash);
    pathOf.set(url, page.path);
    pages.push(page.file === undefined ? { url } : { url, file: page.file });
  }
  const additions = await shaper.additions();
  const records = async function* (): AsyncGenerator<SourceRecord> {
    const site = readStaticSite({
      dir: build.kind === 'export' ? build.outDir : r.dir,
      baseUrl: shaper.base,
      pages,
      lastmod: r.autoLastmod ? 'mtime' : 'none',
      images: r.images,
      ...(options.onDiagnostic !== undefined && { onDiagnostic: options.onDiagnostic }),
    });
    for await (const rec of site) {
      const path = pathOf.get(rec['loc'] as string) ?? '/';
      const shaped = await shaper.entry(rec, path);
      if (shaped === undefined) leftOut.push({ path, reason: 'transform' });
      else yield shaped;
    }
    yield* additions.rest();
  };
  const result = await writeSitemaps(untypedRecords(records()), {
    outDir,
    baseUrl: shaper.base,
    names: { index: r.sitemapBaseFileName, child: (n: number) => `${r.sitemapBaseFileName}-${n}` },
    alwaysIndex: r.generateIndexSitemap,
    maxUrlsPerFile: r.sitemapSize,
    gzip: r.gzip,
    ...(options.onDiagnostic !== undefined && { onDiagnostic: options.onDiagnostic }),
    ...(options.signal !== undefined && { signal: options.signal }),
  });
  leftOut.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const out: NextSitemapsResult = {
    ...result,
    build: { kind: build.kind, pages: build.pages.length },
    outDir,
    leftOut,
  };
  if (r.generateRobotsTxt) out.robotsTxt = await writeRobotsTxt(r, config, result, outDir);
  return out;
}

async function writeRobotsTxt(
  r: ResolvedNextOptions,
  config: NextSitemapOptions,
  result: WriteSitemapsResult,
  outDir: string,
): Promise<string> {
  const sitemaps = [
    ...result.roots.map((root) => root.url),
    ...(r.includeNonIndexSitemaps && result.entry.kind === 'index'
      ? result.files.filter((f) => f.kind === 'urlset').map((f) => f.url)
      : []),
    ...r.additionalSitemaps,
  ];
  let text = robotsTxtText(r.policies, [...new Set(sitemaps)]);
  if (r.transformRobotsTxt !== undefined) text = await r.transformRobotsTxt(config, text);
  const path = join(outDir, 'robots.txt');
  await writeFileAtomic(path, text, { doing: 'write robots.txt' });
  return path;
}
