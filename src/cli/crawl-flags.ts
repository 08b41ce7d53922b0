/** The crawl command's own flag readers (numbers, lists, the priority map). */
import { join, relative } from 'node:path';
import { stateNameFor } from '../crawler/options.js';
import { UsageError } from './exit.js';

export function num(name: string): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isFinite(n) || n < 0)
      throw new UsageError(`${name} takes a number of 0 or more, got "${v}"`);
    return n;
  };
}

export function list(v: string, prev: string[] | undefined): string[] {
  return [
    ...(prev ?? []),
    ...v
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ];
}

export function priorities(v: string): number[] {
  const parts = v.split(',').map((s) => Number(s.trim()));
  if (parts.length === 0 || parts.some((p) => !Number.isFinite(p) || p < 0 || p > 1)) {
    throw new UsageError(
      `--priority-map takes priorities from 0 to 1 separated by commas (1,0.8,0.5,0.3), got "${v}"`,
    );
  }
  return parts;
}

/** The CLI keeps one state per site (./.sitemapkit/crawl-HOST.db) so that Ctrl-C can resume. */
export function defaultState(url: string | undefined): string | undefined {
  try {
    return url === undefined ? undefined : join('.sitemapkit', stateNameFor(url));
  } catch {
    return undefined; // Not a URL: the crawl refuses it with its own words.
  }
}

/** A path as the user would write it from here: relative when under the current folder. */
export function shortPath(p: string): string {
  const r = relative(process.cwd(), p);
  return r === '' ? '.' : r.startsWith('..') ? p : r;
}
