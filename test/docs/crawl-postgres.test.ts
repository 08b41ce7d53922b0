import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSampleSite } from '../../examples/crawl-site/serve.mjs';
import { runProcess } from '../support/cli.js';
import { sitemapkitShim } from '../support/docs-examples.js';
import { usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';

// The section "Crawling with several machines" of docs/crawl.md runs here verbatim, block by block
// (a block is one shell script: its `&` and `wait` work), with `sitemapkit` and `psql` on the
// PATH and the PG* variables of a throwaway cluster's administrator. Two substitutions, as the
// other docs tests make: the page's db.internal is that cluster's 127.0.0.1:PORT, and its
// http://localhost:8080/ the bundled sample site on a free port. The output the page shows is
// what the commands print (lines with … aside).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/crawl.md'), 'utf8');
const SECTION = PAGE.slice(
  PAGE.indexOf('## Crawling with several machines'),
  PAGE.indexOf('\n## ', PAGE.indexOf('## Crawling with several machines') + 1),
);

const server = usePostgres();
let site: { url: string; close(): Promise<void> };
let work = '';
beforeAll(async () => {
  site = await serveSampleSite();
  work = tempDir('crawl-postgres-doc');
  sitemapkitShim(work);
});
afterAll(async () => {
  await site?.close();
});

/** Each ```sh block as one script, and the plain ``` block after it (what the page shows), if any. */
function blocks(): Array<{ script: string; shown: string | undefined }> {
  return [...SECTION.matchAll(/```sh\n([\s\S]*?)```\n(?:\n```\n([\s\S]*?)```)?/g)].map((m) => ({
    script: m[1]!,
    shown: m[2],
  }));
}

describe('docs/crawl.md, "Crawling with several machines"', () => {
  it('runs every example verbatim, with the output the page shows', async () => {
    const run = blocks();
    expect(run).toHaveLength(4);
    const here = site.url.replace(/\/$/, '');
    const db = `127.0.0.1:${server().port}`;
    const env = {
      PATH: `${join(work, 'bin')}:${dirname(server().bin('psql'))}:${process.env['PATH'] ?? ''}`,
      ...server().env,
    };
    for (const { script, shown } of run) {
      const text = script.replaceAll('http://localhost:8080', here).replaceAll('db.internal', db);
      const r = await runProcess('sh', ['-ec', text], { cwd: work, env, limitMs: 120_000 });
      expect(r.code, `${script}\n${r.stdout}\n${r.stderr}`).toBe(0);
      if (shown === undefined) continue;
      for (const l of shown.split('\n')) {
        if (l.trim() === '' || l.includes('…')) continue;
        expect(r.stdout, script).toContain(l);
      }
    }
    expect(readFileSync(join(work, 'dist', 'sitemap.xml'), 'utf8')).toContain(`${here}/`);
    expect(existsSync(join(work, 'sitemapkit-report', 'report.html'))).toBe(true);
    const left = await server().query(
      "SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name = 'crawl_docs'",
      [],
    );
    expect(left.rows[0]!['n']).toBe(0);
  }, 240_000);

  it('the unreachable database says what the page shows', async () => {
    const [, command, shown] = SECTION.match(
      /```\n\$ (sitemapkit [^\n]*)\n(sitemapkit: postgres:[^\n]*\n[^\n]*)\n```/,
    )!;
    const r = await runProcess('sh', ['-c', command!], {
      cwd: work,
      env: { PATH: `${join(work, 'bin')}:${process.env['PATH'] ?? ''}` },
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(shown);
  });
});
