import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runBin } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { readSitemapText, xmllint } from '../support/xmllint.js';

const BASE = 'https://example.com/';

/** Runs `sitemapkit generate INPUT --base-url BASE --out OUT ...extra` as a child process. */
function generate(input: string, out: string, ...extra: string[]): ReturnType<typeof runBin> {
  return runBin(['generate', input, '--base-url', BASE, '--out', out, ...extra]);
}

describe('sitemapkit generate', () => {
  it('txt input: writes, prints a summary, exits 0', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'urls.txt'), `${BASE}\n# a comment\n\n${BASE}a\r\n${BASE}b\n`);
    const r = await generate(join(dir, 'urls.txt'), join(dir, 'out'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Wrote 3 URLs in 1 file/);
    expect(readSitemapText(join(dir, 'out', 'sitemap.xml'))).toContain(`<loc>${BASE}a</loc>`);
  });

  it('an invalid record: exit 1, names file and line, writes nothing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'urls.txt'), `${BASE}\n${BASE}a\n/relative\n`);
    const r = await generate(join(dir, 'urls.txt'), join(dir, 'out'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'urls.txt')}:3: error url-invalid (loc)`);
    expect(r.stderr).toContain('nothing was written');
    const skip = await generate(join(dir, 'urls.txt'), join(dir, 'out'), '--on-invalid', 'skip');
    expect(skip.code).toBe(1);
    expect(skip.stdout).toMatch(/1 invalid or duplicate record skipped/);
    expect(readSitemapText(join(dir, 'out', 'sitemap.xml'))).toContain(`<loc>${BASE}a</loc>`);
  });

  it('zero URLs: exit 1 with no-urls, nothing written', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'urls.txt'), '# nothing\n');
    const r = await generate(join(dir, 'urls.txt'), join(dir, 'out'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no URLs to write');
  });

  it('CSV with hreflang and image columns, JSONL, and stdin', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'pages.csv'),
      `url,lastmod,priority,images,hreflang:en,hreflang:de\n"${BASE}en",2024-01-01,0.8,"${BASE}1.jpg ${BASE}2.jpg",${BASE}en,${BASE}de\n${BASE}de,,,,${BASE}en,${BASE}de\n`,
    );
    writeFileSync(join(dir, 'more.jsonl'), `${JSON.stringify({ loc: `${BASE}j`, changefreq: 'weekly' })}\n`);
    const r = await runBin(
      [
        'generate',
        join(dir, 'pages.csv'),
        join(dir, 'more.jsonl'),
        '-',
        '--input-format',
        'txt',
        '--base-url',
        BASE,
        '--out',
        join(dir, 'out'),
        '--json',
      ],
      { input: `${BASE}stdin\n` },
    );
    // --input-format applies to every input when given: the CSV is then read as text lines.
    expect(r.code).toBe(1);
    const ok = await runBin([
      'generate',
      join(dir, 'pages.csv'),
      join(dir, 'more.jsonl'),
      '--base-url',
      BASE,
      '--out',
      join(dir, 'out'),
      '--json',
    ]);
    expect(ok.code, ok.stderr).toBe(0);
    const summary = JSON.parse(ok.stdout);
    expect(summary).toMatchObject({ ok: true, urls: 3, skipped: 0 });
    const xml = readSitemapText(join(dir, 'out', 'sitemap.xml'));
    expect(xml).toContain('<xhtml:link rel="alternate" hreflang="de" href="https://example.com/de"/>');
    expect(xml).toContain('<image:loc>https://example.com/2.jpg</image:loc>');
    expect(xmllint(join(dir, 'out', 'sitemap.xml')).ok).toBe(true);
    const stdin = await runBin(
      ['generate', '-', '--input-format', 'txt', '--base-url', BASE, '--out', join(dir, 'out2')],
      { input: `${BASE}stdin\n` },
    );
    expect(stdin.code, stdin.stderr).toBe(0);
    expect(readSitemapText(join(dir, 'out2', 'sitemap.xml'))).toContain(`${BASE}stdin`);
  });

  it('a CSV with an unknown column or a broken JSONL line names the place', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.csv'), 'loc,lastmodified\nhttps://example.com/,2024\n');
    const a = await generate(join(dir, 'a.csv'), join(dir, 'out'));
    expect(a.code).toBe(2);
    expect(a.stderr).toContain(`${join(dir, 'a.csv')}:1: unknown CSV column "lastmodified"`);
    writeFileSync(join(dir, 'b.jsonl'), `{"loc":"${BASE}"}\n{"loc": broken\n`);
    const b = await generate(join(dir, 'b.jsonl'), join(dir, 'out'));
    expect(b.code).toBe(1);
    expect(b.stderr).toContain(`${join(dir, 'b.jsonl')}:2: error record-unreadable`);
  });

  it('usage errors exit 2', async () => {
    expect((await runBin(['generate', 'x.txt', '--out', 'o'])).code).toBe(2);
    expect((await generate('x.unknown', 'o')).code).toBe(2);
    expect((await runBin(['generate', '--base-url', BASE, '--out', 'o', '--max-urls', 'many'])).code).toBe(2);
    expect((await runBin(['nonsense'])).code).toBe(2);
    const help = await runBin(['generate', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--base-url');
  });

  it('--from-dir: index.html is the folder URL; noindex and canonicalised pages are left out and reported; titles kept', async () => {
    const site = tempDir();
    mkdirSync(join(site, 'docs', 'drafts'), { recursive: true });
    writeFileSync(join(site, 'index.html'), '<title>Home</title><h1>Home</h1>');
    writeFileSync(
      join(site, 'docs', 'index.html'),
      '<title>Docs  &amp; more</title><link rel="canonical" href="./">',
    );
    writeFileSync(
      join(site, 'docs', 'a b.html'),
      '<html><head><base href="/docs/"><link rel="canonical" href="a%20b.html"><title>A</title></head></html>',
    );
    writeFileSync(join(site, 'docs', 'copy.html'), '<link rel="canonical" href="https://example.com/docs/">');
    writeFileSync(join(site, 'docs', 'secret.html'), '<meta name="robots" content="noindex, follow">');
    writeFileSync(join(site, 'docs', 'gb.html'), '<meta name="googlebot" content="none">');
    writeFileSync(
      join(site, 'docs', 'odd.html'),
      '<link rel="canonical" href="javascript:void(0)"><title>Odd</title>',
    );
    writeFileSync(join(site, 'docs', 'drafts', 'wip.html'), '<title>WIP</title>');
    writeFileSync(join(site, 'style.css'), 'body{}');
    utimesSync(join(site, 'index.html'), new Date('2024-05-06T07:08:09Z'), new Date('2024-05-06T07:08:09Z'));
    const args = [
      'generate',
      '--from-dir',
      site,
      '--exclude',
      'docs/drafts/**',
      '--base-url',
      BASE,
      '--out',
      site,
      '--html',
    ];
    const r = await runBin([...args, '--xsl']);
    expect(r.code, r.stderr).toBe(0);
    const xml = readSitemapText(join(site, 'sitemap.xml'));
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]);
    expect(locs).toEqual([`${BASE}docs/a%20b.html`, `${BASE}docs/`, `${BASE}docs/odd.html`, BASE]);
    expect(xml).toContain(`<loc>${BASE}</loc><lastmod>2024-05-06T07:08:09Z</lastmod>`);
    expect(r.stderr).toMatch(/secret\.html: info page-noindex/);
    expect(r.stderr).toMatch(/gb\.html: info page-noindex/);
    expect(r.stderr).toMatch(/copy\.html: info page-canonicalized/);
    expect(r.stderr).toMatch(/odd\.html: warning canonical-ignored/);
    const html = readFileSync(join(site, 'sitemap.html'), 'utf8');
    expect(html).toContain('Docs &amp; more');
    // A second run must not list its own HTML site map pages as pages of the site.
    const again = await runBin(args);
    expect(again.code, again.stderr).toBe(0);
    expect(readSitemapText(join(site, 'sitemap.xml'))).not.toContain('sitemap.html');
  });

  it('Ctrl-C (SIGINT): exit 130, the previous sitemaps untouched, no temp folder left', async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    writeFileSync(join(dir, 'small.txt'), `${BASE}\n${BASE}a\n`);
    expect((await generate(join(dir, 'small.txt'), out)).code).toBe(0);
    const before = readFileSync(join(out, 'sitemap.xml'));
    let big = '';
    for (let i = 0; i < 400_000; i++) big += `${BASE}p/${i}\n`;
    writeFileSync(join(dir, 'big.txt'), big);
    const child = spawn(
      process.execPath,
      [BIN, 'generate', join(dir, 'big.txt'), '--base-url', BASE, '--out', out],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Interrupt once the run is under way (the temp folder exists).
    for (let i = 0; i < 200 && !readdirSync(out).some((n) => n.startsWith('.sitemapkit-tmp')); i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain('interrupted');
    expect(readFileSync(join(out, 'sitemap.xml'))).toEqual(before);
    expect(readdirSync(out).filter((n) => n.startsWith('.sitemapkit-tmp'))).toEqual([]);
  });

  it('--html with --site-name and --links-per-page', async () => {
    const dir = tempDir();
    let urls = '';
    for (let i = 0; i < 5; i++) urls += `${BASE}p/${i}\n`;
    writeFileSync(join(dir, 'urls.txt'), urls);
    const out = join(dir, 'out');
    const r = await generate(
      join(dir, 'urls.txt'),
      out,
      '--html',
      '--site-name',
      'Acme & Co',
      '--links-per-page',
      '2',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(
      readdirSync(out)
        .filter((n) => n.endsWith('.html'))
        .sort(),
    ).toEqual([
      'sitemap-00001.html',
      'sitemap-00002.html',
      'sitemap-00003.html',
      'sitemap.html',
      // Three pages are more than two links: the pages are listed on pages of their own.
      'sitemap.pages-00001.html',
      'sitemap.pages-00002.html',
    ]);
    expect(readFileSync(join(out, 'sitemap.html'), 'utf8')).toContain('Acme &amp; Co');
    expect((await generate(join(dir, 'urls.txt'), out, '--html', '--links-per-page', '0')).code).toBe(2);
  });
});
