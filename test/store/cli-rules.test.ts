/**
 * The build-time rules of `generate` (news window, lastmod policy) through the store's command
 * line. They do not depend on the backend, so they run over SQLite only.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

describe('generate --store with the build-time rules', () => {
  it('--news-window: a store build drops the blocks of news published before it, as generate does', async () => {
    const dir = tempDir('sk-store-cli');
    const input = join(dir, 'news.jsonl');
    const news = (n: number, date: string): string =>
      JSON.stringify({
        loc: `https://example.com/news/${n}`,
        news: {
          publication: { name: 'Example', language: 'en' },
          publication_date: date,
          title: `News ${n}`,
        },
      });
    writeFileSync(input, `${news(1, '2026-11-20T10:00:00Z')}\n${news(2, '2026-11-26T10:00:00Z')}\n`);
    const r = await runBin(
      [
        'generate',
        input,
        '--base-url',
        'https://example.com/',
        '--out',
        join(dir, 'out'),
        '--store',
        join(dir, 's.db'),
        '--news-window',
        '36h',
      ],
      { env: { SOURCE_DATE_EPOCH: String(Date.parse('2026-11-26T12:00:00Z') / 1000) } },
    );
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
    expect(text).toContain('<url><loc>https://example.com/news/1</loc></url>');
    expect(text.match(/<news:news>/g)).toHaveLength(1);
  });

  it('--lastmod-policy: a store build warns by default and drops the lastmods with drop', async () => {
    const dir = tempDir('sk-store-cli');
    const input = join(dir, 'urls.csv');
    writeFileSync(
      input,
      `loc,lastmod\n${Array.from({ length: 25 }, (_, i) => `https://example.com/p/${i},2026-11-01`).join('\n')}\n`,
    );
    const args = ['generate', input, '--base-url', 'https://example.com/', '--out', join(dir, 'out')];
    const warn = await runBin([...args, '--store', join(dir, 'w.db')]);
    expect(warn.code, warn.stderr).toBe(0);
    expect(warn.stderr).toContain('lastmod-untrustworthy');
    expect(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')).toContain('<lastmod>2026-11-01</lastmod>');
    const drop = await runBin([...args, '--store', join(dir, 'w.db'), '--lastmod-policy', 'drop']);
    expect(drop.code, drop.stderr).toBe(0);
    expect(drop.stderr).toContain('so the sitemaps were written without lastmod');
    expect(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')).not.toContain('<lastmod>');
  });
});
