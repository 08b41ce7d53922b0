/**
 * Finding and reading a finished `next build` (the I/O edge of this folder): a static export
 * (`output: 'export'`, the folder of HTML files that `.next/export-detail.json` names, or the
 * export folder itself) or a server build (the manifests of `.next/`). No Next.js code is loaded:
 * the build's files say everything.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { SitemapkitError } from '../core/errors.js';
import { type NextLeftOut, type NextManifests, type NextRoute, routesFromManifests } from './routes.js';

/** What a build is and what it serves. */
export interface NextBuild {
  /** `export`: a static export; `server`: a build served by `next start` (or a platform). */
  kind: 'export' | 'server';
  /** Where the sitemaps go by default: the export folder, or the project's `public/`. */
  outDir: string;
  /** Whether Next.js writes the paths with a trailing slash (`trailingSlash: true`). */
  trailingSlash: boolean;
  /** The pages, sorted by path; `file` is the absolute path of the HTML when the build has one. */
  pages: Array<{ path: string; file?: string }>;
  /** Routes of the build that are no page, each for a stated reason. */
  leftOut: NextLeftOut[];
}

export interface ReadNextBuildOptions {
  /** The Next.js project (where `.next/` is), or a static export folder. */
  dir: string;
  /** The build folder, relative to `dir` (next.config.js's `distDir`). @default '.next' */
  distDir?: string;
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SitemapkitError('ERR_INPUT', `cannot read the Next.js build file: ${(e as Error).message}`, {
      where: path,
      cause: e,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw new SitemapkitError('ERR_INPUT', 'this Next.js build file is not JSON: the build is damaged', {
      where: path,
      hint: 'run next build again',
      cause,
    });
  }
}

async function isFolder(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Reads the build in `dir`: what kind it is, its pages and the routes left out. */
export async function readNextBuild(options: ReadNextBuildOptions): Promise<NextBuild> {
  const dir = resolve(options.dir);
  if (!(await isFolder(dir)))
    throw new SitemapkitError('ERR_INPUT', 'there is no such folder', {
      where: options.dir,
      hint: 'give the Next.js project folder (where next build wrote .next/) or its static export folder',
    });
  const dist = join(dir, options.distDir ?? '.next');
  if (!(await isFolder(dist))) {
    // The export folder itself (out/), handed over without its project.
    if (await isFolder(join(dir, '_next'))) return readExport(dir, undefined);
    throw new SitemapkitError(
      'ERR_INPUT',
      `there is no Next.js build here (no ${options.distDir ?? '.next'} folder)`,
      {
        where: options.dir,
        hint: 'run next build first, give the project folder, or give --dist-dir when next.config.js sets distDir',
      },
    );
  }
  const marker = record(await readJson(join(dist, 'export-marker.json')));
  const detail = record(await readJson(join(dist, 'export-detail.json')));
  if (detail?.['success'] === true && typeof detail['outDirectory'] === 'string') {
    const out = resolve(dir, detail['outDirectory']);
    if (!(await isFolder(out)))
      throw new SitemapkitError('ERR_INPUT', `the static export folder ${out} that the build names is gone`, {
        where: join(dist, 'export-detail.json'),
        hint: 'run next build again',
      });
    return readExport(out, marker);
  }
  const prerender = record(await readJson(join(dist, 'prerender-manifest.json')));
  const routesManifest = record(await readJson(join(dist, 'routes-manifest.json')));
  if (prerender === undefined || routesManifest === undefined)
    throw new SitemapkitError(
      'ERR_INPUT',
      `the Next.js build in ${dist} is unfinished (no prerender-manifest.json or routes-manifest.json)`,
      { where: options.dir, hint: 'run next build to its end first' },
    );
  const manifests: NextManifests = {
    prerender: prerender as NonNullable<NextManifests['prerender']>,
    i18n: (routesManifest['i18n'] ?? null) as NonNullable<NextManifests['i18n']> | null,
  };
  const appPathRoutes = record(await readJson(join(dist, 'app-path-routes-manifest.json')));
  if (appPathRoutes !== undefined) manifests.appPathRoutes = appPathRoutes as Record<string, string>;
  const pages = record(await readJson(join(dist, 'server', 'pages-manifest.json')));
  if (pages !== undefined) manifests.pages = pages as Record<string, string>;
  const { routes, leftOut } = routesFromManifests(manifests);
  const server = join(dist, 'server');
  const out: NextBuild['pages'] = [];
  for (const route of routes) out.push(await withHtml(route, server));
  return {
    kind: 'server',
    outDir: join(dir, 'public'),
    trailingSlash: marker?.['exportTrailingSlash'] === true,
    pages: out,
    leftOut,
  };
}

async function withHtml(route: NextRoute, server: string): Promise<{ path: string; file?: string }> {
  if (route.html === undefined) return { path: route.path };
  const file = join(server, ...route.html.split('/'));
  // A page revalidated on request (ISR) may be prerendered without its HTML on disk: its URL stands.
  return (await stat(file).catch(() => undefined))?.isFile()
    ? { path: route.path, file }
    : { path: route.path };
}

const SKIPPED_PAGES: ReadonlyMap<string, NextLeftOut['reason']> = new Map([
  ['/404', 'error-page'],
  ['/500', 'error-page'],
  ['/_not-found', 'internal'],
  ['/_error', 'internal'],
]);

/** A static export: its HTML files are its pages (`about.html` is `/about`, `a/index.html` is `/a`). */
async function readExport(out: string, marker: Record<string, unknown> | undefined): Promise<NextBuild> {
  const files: string[] = [];
  await walkHtml(out, out, files);
  const pages: NextBuild['pages'] = [];
  const leftOut: NextLeftOut[] = [];
  let slashed = 0;
  for (const file of files) {
    const rel = relative(out, file).split(sep).join('/');
    const bare = rel.replace(/\.html?$/i, '');
    const folder = /(^|\/)index$/.test(bare);
    if (folder && bare !== 'index') slashed++;
    const path = `/${folder ? bare.replace(/(^|\/)index$/, '') : bare}`;
    const reason = SKIPPED_PAGES.get(path);
    if (reason !== undefined) {
      // 404.html and 404/index.html (trailingSlash) are one route.
      if (!leftOut.some((l) => l.path === path)) leftOut.push({ path, reason });
    } else pages.push({ path, file });
  }
  // Without the marker (an export folder alone), a build whose pages are folders was made with
  // trailingSlash: true.
  const trailingSlash =
    marker !== undefined
      ? marker['exportTrailingSlash'] === true
      : slashed > 0 && slashed >= pages.length / 2;
  pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { kind: 'export', outDir: out, trailingSlash, pages, leftOut };
}

async function walkHtml(root: string, dir: string, files: string[]): Promise<void> {
  const items = await readdir(dir, { withFileTypes: true });
  for (const item of items) {
    const full = join(dir, item.name);
    // _next/ holds the build's scripts and styles; dot folders are no pages.
    if (item.isDirectory()) {
      if (item.name.startsWith('.') || (dir === root && item.name === '_next')) continue;
      await walkHtml(root, full, files);
    } else if (item.isFile() && /\.html?$/i.test(item.name)) files.push(full);
  }
}
