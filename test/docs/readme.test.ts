import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSampleSite } from '../../examples/crawl-site/serve.mjs';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { BIN, runProcess } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// Every shell command the README shows a user runs here verbatim, in README order, in a folder
// holding the files the examples name (urls.txt, pages.jsonl, a public/ site…), with `sitemapkit`
// on the PATH. The machine has no internet, so a command aimed at example.com must fail as a user
// offline would see it fail: one sentence about the network, never a usage error or a stack.
// The one substitution: the README's `http://localhost:8080/` is the bundled sample site, served
// here on a free port (examples/crawl-site/serve.mjs, as the README says).
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * `network`: exits 1 or 2 and names example.com in what it prints, or in the report it writes
 * (`validate … --out report.html` says "invalid" and puts the unreachable site in the report).
 */
type Expect = { exit: number } | { network: true; report?: string };
const NETWORK = { network: true } as const;

/** What each README command does here. A command missing from this table fails the test. */
const EXPECTED: Record<string, Expect> = {
  'sitemapkit generate urls.txt --base-url https://example.com/ --out dist/': { exit: 0 },
  'sitemapkit generate pages.jsonl --base-url https://example.com/ --out dist/ --gzip --xsl --html': {
    exit: 0,
  },
  'sitemapkit generate --from-dir public/ --exclude "drafts/**" --lastmod git --base-url https://example.com/ --out public/ --update-robots public/robots.txt':
    { exit: 0 },
  'cat urls.txt | sitemapkit generate - --input-format txt --base-url https://example.com/ --out dist/': {
    exit: 0,
  },
  'sitemapkit generate urls.txt --base-url https://example.com/ --out site/ --store site.db --changes changes.jsonl':
    { exit: 0 },
  'sitemapkit store add https://example.com/pricing --store site.db': { exit: 0 },
  'sitemapkit generate --store site.db --base-url https://example.com/ --out site/ --changes changes.jsonl': {
    exit: 0,
  },
  'sitemapkit crawl https://www.example.com/ --out dist/ --concurrency 8': NETWORK,
  'sitemapkit crawl http://localhost:8080/ --public-origin https://www.example.com --out dist/ --update-robots dist/robots.txt':
    { exit: 0 },
  'sitemapkit crawl http://localhost:8080/ --public-origin https://example.com/docs/15/ --out dist/docs/15/':
    {
      exit: 0,
    },
  'sitemapkit crawl https://www.example.com/ --out dist/ --resume        # continue an interrupted crawl':
    NETWORK,
  'sitemapkit crawl https://app.example.com/ --out dist/ --render': NETWORK,
  'sitemapkit crawl https://www.example.com/ --out dist/ --render auto': NETWORK,
  'sitemapkit audit https://www.example.com/ --report audit-report': NETWORK,
  'sitemapkit validate https://www.example.com --discover --live --format html --out report.html': {
    network: true,
    report: 'report.html',
  },
  'sitemapkit validate dist/sitemap.xml --sitemap-url https://www.example.com/sitemap.xml --format junit --out validate.xml':
    { exit: 0 },
  "sitemapkit parse https://example.com/sitemap.xml --format jsonl > urls.jsonl   # an index's sitemaps too":
    NETWORK,
  'sitemapkit parse https://example.com --discover --stats': NETWORK,
  'sitemapkit parse sitemap.xml.gz --sitemap-url https://example.com/sitemap.xml.gz --format csv': {
    exit: 0,
  },
  'sitemapkit robots check robots.txt --agent Googlebot https://example.com/private/a': { exit: 1 },
  'sitemapkit robots lint https://example.com --sitemap https://example.com/sitemap.xml': NETWORK,
  'sitemapkit submit key --out dist/     # writes dist/KEY.txt: publish it with the site': { exit: 0 },
  'sitemapkit submit --indexnow https://api.indexnow.org/indexnow --sitemap dist/ --since previous-manifest.json':
    NETWORK,
};

