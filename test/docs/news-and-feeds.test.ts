import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, runProcess } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// Every shell command of docs/news-and-feeds.md runs here verbatim, in order, in a folder holding
// the page's news.jsonl and a freshly written public/ site, with `sitemapkit` on the PATH; the
// output the page shows is checked against what the commands print and write.
const DOC = readFileSync(fileURLToPath(new URL('../../docs/news-and-feeds.md', import.meta.url)), 'utf8');

function blocks(lang: string): string[] {
  return [...DOC.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1]!);
}

describe('docs/news-and-feeds.md', () => {
  it('runs every example as shown, and prints and writes what the page says', async () => {
    const work = tempDir('sk-doc-news');
    mkdirSync(join(work, 'bin'));
    writeFileSync(join(work, 'bin', 'sitemapkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(work, 'bin', 'sitemapkit'), 0o755);
    writeFileSync(join(work, 'news.jsonl'), blocks('jsonl')[0]!);
    mkdirSync(join(work, 'public'));
    for (let i = 0; i < 25; i++)
      writeFileSync(join(work, 'public', `page-${i}.html`), `<!doctype html><title>Page ${i}</title>`);
    const commands = blocks('sh').flatMap((b) => b.split('\n').filter((l) => l.trim() !== ''));
    expect(commands).toHaveLength(5);
    const printed: string[] = [];
    for (const line of commands) {
      const r = await runProcess('sh', ['-c', line], {
        cwd: work,
        env: { PATH: `${join(work, 'bin')}:${process.env['PATH']}` },
      });
      expect(r.code, `${line}\n${r.stderr}`).toBe(0);
      printed.push(r.stderr);
      // The feed example: the page shows the feed.xml it writes.
      if (line.includes('--feed atom'))
        expect(readFileSync(join(work, 'dist', 'feed.xml'), 'utf8')).toBe(blocks('xml')[0]);
    }
    const [info] = blocks('text');
    expect(printed[0]).toBe(info);
    expect(printed[1]).toBe('');
    expect(readFileSync(join(work, 'dist', 'robots.txt'), 'utf8')).toBe(
      'Sitemap: https://example.com/sitemap.xml\nSitemap: https://example.com/feed.xml\n',
    );
    // The drop example: fresh file times, so the lastmods went.
    expect(printed[4]).toContain('lastmod-untrustworthy');
    expect(readFileSync(join(work, 'dist', 'sitemap.xml'), 'utf8')).not.toContain('<lastmod>');
  });
});
