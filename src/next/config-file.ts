/**
 * The config file of `sitemapkit next`: `sitemapkit.next.config.{mjs,js}` or next-sitemap's own
 * `next-sitemap.config.{js,mjs,cjs}` (the one a site migrating from next-sitemap already has),
 * loaded as a module whose default export is the options.
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SitemapkitError } from '../core/errors.js';
import type { NextSitemapOptions } from './options.js';

/** The names looked for, in this order. */
export const NEXT_CONFIG_FILES: readonly string[] = [
  'sitemapkit.next.config.mjs',
  'sitemapkit.next.config.js',
  'next-sitemap.config.js',
  'next-sitemap.config.mjs',
  'next-sitemap.config.cjs',
];

export interface NextConfigFile {
  /** The file read. */
  path: string;
  /** Its default export. */
  options: Partial<NextSitemapOptions>;
}

/**
 * Loads `file` (relative to `dir`), or the first of {@link NEXT_CONFIG_FILES} in `dir`; undefined
 * when none is there. Throws `ERR_INPUT` naming the file when it cannot be loaded.
 */
export async function loadNextConfig(dir: string, file?: string): Promise<NextConfigFile | undefined> {
  let path: string | undefined;
  if (file !== undefined) {
    path = resolve(dir, file);
    if (!(await stat(path).catch(() => undefined))?.isFile())
      throw new SitemapkitError('ERR_INPUT', 'the config file does not exist', {
        where: path,
        hint: 'give the path of next-sitemap.config.js or sitemapkit.next.config.mjs',
      });
  } else {
    for (const name of NEXT_CONFIG_FILES) {
      const candidate = join(dir, name);
      if ((await stat(candidate).catch(() => undefined))?.isFile()) {
        path = candidate;
        break;
      }
    }
    if (path === undefined) return undefined;
  }
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (cause) {
    const message = (cause as Error).message ?? String(cause);
    throw new SitemapkitError('ERR_INPUT', `cannot load the config file: ${message.split('\n')[0]}`, {
      where: path,
      hint: /module is not defined|require is not defined|exports is not defined/.test(message)
        ? 'the project is an ES module ("type": "module"): rename the file to .cjs, or use export default'
        : 'fix the file so that Node can import it',
      cause,
    });
  }
  const options = mod.default;
  if (typeof options !== 'object' || options === null)
    throw new SitemapkitError('ERR_INPUT', 'the config file exports no options object', {
      where: path,
      hint: 'end it with module.exports = { siteUrl: … } or export default { siteUrl: … }',
    });
  return { path, options: options as Partial<NextSitemapOptions> };
}
