/**
 * The JSON lines of `sitemapkit parse URL --format jsonl`, as a tree's parse workers write them
 * (issue 16): each worker imports `json-line.js` itself, by this URL, and hands back finished
 * lines, so that the main thread only puts them in order and writes them. The same function makes
 * the lines of the sitemaps read in the main thread.
 */
import type { TreeLineFormat } from '../parser/tree-wire.js';
import { jsonLine } from './json-line.js';

// Under the test runner this module is TypeScript; the workers import the build's JavaScript.
const MODULE = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/cli/json-line.js', import.meta.url)
  : new URL('./json-line.js', import.meta.url);

/** A page as `JSON.stringify` writes its tree entry (`"sitemap"` last), with its newline. */
export const TREE_JSON_LINES: TreeLineFormat = {
  module: MODULE.href,
  name: 'jsonLine',
  line: jsonLine,
};
