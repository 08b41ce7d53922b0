import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../support/cli.js';
import { shellExamples, sitemapkitShim } from '../support/docs-examples.js';
import { type SpaServer, startSpaServer } from '../support/spa-server.mjs';
import { tempDir } from '../support/tmp.js';

// The shell commands of docs/crawl.md's "Sites built with JavaScript" run here verbatim, in page
// order, with `sitemapkit` on the PATH and the page's http://localhost:8080/ being the bundled
// single-page application (test/support/spa-server.mjs) on a free port. Each exits 0, and what a
// command's block shows it prints is what it prints (in any order: pages finish in parallel).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/crawl.md'), 'utf8');
const SECTION = PAGE.slice(
  PAGE.indexOf('## Sites built with JavaScript'),
  PAGE.indexOf('### Rendering figures'),
);

let site: SpaServer;
let work = '';
beforeAll(async () => {
  site = await startSpaServer();
  work = tempDir('render-doc');
  sitemapkitShim(work);
});
afterAll(async () => {
  await site?.close();
});

function examples(): Array<{ command: string; shown: string | undefined }> {
  return shellExamples(SECTION);
}

const sorted = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '')
    .sort();

describe('docs/crawl.md, "Sites built with JavaScript"', () => {
  it('runs every example verbatim, exiting 0 with the output the page shows', async () => {
    const run = examples();
    expect(run.filter((e) => e.command.startsWith('sitemapkit'))).toHaveLength(3);
    for (const { command, shown } of run) {
      const line = command.replaceAll('http://localhost:8080', site.origin);
      const r = await runProcess('sh', ['-c', line], {
        cwd: work,
        env: { PATH: `${join(work, 'bin')}:${process.env['PATH'] ?? ''}` },
        limitMs: 120_000,
      });
      expect(r.code, `${command}\n${r.stderr}`).toBe(0);
      if (shown !== undefined) {
        expect(sorted(r.stdout), command).toEqual(
          sorted(shown.replaceAll('http://localhost:8080', site.origin)),
        );
      }
    }
  });
});
