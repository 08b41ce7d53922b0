/**
 * `sitemapkit()`, the Vite plug-in: after `vite build` (build only), the sitemaps of the client
 * build are written into its output folder. Vite is an optional peer: only its types are imported
 * here, so nothing of Vite is loaded by sitemapkit, and the core never sees it.
 */
import { relative, resolve } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';
import { type Diagnostic, formatDiagnostic } from '../core/diagnostics.js';
import { isSitemapkitError } from '../core/errors.js';
import { writeBuildSitemaps } from './build.js';
import { resolveViteOptions, type SitemapkitViteOptions, siteUrl } from './options.js';

/** What the plug-in needs of a (per-environment) resolved config. */
type BuildConfig = Pick<ResolvedConfig, 'root' | 'base' | 'logger'> & {
  build: Pick<ResolvedConfig['build'], 'outDir' | 'ssr'> & { write?: boolean };
  consumer?: 'client' | 'server';
};

/**
 * The Vite plug-in. `import { sitemapkit } from 'sitemapkit/vite'`, then
 * `plugins: [sitemapkit({ baseUrl: 'https://example.com/' })]`. Options are checked here, so a
 * wrong one stops the build before anything is bundled. See docs/vite.md.
 */
export function sitemapkit(options: SitemapkitViteOptions): Plugin {
  const o = plain(() => resolveViteOptions(options));
  let resolved: BuildConfig | undefined;
  return {
    name: 'sitemapkit',
    apply: 'build',
    configResolved(config) {
      resolved = config;
    },
    // Sequential and last: other plug-ins may still be writing files into the output folder.
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler(error?: Error) {
        if (error !== undefined) return; // a failed build has no output worth listing
        // Vite 6+ runs this once per environment, with that environment's config; Vite 5 once.
        const config: BuildConfig | undefined = this.environment?.config ?? resolved;
        if (config === undefined) return;
        if (config.build.ssr !== false && config.build.ssr !== undefined) return; // the server bundle
        if (config.consumer !== undefined && config.consumer !== 'client') return;
        if (config.build.write === false) return; // nothing was written to list
        const outDir = resolve(config.root, config.build.outDir);
        const logger = config.logger;
        const onDiagnostic = (d: Diagnostic): void => {
          const line = `sitemapkit: ${formatDiagnostic({ ...d, ...(d.sitemap !== undefined && { sitemap: shorten(d.sitemap, config.root) }) })}`;
          if (d.severity === 'info') logger.info(line);
          else logger.warn(line);
        };
        const result = await plain(() =>
          writeBuildSitemaps(o, { outDir, site: siteUrl(o.baseUrl, config.base), onDiagnostic }),
        );
        const entry = shorten(result.entry.path, config.root);
        const files = result.files.length;
        logger.info(
          `sitemapkit: ${result.urls.toLocaleString('en-US')} URL${result.urls === 1 ? '' : 's'} in ${entry}` +
            (files > 1 ? ` and ${files - 1} more file${files === 2 ? '' : 's'}` : '') +
            (o.robots ? ', robots.txt updated' : ''),
        );
      },
    },
  };
}

/**
 * Vite prints a failed build's error by its `stack`: a SitemapkitError's is its sentence and what
 * to do, so that a wrong route list reads as one, not as a trace through Rollup's internals.
 */
function plain<T>(run: () => T): T {
  const fix = (error: unknown): never => {
    if (isSitemapkitError(error))
      error.stack = `${error.message}${error.hint === undefined ? '' : `\n  ${error.hint}`}`;
    throw error;
  };
  try {
    const out = run();
    return (out instanceof Promise ? out.catch(fix) : out) as T;
  } catch (error) {
    return fix(error);
  }
}

/** A path under the project root as Vite prints them (`dist/sitemap.xml`). */
function shorten(path: string, root: string): string {
  const rel = relative(root, path);
  return rel === '' || rel.startsWith('..') || /^[a-z]+:/i.test(path) ? path : rel.split('\\').join('/');
}
