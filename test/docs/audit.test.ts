import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSampleSite } from '../../examples/crawl-site/serve.mjs';
import { runProcess } from '../support/cli.js';
import { shellExamples, sitemapkitShim } from '../support/docs-examples.js';
import { tempDir } from '../support/tmp.js';

// The shell commands of docs/audit.md run here verbatim, in page order, with `sitemapkit` on the
// PATH and the page's http://localhost:8080/ being the bundled sample site on a free port. The
// output the page shows is what they print (response times and the lines shortened with … aside).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE = readFileSync(join(ROOT, 'docs/audit.md'), 'utf8');

const EXIT: Record<string, number> = {
  'sitemapkit crawl http://localhost:8080/ --out dist/ --quiet': 0,
  'sitemapkit audit http://localhost:8080/ --sitemap dist/sitemap.xml': 0,
  'sitemapkit generate urls.txt --base-url http://localhost:8080/ --out published/': 0,
  'sitemapkit audit http://localhost:8080/ --sitemap published/sitemap.xml': 1,
  'sitemapkit audit http://localhost:8080/ --sitemap published/sitemap.xml --format junit > audit.xml': 1,
  'sitemapkit audit http://localhost:8080/ --sitemap published/sitemap.xml --format csv > audit.csv': 1,
  'sitemapkit audit http://localhost:8080/ --sitemap published/sitemap.xml --report audit-report --out corrected/': 1,
  'sitemapkit crawl http://localhost:8080/ --out site/ --state site.db --report crawl-report --audit --sitemap published/sitemap.xml --quiet': 1,
};

let site: { url: string; close(): Promise<void> };
let work = '';
beforeAll(async () => {
  site = await serveSampleSite();
  work = tempDir('audit-doc');
  sitemapkitShim(work);
});
afterAll(async () => {
  await site?.close();
});

function examples(): Array<{ command: string; shown: string | undefined }> {
  return shellExamples(PAGE);
}

describe('docs/audit.md', () => {
  it('runs every example verbatim, with the exit code and the output the page shows', async () => {
    const run = examples();
    const audits = run.filter((e) => e.command.startsWith('sitemapkit'));
    expect(audits.map((e) => e.command).sort()).toEqual(Object.keys(EXIT).sort());
    const here = site.url.replace(/\/$/, '');
    for (const { command, shown } of run) {
      const line = command.replaceAll('http://localhost:8080', here);
      const r = await runProcess('sh', ['-c', line], {
        cwd: work,
        env: { PATH: `${join(work, 'bin')}:${process.env['PATH'] ?? ''}` },
        limitMs: 120_000,
      });
      if (command.startsWith('sitemapkit')) expect(r.code, `${command}\n${r.stderr}`).toBe(EXIT[command]);
      else expect(r.code, command).toBe(0);
      if (shown === undefined) continue;
      const printed = r.stdout.replaceAll(here, 'http://localhost:8080');
      for (const l of shown.split('\n')) {
        if (l.trim() === '' || l.includes('…') || l.includes('response times')) continue;
        expect(printed, command).toContain(l);
      }
    }
    expect(readFileSync(join(work, 'audit.xml'), 'utf8')).toContain('<testsuites name="sitemapkit audit"');
    expect(readFileSync(join(work, 'audit.csv'), 'utf8')).toMatch(/^severity,code,url/);
    expect(existsSync(join(work, 'audit-report', 'report.html'))).toBe(true);
    expect(readFileSync(join(work, 'corrected', 'sitemap.xml'), 'utf8')).toContain(`${here}/about.html`);
    const fromCrawl = JSON.parse(readFileSync(join(work, 'crawl-report', 'audit.json'), 'utf8'));
    expect(fromCrawl.counts.error).toBe(3);
  });
});
