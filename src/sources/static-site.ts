/**
 * `generate --from-dir`: the pages of a static site folder as entries. `index.html` gives the
 * folder's URL; pages with a robots `noindex` or a canonical pointing elsewhere are left out and
 * reported (info diagnostics); lastmod comes from the file time or from git.
 */
import { execFile } from 'node:child_process';
import type { Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import picomatch from 'picomatch';
import { mapAhead } from '../core/ahead.js';
import { judgeCanonical } from '../core/canonical.js';
import type { Diagnostic, DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { formatUtc } from '../core/lastmod.js';
import { MAX_IMAGES_PER_URL } from '../core/limits.js';
import { locationPrefix } from '../core/url.js';
import { ImageFilter, type ImageFilterOptions, resolveImageFilter } from '../page/image-filter.js';
import { decodePage } from '../page/page-decoder.js';
import { absoluteHttpUrl, readPageMeta, resolvePageBase } from '../page/page-meta.js';
import { robotsDirectives } from '../page/robots-directives.js';
import { ORIGIN } from '../writer/write-sitemaps.js';
import type { SourceRecord } from './record.js';

export interface StaticSiteOptions {
  /** The site folder. */
  dir: string;
  /** Public URL of `dir`. */
  baseUrl: string;
  /** Globs (relative to `dir`) of files or folders to leave out. */
  exclude?: readonly string[];
  /** Absolute paths to leave out (the writer's own HTML site map pages). */
  skip?: ReadonlySet<string>;
  /**
   * The public URL of a page file (its path relative to `dir`, with `/`), or `undefined` to leave
   * the file out: for a framework's build, whose URLs are not its file names (`about.html` served
   * as `/about`) and whose folder also holds copied files that are no pages. The canonical and
   * hreflang checks compare against this URL.
   * @default `index.html` gives its folder's URL, any other file its own, under `baseUrl`
   */
  pageUrl?: (rel: string) => string | undefined;
  /** Where lastmod comes from. @default 'mtime' */
  lastmod?: 'mtime' | 'git' | 'none';
  /** Agent whose `<meta name=AGENT>` counts beside `robots`. @default 'googlebot' */
  agent?: string;
  /** List the page's images (`img src`/`srcset`) with the image extension. @default true */
  images?: boolean;
  /**
   * Which images are listed: those on more than `maxShare` of the pages (a template's logo) and
   * those matching `exclude` are left out. @default { maxShare: 0.5 }
   */
  imageFilter?: ImageFilterOptions;
  /** Largest page read, in bytes; bigger pages are listed without reading their meta. @default 10 MiB */
  maxPageBytes?: number;
  /**
   * The pages, each with its public URL, instead of the walk of `dir` (a framework's build that
   * knows its routes: a Next.js build keeps `about.html` for `/about`). A page without `file` is
   * rendered on request: listed by its URL alone. `exclude`, `skip` and `pageUrl` apply only to the walk.
   */
  pages?: Iterable<StaticPage> | AsyncIterable<StaticPage>;
  onDiagnostic?: DiagnosticHandler;
}

/** A page of {@link StaticSiteOptions.pages}. */
export interface StaticPage {
  /** Its absolute URL. */
  url: string;
  /** Its HTML file, when the build wrote one. */
  file?: string;
}

const HTML = /\.html?$/i;

async function* walk(root: string, dir: string, excluded: (rel: string) => boolean): AsyncGenerator<string> {
  const items = await readdir(dir, { withFileTypes: true });
  items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const item of items) {
    if (item.name.startsWith('.')) continue;
    const full = join(dir, item.name);
    const rel = relative(root, full).split(sep).join('/');
    if (excluded(rel)) continue;
    if (item.isDirectory()) {
      if (item.name === 'node_modules') continue;
      yield* walk(root, full, excluded);
    } else if (item.isFile() && HTML.test(item.name)) {
      yield full;
    }
  }
}

/** Newest commit time per file (relative paths), from one `git log` pass. */
async function gitTimes(dir: string): Promise<Map<string, string>> {
  const run = promisify(execFile);
  let out: string;
  try {
    ({ stdout: out } = await run(
      'git',
      ['-C', dir, 'log', '--relative', '--no-renames', '--format=%x00%cI', '--name-only', '--', '.'],
      {
        maxBuffer: 1024 * 1024 * 1024,
      },
    ));
  } catch (cause) {
    throw new SitemapkitError(
      'ERR_INPUT',
      'cannot read lastmod from git: is the folder inside a git repository?',
      { where: dir, cause },
    );
  }
  const times = new Map<string, string>();
  let current = '';
  for (const line of out.split('\n')) {
    if (line.startsWith('\0')) current = line.slice(1);
    else if (line !== '' && !times.has(line)) times.set(line, current);
  }
  return times;
}

function pageUrl(prefix: string, rel: string): string {
  const segments = rel.split('/');
  if (/^index\.html?$/i.test(segments[segments.length - 1]!)) segments[segments.length - 1] = '';
  return prefix + segments.map((s) => encodeURIComponent(s)).join('/');
}

async function* walkPages(
  dir: string,
  prefix: string,
  excluded: (rel: string) => boolean,
  options: StaticSiteOptions,
): AsyncGenerator<StaticPage> {
  for await (const file of walk(dir, dir, excluded)) {
    if (options.skip?.has(file)) continue;
    const rel = relative(dir, file).split(sep).join('/');
    const url = options.pageUrl === undefined ? pageUrl(prefix, rel) : options.pageUrl(rel);
    if (url === undefined) continue;
    yield { url, file };
  }
}

/**
 * Yields one entry per indexable page, in a stable (sorted) order. Images shared by more than the
 * given share of pages are only known once every page was read, so with images on the pages'
 * records are held until the end of the walk (a record is small: a site of 100,000 pages holds
 * some tens of MB).
 */
export async function* readStaticSite(options: StaticSiteOptions): AsyncGenerator<SourceRecord> {
  const filter = new ImageFilter(resolveImageFilter(options.imageFilter));
  if (options.images === false || !filter.needsCounts) {
    for await (const rec of readPages(options)) yield withImages(rec, filter);
    return;
  }
  const held: SourceRecord[] = [];
  for await (const rec of readPages(options)) {
    filter.count((rec['images'] as string[] | undefined) ?? []);
    held.push(rec);
  }
  for (const rec of held) yield withImages(rec, filter);
}

function withImages(rec: SourceRecord, filter: ImageFilter): SourceRecord {
  const images = rec['images'] as string[] | undefined;
  if (images === undefined) return rec;
  const kept = filter.keep(images).slice(0, MAX_IMAGES_PER_URL);
  if (kept.length > 0) rec['images'] = kept;
  else delete rec['images'];
  return rec;
}

/**
 * Pages read ahead of the one being parsed: enough to keep libuv's four threads busy, and at most
 * this many times `maxPageBytes` held at once.
 */
const READ_AHEAD = 8;

interface Loaded {
  page: StaticPage;
  st?: Stats;
  bytes?: Buffer | undefined;
}

async function* readPages(options: StaticSiteOptions): AsyncGenerator<SourceRecord> {
  const { dir } = options;
  try {
    if (!(await stat(dir)).isDirectory()) throw new Error('not a folder');
  } catch (cause) {
    throw new SitemapkitError('ERR_INPUT', `cannot read the site folder: ${(cause as Error).message}`, {
      where: dir,
      cause,
    });
  }
  const prefix = locationPrefix(options.baseUrl, 'dir');
  const matchers = (options.exclude ?? []).map((g) => picomatch(g, { dot: true }));
  const excluded = (rel: string): boolean => matchers.some((m) => m(rel) || m(`${rel}/`));
  const lastmodFrom = options.lastmod ?? 'mtime';
  const times = lastmodFrom === 'git' ? await gitTimes(dir) : undefined;
  const agent = (options.agent ?? 'googlebot').toLowerCase();
  const maxBytes = options.maxPageBytes ?? 10 * 1024 * 1024;
  const report = (d: Diagnostic): void => options.onDiagnostic?.(d);
  const load = async (page: StaticPage): Promise<Loaded> => {
    if (page.file === undefined) return { page };
    const st = await stat(page.file);
    return { page, st, bytes: st.size <= maxBytes ? await readFile(page.file) : undefined };
  };
  const pages = options.pages ?? walkPages(dir, prefix, excluded, options);
  for await (const { page: listed, st, bytes } of mapAhead(pages, load, READ_AHEAD)) {
    const { url, file } = listed;
    if (file === undefined || st === undefined) {
      yield { loc: url };
      continue;
    }
    const rel = relative(dir, file).split(sep).join('/');
    const rec: SourceRecord = { loc: url };
    if (bytes !== undefined) {
      const page = decodePage(bytes);
      if (page.unknownCharset !== undefined) {
        report({
          code: 'charset-unknown',
          severity: 'warning',
          message: `charset "${page.unknownCharset}" is unknown; the page was read as UTF-8`,
          sitemap: file,
          url,
        });
      }
      const meta = readPageMeta(page.text);
      if (robotsDirectives(meta, [], [agent]).noindex) {
        report({
          code: 'page-noindex',
          severity: 'info',
          message: 'left out: the page has a robots noindex meta tag',
          sitemap: file,
          url,
        });
        continue;
      }
      const c = judgeCanonical(meta.canonical, url, meta.baseHref);
      if (c.kind === 'other') {
        report({
          code: 'page-canonicalized',
          severity: 'info',
          message: `left out: its canonical is ${c.url}`,
          sitemap: file,
          url,
        });
        continue;
      }
      if (c.kind === 'ignored') {
        report({
          code: 'canonical-ignored',
          severity: 'warning',
          message: `${c.reason}; the page is listed as its own canonical`,
          sitemap: file,
          url,
        });
      }
      if (meta.title !== undefined && meta.title !== '') rec['title'] = meta.title;
      const base = resolvePageBase(url, meta.baseHref);
      if (options.images !== false) {
        const images = [
          ...new Set(meta.images.map((src) => absoluteHttpUrl(src, base)).filter((u) => u !== undefined)),
        ];
        // Capped after the filter: a template's images must not crowd out the page's own.
        if (images.length > 0) rec['images'] = images;
      }
      if (meta.alternates.length > 0) {
        const alternates = meta.alternates
          .map((a) => ({ hreflang: a.hreflang, href: absoluteHttpUrl(a.href, base) }))
          .filter((a): a is { hreflang: string; href: string } => a.href !== undefined);
        // Google wants every version to list itself too; without it the group is ignored, so
        // rather than fail the build on a page's markup, leave its alternates out and say so.
        if (alternates.some((a) => a.href === url)) rec['alternates'] = alternates;
        else {
          report({
            code: 'hreflang-missing-self',
            severity: 'warning',
            message:
              "the page's hreflang links do not include the page itself; its alternates are left out of the sitemap",
            sitemap: file,
            url,
          });
        }
      }
    } else {
      report({
        code: 'page-too-large',
        severity: 'warning',
        message: `${st.size} bytes: listed without reading its meta tags`,
        sitemap: file,
        url,
      });
    }
    if (lastmodFrom === 'mtime') rec['lastmod'] = formatUtc(new Date(Math.floor(st.mtimeMs / 1000) * 1000));
    else if (times !== undefined) {
      const t = times.get(rel);
      rec['lastmod'] = t ?? formatUtc(new Date(Math.floor(st.mtimeMs / 1000) * 1000));
    }
    rec[ORIGIN] = { file };
    yield rec;
  }
}
