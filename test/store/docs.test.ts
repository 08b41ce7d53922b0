import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, runProcess } from '../support/cli.js';
import { usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';

// Every shell line of docs/store.md runs here verbatim, in order, in one folder, with `sitemapkit`
// on the PATH (crontab lines and sample output are `text` blocks), and the PG* variables naming a
// throwaway cluster for the PostgreSQL examples.
const DOC = fileURLToPath(new URL('../../docs/store.md', import.meta.url));

function commands(): string[] {
  const out: string[] = [];
  for (const m of readFileSync(DOC, 'utf8').matchAll(/```sh\n([\s\S]*?)```/g))
    for (const line of m[1]!.split('\n')) if (line.trim() !== '' && !line.startsWith('#')) out.push(line);
  return out;
}

const server = usePostgres();
let work = '';
beforeAll(() => {
  work = tempDir('sk-store-docs');
  mkdirSync(join(work, 'bin'));
  writeFileSync(join(work, 'bin', 'sitemapkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(work, 'bin', 'sitemapkit'), 0o755);
  // Twenty pages: removing one stays under the publish gate's 10%.
  const pages = Array.from({ length: 18 }, (_, i) => `https://example.com/page-${i}`);
  writeFileSync(
    join(work, 'urls.txt'),
    `${['https://example.com/', ...pages, 'https://example.com/old-page'].join('\n')}\n`,
  );
});

describe('docs/store.md: every command runs as printed', () => {
  const lines = commands();
  it('has the examples', () => {
    expect(lines.length).toBeGreaterThanOrEqual(7);
  });
  for (const line of lines) {
    it(line, async () => {
      const r = await runProcess('sh', ['-c', line], {
        cwd: work,
        env: { PATH: `${join(work, 'bin')}:${process.env['PATH']}`, ...server().env },
      });
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    }, 60_000);
  }
});
