import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const TEXT = /\.(?:xml|txt|json|md|csv|log|html|jsonl)$/;

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (TEXT.test(name)) out.push(path);
  }
}

/**
 * Every distinct http(s) URL written in the repository's text fixtures (test/fixtures: the spec
 * samples, logs, sites), XML's `&amp;` read back as `&`: real URLs, with the odd ports,
 * queries, IRIs and mistakes that real documents hold, for the fast paths' property tests. Sorted,
 * so a run is repeatable.
 */
export function fixtureUrls(): string[] {
  const files: string[] = [];
  walk(FIXTURES, files);
  const urls = new Set<string>();
  for (const f of files) {
    for (const m of readFileSync(f, 'utf8').matchAll(/https?:\/\/[^\s"'<>)\]}`\\]+/g))
      urls.add(m[0].replaceAll('&amp;', '&'));
  }
  return [...urls].sort();
}
