/**
 * The work of `astro:build:done`: the built pages through the static-folder reader (titles,
 * images, hreflang, canonical and `noindex` from the HTML), the `@astrojs/sitemap` steps
 * (items.ts), then `writeSitemaps` into the build output, atomically, under the replaced plug-in's
 * file names, with the robots.txt `Sitemap:` line. Astro's own objects are narrowed to what is
 * read here, so that this file is tested without a build.
 */
import { access, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../core/diagnostics.js';
import { isSitemapkitError, SitemapkitError } from '../core/errors.js';
import { readStaticSite } from '../sources/static-site.js';
import { MANIFEST_NAME } from '../writer/manifest.js';
import type { WriteSitemapsOptions } from '../writer/options.js';
import { ORIGIN, untypedRecords, type WriteSitemapsResult, writeSitemaps } from '../writer/write-sitemaps.js';
import { addCustomSitemaps } from './custom-sitemaps.js';
import { type PageItem, prepareItems, serializeItems, toRecord } from './items.js';
import { type Logger, logDiagnostics, summary } from './log.js';
import type { ResolvedAstroOptions } from './options.js';
import { fileUrl, isStatusPage, namedFileUrl, routeUrl, sitePrefix, type UrlRules } from './urls.js';
import { validateOutput } from './validate-output.js';

/** A route as `astro:routes:resolved` gives it (the fields read here). */
export interface BuildRoute {
  /** The route, e.g. `/blog/[slug]`: the key of `assets`. */
  pattern: string;
  type: string;
  /** The static path of a route without parameters. */
  pathname?: string | undefined;
  isPrerendered: boolean;
}

/** What `astro:build:done` and the config tell (the fields read here). */
export interface AstroBuild {
  config: {
    site?: string | undefined;
    base: string;
    trailingSlash: 'always' | 'never' | 'ignore';
    build: { format: 'directory' | 'file' | 'preserve' };
  };
  /** `static` or `server` (pages rendered on demand exist). */
  buildOutput: 'static' | 'server';
  /** From `astro:routes:resolved`; `undefined` when Astro did not call it. */
  routes: readonly BuildRoute[] | undefined;
  /** The folder served as the site root: `outDir`, or `build.client` for a server build. */
  dir: URL;
  /** Route pattern → the files built for it. */
  assets: ReadonlyMap<string, readonly URL[]>;
  logger: Logger;
}

const relPath = (root: string, file: string): string => relative(root, file).split(sep).join('/');

/**
 * The built HTML files of page routes (not endpoints, redirects or i18n fallbacks), each with
 * whether its route names the file itself (`/legacy.html`: served under that name).
 */
function pageFiles(build: AstroBuild): Map<string, { named: boolean }> {
  const pages =
    build.routes === undefined
      ? undefined
      : new Set(build.routes.filter((r) => r.type === 'page').map((r) => r.pattern));
  const files = new Map<string, { named: boolean }>();
  for (const [pattern, urls] of build.assets) {
    if (pages !== undefined && !pages.has(pattern)) continue;
    const named = /\.html?$/i.test(pattern);
    for (const u of urls) {
      const path = fileURLToPath(u);
      if (/\.html$/i.test(path)) files.set(path, { named });
    }
  }
  return files;
}

/** Reads the pages, runs the options' steps and writes the set; resolves when it is published. */
export async function writeAstroSitemaps(build: AstroBuild, o: ResolvedAstroOptions): Promise<void> {
  const { config, logger } = build;
  if (config.site === undefined || config.site === '') {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      'sitemap() needs `site` in astro.config (the public URL of the site) to write the full URLs a sitemap must hold',
      { hint: "add site: 'https://www.example.com' to defineConfig({ … }) in astro.config.mjs" },
    );
  }
  const prefix = sitePrefix(config.site, config.base);
  const rules: UrlRules = { prefix, trailingSlash: config.trailingSlash };
  const root = fileURLToPath(build.dir);
  const files = pageFiles(build);
  const locales = Object.keys(o.i18n?.locales ?? {});
  const diagnostics: Diagnostic[] = [];
  const onDiagnostic = (d: Diagnostic): void => {
    diagnostics.push(d);
  };

  const items: PageItem[] = [];
  const seen = new Set<string>();
  const add = (p: PageItem): void => {
    if (seen.has(p.item.url)) return;
    seen.add(p.item.url);
    items.push(p);
  };
  const pages = readStaticSite({
    dir: root,
    baseUrl: prefix,
    pageUrl: (rel) => {
      const page = files.get(join(root, rel));
      if (page === undefined) return undefined;
      const url = page.named ? namedFileUrl(rel, prefix) : fileUrl(rel, rules);
      return isStatusPage(url, prefix, locales) ? undefined : url;
    },
    lastmod: 'none',
    images: o.images,
    ...(o.imageFilter !== undefined && { imageFilter: o.imageFilter }),
    onDiagnostic,
  });
  for await (const rec of pages) {
    const file = rec[ORIGIN]?.file;
    const item: PageItem['item'] = { url: rec['loc'] as string };
    if (typeof rec['title'] === 'string') item.title = rec['title'];
    if (Array.isArray(rec['images'])) item.images = rec['images'] as string[];
    const alternates = rec['alternates'] as Array<{ hreflang: string; href: string }> | undefined;
    if (alternates !== undefined) item.links = alternates.map((a) => ({ url: a.href, lang: a.hreflang }));
    add(file === undefined ? { item } : { item, file: relPath(root, file) });
  }
  // Pages rendered on demand have no HTML to read; those at a fixed path are listed bare, as
  // @astrojs/sitemap lists them.
  for (const r of build.routes ?? []) {
    if (r.type !== 'page' || r.isPrerendered || r.pathname === undefined) continue;
    const url = routeUrl(r.pathname, rules, config.build.format);
    if (!isStatusPage(url, prefix, locales)) add({ item: { url } });
  }
  for (const url of o.customPages) add({ item: { url } });

  // @astrojs/sitemap's order (numbers in paths compared as numbers): page 2 before page 10.
  // One collator: localeCompare with options builds one per comparison (4 s for 60,000 URLs).
  const order = new Intl.Collator('en', { numeric: true }).compare;
  items.sort((a, b) => order(a.item.url, b.item.url));
  const { kept, filtered } = prepareItems(items, o, prefix);
  const { out, dropped } = await serializeItems(kept, o);
  const records = out.map((p) => toRecord(p, o));

  const robots = join(root, 'robots.txt');
  const robotsExists = await access(robots).then(
    () => true,
    () => false,
  );
  const updateRobots = o.robotsTxt === 'create' || (o.robotsTxt === 'update' && robotsExists);
  const base = o.filenameBase;
  const writerOptions: WriteSitemapsOptions = {
    outDir: root,
    baseUrl: prefix,
    gzip: o.gzip,
    maxUrlsPerFile: o.entryLimit,
    onInvalid: o.onInvalid,
    html: o.html,
    xsl: o.xslURL !== undefined ? new URL(o.xslURL, prefix).href : o.xsl,
    onDiagnostic,
    ...(updateRobots && { updateRobots: robots }),
    ...(o.names === 'astro' && {
      names: {
        index: `${base}-index`,
        child: (n: number, section: string) => (section === '' ? `${base}-${n}` : `${base}-${section}-${n}`),
      },
      alwaysIndex: true,
    }),
  };
  let result: WriteSitemapsResult;
  try {
    result = await writeSitemaps(untypedRecords(records), writerOptions);
  } catch (error) {
    logDiagnostics(logger, diagnostics, root);
    if (isSitemapkitError(error, 'ERR_NO_URLS')) {
      // As @astrojs/sitemap: a site without pages to list is not a failed build.
      logger.warn('no pages to list: no sitemap was written');
      return;
    }
    throw error;
  }
  if (o.customSitemaps.length > 0) await addCustomSitemaps(result, o.customSitemaps);
  // Astro empties the output folder before every build, so the manifest (which serves the next
  // run into the same folder) would only be published with the site.
  await rm(join(root, MANIFEST_NAME), { force: true });
  logDiagnostics(logger, diagnostics, root);
  logger.info(summary(result, { filtered, dropped, root, robots: updateRobots ? robots : undefined }));
  if (o.validate) await validateOutput(result, logger, root);
}
