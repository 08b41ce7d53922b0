/**
 * The set's file names when a caller chooses them (`names`): what a name may be, and what extra
 * indexes are called. Apart from options.ts so that the pure engine can check names without it.
 */

/** 1–100 of A-Z, a-z, 0-9, `.`, `_` and `-`, starting with a letter or digit (no path, no hidden file). */
export const FILE_NAME: RegExp = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** An extension the writer adds itself: a name that carries one is a mistake (`sitemap-index.xml.xml`). */
export const ADDED_EXTENSION: RegExp = /\.(xml|txt|gz)$/i;

/**
 * The name of index number `g` (from 0) over a set whose entry point is `index`: the entry point
 * first, then `sitemap-index-2`, … for the default name (as before names could be chosen) and
 * `INDEX-2`, … for a chosen one.
 */
export function indexFileName(index: string, g: number): string {
  if (g === 0) return index;
  return index === 'sitemap' ? `sitemap-index-${g + 1}` : `${index}-${g + 1}`;
}
