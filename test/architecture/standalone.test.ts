/**
 * The repository stands alone: no test, bench or script reads a file outside it, so a fresh clone
 * with nothing beside it runs `npm test`, `npm run demo` and `npm run bench`. The fixtures that
 * used to be read from a sibling folder are in test/fixtures/spec (origins in its README).
 *
 * A static scan, so it also covers code that only runs in a bench or on failure: every relative
 * path written in a string is resolved against its file's folder and must stay in the repository;
 * the old sibling folder and absolute paths into home or work folders are refused anywhere.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['test', 'bench', 'scripts'];
const SOURCE = /\.(?:[cm]?[jt]s|sh)$/;
// Data, not code: the spec fixtures hold URLs like `../x` that are resolved against URLs, never read.
const NOT_CODE = [join('test', 'fixtures', 'spec')];

/** Text that names a place outside any clone, wherever it is written (code or comment). */
const OUTSIDE: Array<{ pattern: RegExp; why: string }> = [
  {
    pattern: /\.\.\/shared\b|\bshared\/spec\b/,
    why: 'the old sibling fixture folder (use test/fixtures/spec)',
  },
  {
    // Two segments deep, so that an HTTP route such as '/home/' in a test site is not taken for one.
    pattern: /(?:^|[\s'"`(=:,])(?:file:\/\/)?\/(?:work|home|root|Users|mnt|srv)\/[\w.-]+\//,
    why: 'an absolute path into a home or work folder',
  },
];

// A string literal starting with `./`, `../` or being `.`/`..`: a path relative to its file's
// folder when handed to `new URL(…, import.meta.url)`, an import or a join with `import.meta.dirname`.
const RELATIVE = /(['"`])(\.\.?(?:\/[^'"`\n$]*)?)\1/g;

interface Finding {
  file: string;
  line: number;
  text: string;
  why: string;
}

/** What in `source` (the text of `file`, relative to `root`) points outside `root`. */
function scan(root: string, file: string, source: string): Finding[] {
  const findings: Finding[] = [];
  const lines = source.split('\n');
  lines.forEach((text, i) => {
    for (const { pattern, why } of OUTSIDE) {
      if (pattern.test(text)) findings.push({ file, line: i + 1, text: text.trim(), why });
    }
    for (const m of text.matchAll(RELATIVE)) {
      const target = resolve(root, dirname(file), m[2]!);
      if (target !== resolve(root) && !target.startsWith(resolve(root) + sep)) {
        findings.push({
          file,
          line: i + 1,
          text: text.trim(),
          why: `'${m[2]}' resolves outside the repository`,
        });
      }
    }
  });
  return findings;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name === 'node_modules' || NOT_CODE.includes(path)) continue;
    if (entry.isDirectory()) out.push(...sources(path));
    else if (SOURCE.test(entry.name)) out.push(path);
  }
  return out;
}

const SELF = relative(ROOT, fileURLToPath(import.meta.url));

describe('the repository stands alone', () => {
  it('no test, bench or script names a path outside the repository', () => {
    const files = SCANNED.flatMap(sources).filter((f) => f !== SELF);
    // The scan must have something to scan: a wrong root would pass vacuously.
    expect(files.length).toBeGreaterThan(50);
    expect(files).toContain(join('bench', 'robots.mjs'));
    const findings = files.flatMap((f) => scan(ROOT, f, readFileSync(join(ROOT, f), 'utf8')));
    expect(findings.map((f) => `${f.file}:${f.line}: ${f.why}: ${f.text}`)).toEqual([]);
  });

  it('the fixtures the suites read are in the repository', () => {
    const spec = join(ROOT, 'test', 'fixtures', 'spec');
    const names = readdirSync(spec).sort();
    expect(names).toEqual(
      expect.arrayContaining([
        'README.md',
        'data',
        'robots-cases.json',
        'robots-cases.meta.json',
        'robots-spec-test-cases.json',
        'samples',
      ]),
    );
    expect(readdirSync(join(spec, 'samples')).sort()).toEqual(
      expect.arrayContaining(['discrepancy', 'hostile', 'invalid', 'valid']),
    );
    // Google's cases are redistributed under Apache-2.0: their origin and licence stay beside them.
    const readme = readFileSync(join(spec, 'README.md'), 'utf8');
    expect(readme).toMatch(/google\/robotstxt\b.*22b355ff855419e6a3ff8ff09c0ad7fdb17116f9/);
    expect(readme).toMatch(/google\/robotstxt-spec-test\b.*552ade54b9ce6c121ffc462bceb26941749907a7/);
    expect(readme).toMatch(/Apache License 2\.0/);
  });
});

describe('the scan finds what it must (every test can fail)', () => {
  const at = (file: string, source: string): string[] => scan('/r/repo', file, source).map((f) => f.why);

  it('a URL relative to the module that climbs out of the repository', () => {
    expect(
      at('test/parser/helpers.ts', "new URL('../../../shared/spec/samples/', import.meta.url)"),
    ).toHaveLength(2);
    expect(at('test/parser/helpers.ts', "new URL('../../../other/x.json', import.meta.url)")).toEqual([
      "'../../../other/x.json' resolves outside the repository",
    ]);
    expect(at('bench/robots.mjs', 'new URL("../..", import.meta.url)')).toHaveLength(1);
    expect(at('scripts/demo.mjs', 'import x from `../../lib.js`;')).toHaveLength(1);
  });

  it('the old sibling folder and absolute home or work paths, even in a join or a comment', () => {
    expect(at('test/a.test.ts', "join(ROOT, '..', 'shared/spec')")).toHaveLength(1);
    expect(at('test/a.test.ts', "readFileSync('/work/main/x.json')")).toHaveLength(1);
    expect(at('test/a.test.ts', 'const u = "file:///home/me/fixtures/a.xml";')).toHaveLength(1);
  });

  it('leaves paths inside the repository, HTTP paths and system tools alone', () => {
    expect(at('test/parser/helpers.ts', "new URL('../fixtures/spec/samples/', import.meta.url)")).toEqual([]);
    expect(at('test/parser/helpers.ts', "import { x } from '../../src/parser/core.js';")).toEqual([]);
    expect(at('bench/lib.mjs', "new URL('..', import.meta.url)")).toEqual([]);
    expect(
      at(
        'test/crawler/crawl.test.ts',
        "s.route('/home/', page); s.route('/work/a', page); spawn('/usr/bin/time')",
      ),
    ).toEqual([]);
  });
});