/** The README's shell commands after the set-up block, continuation lines joined. */
function readmeCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const commands: string[] = [];
  for (const m of readme.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const block = m[1]!.replace(/\\\n\s*/g, '');
    if (/^npm /m.test(block)) continue; // the set-up and development commands: CI runs those
    for (const line of block.split('\n')) {
      if (line.trim() === '' || line.startsWith('#')) continue;
      commands.push(line);
    }
  }
  return commands;
}

let work = '';
let site: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  site = await serveSampleSite();
  work = tempDir('readme');
  mkdirSync(join(work, 'bin'));
  writeFileSync(join(work, 'bin', 'sitemapkit'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(work, 'bin', 'sitemapkit'), 0o755);
  writeFileSync(
    join(work, 'urls.txt'),
    'https://example.com/\nhttps://example.com/about\nhttps://example.com/blog/\n',
  );
  writeFileSync(
    join(work, 'pages.jsonl'),
    `${[
      { loc: 'https://example.com/', lastmod: '2024-05-01', title: 'Home' },
      { loc: 'https://example.com/docs/', lastmod: '2024-05-02T10:00:00Z', section: 'docs', title: 'Docs' },
      {
        loc: 'https://example.com/blog/a',
        section: 'blog',
        title: 'A post',
        images: ['https://example.com/a.jpg'],
      },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n')}\n`,
  );
  const page = (title: string, extra = ''): string =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${extra}</head><body><h1>${title}</h1></body></html>\n`;
  mkdirSync(join(work, 'public', 'drafts'), { recursive: true });
  mkdirSync(join(work, 'public', 'guide'));
  writeFileSync(join(work, 'public', 'index.html'), page('Home'));
  writeFileSync(join(work, 'public', 'guide', 'index.html'), page('Guide'));
  writeFileSync(
    join(work, 'public', 'private.html'),
    page('Private', '<meta name="robots" content="noindex">'),
  );
  writeFileSync(join(work, 'public', 'drafts', 'next.html'), page('Draft'));
  writeFileSync(join(work, 'public', 'robots.txt'), 'User-agent: *\nDisallow: /private\n');
  // --lastmod git reads the commit dates of the pages.
  const git = (...args: string[]): void => {
    const r = spawnSync('git', args, { cwd: join(work, 'public'), encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  };
  git('init', '-q');
  git('add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'site');
  writeFileSync(join(work, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
  writeFileSync(
    join(work, 'sitemap.xml.gz'),
    gzipSync(
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
        '<url><loc>https://example.com/a</loc></url>\n<url><loc>https://example.com/b</loc></url>\n</urlset>\n',
    ),
  );
  // The manifest of an earlier build, as `cp dist/.sitemapkit-manifest.json previous-manifest.json`
  // keeps it (docs/submit.md).
  await writeSitemaps([{ loc: 'https://www.example.com/old' }], {
    outDir: join(work, 'previous'),
    baseUrl: 'https://www.example.com/',
  });
  copyFileSync(join(work, 'previous', '.sitemapkit-manifest.json'), join(work, 'previous-manifest.json'));
}, 60_000);

afterAll(async () => {
  await site?.close();
});

describe('README: every command runs as printed', () => {
  const commands = readmeCommands();

  it('lists each README command in this test, and nothing else', () => {
    expect(commands.length).toBeGreaterThan(10);
    expect([...commands].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const command of commands) {
    it(command, async () => {
      const line = command.replace('http://localhost:8080/', site.url);
      // Not spawnSync: the sample site is served from this process and must answer meanwhile.
      const r = await runProcess('sh', ['-c', line], {
        cwd: work,
        env: { PATH: `${join(work, 'bin')}:${process.env['PATH']}` },
      });
      const said = `${r.stdout}\n${r.stderr}`;
      expect(said, 'a stack trace').not.toMatch(/^\s+at /m);
      expect(said, 'a usage error').not.toMatch(/run with --help/);
      const want = EXPECTED[command];
      if (want === undefined) throw new Error(`add "${command}" to EXPECTED`);
      if ('network' in want) {
        expect([1, 2], said).toContain(r.code);
        const shown = want.report === undefined ? said : readFileSync(join(work, want.report), 'utf8');
        expect(shown).toMatch(/example\.com/);
      } else {
        expect(r.code, said).toBe(want.exit);
      }
    }, 60_000);
  }
});
