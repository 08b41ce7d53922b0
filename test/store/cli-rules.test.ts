/**
 * The build-time rules of `generate` (news window, lastmod policy) through the store's command
 * line. They do not depend on the backend, so they run over SQLite only.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin } from '../support/cli.js';
import { startServer } from '../support/http-server.js';
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
  it('--from-sitemap with a child that cannot be read publishes nothing: the store takes its input as the whole set', async () => {
    const site = await startServer({});
    try {
      const urlset = (paths: string[]): string =>
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${site.url}${p}</loc></url>`).join('')}</urlset>\n`;
      const xml = (body: string) => ({ headers: { 'content-type': 'application/xml' }, body });
      let bDown = false;
      site.route(
        '/index.xml',
        xml(
          `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.url}a.xml</loc></sitemap><sitemap><loc>${site.url}b.xml</loc></sitemap></sitemapindex>\n`,
        ),
      );
      site.route('/a.xml', xml(urlset(Array.from({ length: 30 }, (_, i) => `a/${i}`))));
      site.route('/b.xml', (_req, res) => {
        if (bDown) res.writeHead(503).end('down');
        else res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(['b/1', 'b/2']));
      });
      const dir = tempDir('sk-store-cli');
      const args = [
        'generate',
        '--from-sitemap',
        `${site.url}index.xml`,
        '--allow-private-addresses',
        '--base-url',
        site.url,
        '--out',
        join(dir, 'out'),
        '--store',
        join(dir, 's.db'),
        '--changes',
        join(dir, 'changes.jsonl'),
      ];
      const first = await runBin(args);
      expect(first.code, first.stderr).toBe(0);
      const before = readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8');
      expect(before.match(/<loc>/g)).toHaveLength(32);

      // b.xml answers 503: its two URLs must not be taken for removed.
      bDown = true;
      const second = await runBin(args.map((a) => (a.endsWith('changes.jsonl') ? join(dir, 'c2.jsonl') : a)));
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('nothing was published');
      expect(second.stderr).not.toMatch(/\n\s+at /);
      expect(readFileSync(join(dir, 'out', 'sitemap.xml'), 'utf8')).toBe(before);
      expect(existsSync(join(dir, 'c2.jsonl'))).toBe(false);
      const list = await runBin(['store', 'list', '--store', join(dir, 's.db')]);
      expect(list.stdout.trim().split('\n')).toHaveLength(32);
    } finally {
      await site.close();
    }
  });
});
