/**
 * `sitemapkit next` against next-sitemap 4.2.3 on the same real builds of one fixture app
 * (test/fixtures/next-app: app and pages routers, generateStaticParams, a noindex page, a route
 * handler API, a server-sitemap.xml route handler, a pages/api route), built once as a static
 * export and once as a server build. Both tools read the same next-sitemap.config.js; the URLs
 * next-sitemap lists and sitemapkit does not are each named with their reason.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, runProcess } from '../support/cli.js';
import { copyApp, NEXT_ENV, NEXT_SITEMAP_BIN, nextBuild, removeApps } from '../support/next-build.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';

// The server build reads the config of docs/next.md verbatim (CommonJS, as next-sitemap's users
// write it); next-sitemap needs output: 'export' to read an export.
const DOC_CONFIG = /```js\n(\/\*\* @type \{import\('sitemapkit\/next'\)[\s\S]*?)```/.exec(
  readFileSync(fileURLToPath(new URL('../../docs/next.md', import.meta.url)), 'utf8'),
)![1]!;
const EXPORT_CONFIG =
  "module.exports = { siteUrl: 'https://example.com', generateRobotsTxt: true, output: 'export' };\n";

/**
 * The locs of a urlset as URLs (next-sitemap writes the root as https://example.com and é raw;
 * sitemapkit writes https://example.com/ and escapes é as the protocol asks), decoded for reading.
 */
function locs(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) =>
    decodeURI(new URL(m[1]!.replace(/&amp;/g, '&')).href),
  );
}

interface Side {
  dir: string;
  out: string;
  buildSeconds: number;
  theirs: string[];
  ours: {
    urls: number;
    leftOut: Array<{ path: string; reason: string }>;
    diagnostics: Array<{ code: string; url?: string }>;
  };
  oursLocs: string[];
}

async function buildBoth(kind: 'export' | 'server'): Promise<Side> {
  const dir = copyApp('test/fixtures/next-app', `next-${kind}`);
  const buildSeconds = await nextBuild(dir, kind === 'export' ? { SITEMAPKIT_NEXT_OUTPUT: 'export' } : {});
  writeFileSync(join(dir, 'next-sitemap.config.js'), kind === 'export' ? EXPORT_CONFIG : DOC_CONFIG);
  const out = join(dir, kind === 'export' ? 'out' : 'public');
  const peer = await runProcess(process.execPath, [NEXT_SITEMAP_BIN], { cwd: dir, env: NEXT_ENV });
  expect(peer.code, peer.stderr).toBe(0);
  const theirs = locs(join(out, 'sitemap-0.xml'));
  // sitemapkit next over the same folder, as a postbuild script would run it after next-sitemap's.
  const run = await runBin(['next', dir, '--json']);
  expect(run.code, run.stderr).toBe(0);
  const ours = JSON.parse(run.stdout) as Side['ours'];
  return { dir, out, buildSeconds, theirs, ours, oursLocs: locs(join(out, 'sitemap-0.xml')) };
}

const NOINDEX = 'https://example.com/private';

afterAll(removeApps);

describe.each(['export', 'server'] as const)('sitemapkit next on a %s build, beside next-sitemap', (kind) => {
  let side: Side;
  beforeAll(async () => {
    assertXmllint();
    side = await buildBoth(kind);
    // The suite's cost, for the report (npm test must stay under 15 minutes on two cores).
    process.stderr.write(`next build (${kind}): ${side.buildSeconds.toFixed(1)} s\n`);
  }, 600_000);

  it('lists every URL next-sitemap lists, less only those left out for a stated reason', () => {
    const ours = new Set(side.oursLocs);
    const missing = side.theirs.filter((u) => !ours.has(u)).sort();
    // The static export holds no route handler as an HTML file, and next-sitemap reads only those.
    const expected =
      kind === 'export'
        ? [NOINDEX]
        : ['https://example.com/api/hello', NOINDEX, 'https://example.com/server-sitemap.xml'];
    expect(missing).toEqual(expected);
    expect(side.oursLocs.filter((u) => !side.theirs.includes(u))).toEqual([]);
    // Each, by name, with its reason.
    const reasons = new Map(side.ours.leftOut.map((l) => [l.path, l.reason]));
    if (kind === 'server') {
      expect(reasons.get('/api/hello')).toBe('route-handler');
      expect(reasons.get('/server-sitemap.xml')).toBe('route-handler');
      expect(reasons.get('/api/ping')).toBe('api-route');
      expect(reasons.get('/_not-found')).toBe('internal');
    }
    expect(side.ours.diagnostics.filter((d) => d.code === 'page-noindex').map((d) => d.url)).toEqual([
      NOINDEX,
    ]);
  });

  it('includes the dynamic routes of generateStaticParams, and no API route, route handler or _not-found', () => {
    expect(side.oursLocs).toEqual(
      expect.arrayContaining([
        'https://example.com/blog/hello-world',
        'https://example.com/blog/second-post',
        'https://example.com/blog/café',
        'https://example.com/docs/guide/start',
        'https://example.com/docs/faq',
        'https://example.com/legacy',
      ]),
    );
    for (const path of ['/api/hello', '/api/ping', '/server-sitemap.xml', '/_not-found', '/404', '/500'])
      expect(side.oursLocs).not.toContain(`https://example.com${path}`);
  });

  it('adds what the pages show: images, hreflang; escapes the URL as the protocol asks', () => {
    const child = readFileSync(join(side.out, 'sitemap-0.xml'), 'utf8');
    expect(child).toContain('<image:loc>https://example.com/images/hero.jpg</image:loc>');
    expect(child).toContain('hreflang="fr" href="https://example.com/fr"');
    expect(child).toContain('<loc>https://example.com/blog/caf%C3%A9</loc>');
    // The layout's logo is on every page: a template image, left out.
    expect(child).not.toContain('logo.png');
  });

  it('generate --from-next lists the same pages as sitemapkit next', async () => {
    const out = join(side.dir, 'generated');
    const run = await runBin([
      'generate',
      '--from-next',
      side.dir,
      '--base-url',
      'https://example.com/',
      '--out',
      out,
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('page-noindex');
    expect(locs(join(out, 'sitemap.xml')).sort()).toEqual([...side.oursLocs].sort());
  });

  it("keeps next-sitemap's file names, and every file is valid against the XSDs", () => {
    const index = readFileSync(join(side.out, 'sitemap.xml'), 'utf8');
    expect(index).toContain('<loc>https://example.com/sitemap-0.xml</loc>');
    for (const name of ['sitemap.xml', 'sitemap-0.xml']) {
      const r = xmllint(join(side.out, name));
      expect(r.ok, r.output).toBe(true);
    }
    const robots = readFileSync(join(side.out, 'robots.txt'), 'utf8');
    expect(robots).toContain('User-agent: *\nAllow: /\n');
    expect(robots).toContain('Sitemap: https://example.com/sitemap.xml\n');
  });
});
