/**
 * The sitemaps of a build to tell an engine about: the entry point(s) and the children the build
 * changed. A child's manifest `lastmod` is the build time exactly when its bytes changed in that
 * build (the writer carries the old lastmod over otherwise), so a build folder alone says what
 * changed; with a previous manifest, children whose bytes differ from it (or that are new) count.
 */
import { access, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SitemapkitError } from '../core/errors.js';
import { MANIFEST_NAME, type ManifestHeader, readManifestHeader } from '../writer/manifest.js';

/** One sitemap to submit, and why. */
export interface BuildSitemap {
  url: string;
  /** `entry`: an entry point (always sent); `changed`: a child whose bytes changed. */
  reason: 'entry' | 'changed';
}

/** Whether `source` is a URL, which is submitted as it is. */
export function isSitemapUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** The manifest of a build folder, a manifest file, or a sitemap file written beside one. */
async function manifestOf(source: string): Promise<string> {
  const info = await stat(source).catch((cause: unknown) => {
    throw new SitemapkitError('ERR_INPUT', 'cannot read the build: no such file or folder', {
      where: source,
      cause,
      hint: 'give the --out folder of `sitemapkit generate`, its manifest, or the URL of a sitemap',
    });
  });
  if (info.isDirectory()) return join(source, MANIFEST_NAME);
  if (source.endsWith('.json')) return source;
  const beside = join(dirname(source), MANIFEST_NAME);
  try {
    await access(beside);
    return beside;
  } catch {
    throw new SitemapkitError(
      'ERR_INPUT',
      `a sitemap file has no public URL, and no ${MANIFEST_NAME} is beside it`,
      {
        where: source,
        hint: 'give the URL the sitemap is served at, or the --out folder of `sitemapkit generate`',
      },
    );
  }
}

async function header(path: string): Promise<ManifestHeader> {
  const h = await readManifestHeader(path).catch((cause: unknown) => {
    throw new SitemapkitError('ERR_INPUT', `cannot read the manifest: ${(cause as Error).message}`, {
      where: path,
      cause,
    });
  });
  if (h === undefined) {
    throw new SitemapkitError('ERR_INPUT', `no ${MANIFEST_NAME} here`, {
      where: path,
      hint: 'give the --out folder of `sitemapkit generate`, its manifest, or the URL of a sitemap',
    });
  }
  return h;
}

const SITEMAP_KINDS: ReadonlySet<string> = new Set(['urlset', 'index', 'text']);

/**
 * The sitemaps of `source` to submit: a URL as given; from a build (folder, manifest, or a
 * sitemap file beside its manifest), the entry points and the changed children. `since` is the
 * previous build's manifest (or folder): children are then compared with it by their bytes.
 */
export async function buildSitemaps(source: string, since?: string): Promise<BuildSitemap[]> {
  if (isSitemapUrl(source)) return [{ url: source, reason: 'entry' }];
  const h = await header(await manifestOf(source));
  const before =
    since === undefined
      ? undefined
      : new Map((await header(await manifestOf(since))).files.map((f) => [f.path, f]));
  const roots = new Set(h.roots);
  const out: BuildSitemap[] = h.roots.map((r) => ({ url: h.baseUrl + r, reason: 'entry' }));
  for (const f of h.files) {
    if (roots.has(f.path) || f.url === undefined || !SITEMAP_KINDS.has(f.kind)) continue;
    const old = before?.get(f.path);
    const changed = before === undefined ? f.lastmod === h.generatedAt : old?.sha256 !== f.sha256;
    if (changed) out.push({ url: f.url, reason: 'changed' });
  }
  return out;
}
