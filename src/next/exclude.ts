/**
 * next-sitemap's `exclude` patterns, read as next-sitemap 4 reads them (its `matcher`): the whole
 * path must match, `*` stands for any run of characters (slashes too), case does not matter, and a
 * pattern starting with `!` keeps what it matches. `['/secret', '/admin/*', '!/admin/public']`.
 */

/** A compiled list of patterns: `true` when the path is excluded. */
export type PathExcluder = (path: string) => boolean;

function compile(pattern: string): { re: RegExp; negated: boolean } {
  const negated = pattern.startsWith('!');
  const body = (negated ? pattern.slice(1) : pattern)
    .split('*')
    .map((part) => part.replace(/[|\\{}()[\]^$+?.]/g, '\\$&'))
    .join('[\\s\\S]*');
  return { re: new RegExp(`^${body}$`, 'i'), negated };
}

/**
 * The excluder of `patterns`. As in next-sitemap, a path is excluded when a plain pattern matches
 * it and no `!` pattern after that match does; with only `!` patterns, every path they do not
 * match is excluded.
 */
export function pathExcluder(patterns: readonly string[]): PathExcluder {
  const compiled = patterns.map(compile);
  if (compiled.length === 0) return () => false;
  const anyPlain = compiled.some((p) => !p.negated);
  return (path) => {
    let matches: boolean | undefined;
    for (const p of compiled) {
      if (!p.re.test(path)) continue;
      matches = !p.negated;
      if (!matches) break;
    }
    return matches === undefined ? !anyPlain : matches;
  };
}
