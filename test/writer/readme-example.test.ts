import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README's memory/streams example runs verbatim (through the package's own `exports`, as a
// user imports it), and prints what its comments say.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('README: writing into memory or web streams', () => {
  it('the example runs as printed and its comments show its output', () => {
    const readme = readFileSync(`${ROOT}README.md`, 'utf8');
    const start = readme.indexOf("```js\nimport { writeSitemaps } from 'sitemapkit/writer';");
    expect(start).toBeGreaterThan(-1);
    const code = readme.slice(start + 6, readme.indexOf('```', start + 6));
    const expected = [...code.matchAll(/^console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
    expect(expected).toHaveLength(3);
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(expected);
  });
});
