import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { BIN, runBin } from '../support/cli.js';
import { html, type Route, type TestServer as Site, startServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { xmllint } from '../support/xmllint.js';

const sites: Site[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

const ROBOTS: Route = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

/** A site of `n` pages under / that answer after `delayMs`. */
async function bigSite(n: number, delayMs: number): Promise<Site> {
  const routes: Record<string, Route> = { '/robots.txt': ROBOTS };
  routes['/'] = html('Home', Array.from({ length: n }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
  for (let i = 0; i < n; i++) routes[`/p${i}`] = { ...html(`Page ${i}`, '<a href="/">home</a>'), delayMs };
  const s = await startServer(routes);
  sites.push(s);
  return s;
}

function start(
  args: string[],
  cwd: string,
): { child: ChildProcess; done: Promise<{ code: number | null; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  child.stdout!.resume();
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stderr })),
  );
  return { child, done };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

function finishedUrls(state: string): string[] {
  const db = new Database(state, { readonly: true });
  try {
    return (
      db.prepare('SELECT url FROM urls WHERE state = 2 AND attempts > 0').all() as Array<{ url: string }>
    ).map((r) => r.url);
  } finally {
    db.close();
  }
}

describe('sitemapkit crawl', () => {
  it('crawls, writes the sitemaps, the HTML site map and the report, and exits 0', async () => {
    const s = await bigSite(3, 0);
    const dir = tempDir('sk-crawl-cli');
    const r = await runBin(['crawl', `${s.origin}/`, '--out', 'out'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/4 pages in the sitemap/);
    expect(r.stdout).toContain('report: sitemapkit-report/report.html');
    for (const f of [
      'out/sitemap.xml',
      'out/sitemap.html',
      'sitemapkit-report/urls.csv',
      `.sitemapkit/crawl-127.0.0.1_${new URL(s.origin).port}.db`,
    ]) {
      expect(existsSync(join(dir, f)), f).toBe(true);
    }
    expect(xmllint(join(dir, 'out/sitemap.xml'))).toMatchObject({ ok: true });
    const json = await runBin(['crawl', `${s.origin}/`, '--out', 'out', '--fresh', '--json'], { cwd: dir });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, complete: true, stats: { listed: 4 } });
  });

  it('exit 2 for usage errors, a report inside --out, a missing state, and an unreachable robots.txt', async () => {
    const dir = tempDir('sk-crawl-cli');
    const s = await startServer({ '/robots.txt': { status: 500 }, '/': html('Home') });
    sites.push(s);
    await writeSitemaps([{ loc: `${s.origin}/kept` }], { outDir: join(dir, 'out'), baseUrl: `${s.origin}/` });
    const before = readFileSync(join(dir, 'out/sitemap.xml'), 'utf8');
    const robots = await runBin(['crawl', `${s.origin}/`, '--out', 'out'], { cwd: dir });
    expect(robots.code).toBe(2);
    expect(robots.stderr).toMatch(
      /HTTP 500: nothing was crawled and the previous sitemaps are untouched \[ERR_HTTP\]/,
    );
    expect(readFileSync(join(dir, 'out/sitemap.xml'), 'utf8')).toBe(before);
    expect(s.requests.map((q) => q.path)).toEqual(['/robots.txt']);
    const inside = await runBin(['crawl', `${s.origin}/`, '--out', 'out', '--report', 'out/report'], {
      cwd: dir,
    });
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/inside the output folder/);
    const resume = await runBin(['crawl', `${s.origin}/`, '--out', 'out', '--resume'], { cwd: dir });
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/no crawl state to resume \[ERR_STATE\]/);
    const bad = await runBin(['crawl', `${s.origin}/`, '--out', 'out', '--concurrency', 'x'], { cwd: dir });
    expect(bad.code).toBe(2);
    const help = await runBin(['crawl', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--public-origin');
  });

  it('exit 1 when no page can be listed (the previous sitemaps stay)', async () => {
    const s = await startServer({
      '/robots.txt': ROBOTS,
      '/': html('Home', '', '<meta name="robots" content="noindex">'),
    });
    sites.push(s);
    const dir = tempDir('sk-crawl-cli');
    const r = await runBin(['crawl', `${s.origin}/`, '--out', 'out'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no page could be listed/);
    expect(existsSync(join(dir, 'sitemapkit-report/report.html'))).toBe(true);
  });

  it('after kill -9, --resume fetches no finished page again (at most the pages in flight)', async () => {
    const s = await bigSite(60, 15);
    const dir = tempDir('sk-crawl-kill');
    const state = join(dir, 'state.db');
    const args = ['crawl', `${s.origin}/`, '--out', 'out', '--state', state, '--concurrency', '3'];
    const run = start(args, dir);
    await until(() => s.requests.filter((q) => q.path.startsWith('/p')).length >= 15);
    run.child.kill('SIGKILL');
    const killed = await run.done;
    expect(killed.code).toBeNull();
    expect(existsSync(join(dir, 'out/sitemap.xml'))).toBe(false);
    const finished = finishedUrls(state).map((u) => new URL(u).pathname);
    expect(finished.length).toBeGreaterThanOrEqual(10);
    const before = new Map(finished.map((p) => [p, s.hits(p)]));
    const askedBefore = new Set(s.requests.map((q) => q.path));
    const resumed = await runBin([...args, '--resume'], { cwd: dir });
    expect(resumed.code).toBe(0);
    // No finished page was fetched again.
    for (const [p, n] of before) expect(s.hits(p), p).toBe(n);
    // Pages asked for both times: only those in flight at the kill (at most --concurrency).
    const twice = [...askedBefore].filter((p) => p !== '/robots.txt' && s.hits(p) > 1);
    expect(twice.length).toBeLessThanOrEqual(3);
    const xml = readFileSync(join(dir, 'out/sitemap.xml'), 'utf8');
    expect(xml.match(/<url>/g)).toHaveLength(61);
  });

  it('Ctrl-C stops cleanly: exit 130, state saved, previous sitemaps untouched; --resume finishes', async () => {
    const s = await bigSite(40, 15);
    const dir = tempDir('sk-crawl-int');
    await writeSitemaps([{ loc: `${s.origin}/previous` }], {
      outDir: join(dir, 'out'),
      baseUrl: `${s.origin}/`,
    });
    const before = readFileSync(join(dir, 'out/sitemap.xml'), 'utf8');
    const args = ['crawl', `${s.origin}/`, '--out', 'out', '--state', 'state.db', '--concurrency', '2'];
    const run = start(args, dir);
    await until(() => s.requests.filter((q) => q.path.startsWith('/p')).length >= 8);
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toMatch(/interrupted/);
    expect(readFileSync(join(dir, 'out/sitemap.xml'), 'utf8')).toBe(before);
    const finished = finishedUrls(join(dir, 'state.db'));
    expect(finished.length).toBeGreaterThanOrEqual(6);
    const resumed = await runBin([...args, '--resume'], { cwd: dir });
    expect(resumed.code).toBe(0);
    for (const u of finished) expect(s.hits(new URL(u).pathname)).toBe(1);
    const xml = readFileSync(join(dir, 'out/sitemap.xml'), 'utf8');
    expect(xml.match(/<url>/g)).toHaveLength(41);
    expect(xml).not.toContain('/previous');
  });

  it('Ctrl-C says the state is saved and prints the exact command that resumes; that command finishes the crawl', async () => {
    const routes: Record<string, Route> = { '/robots.txt': ROBOTS };
    routes['/'] = html('Home', Array.from({ length: 30 }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
    let pages = 0;
    let child: ChildProcess | undefined;
    for (let i = 0; i < 30; i++) {
      // The sixth page request interrupts the crawl while it is under way, and is never answered:
      // the window is hit on purpose, at the same point on a loaded machine as on an idle one.
      routes[`/p${i}`] = (_req, res) => {
        pages++;
        if (pages === 6) child!.kill('SIGINT');
        if (pages >= 6) return;
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<title>Page ${i}</title>`);
      };
    }
    const s = await startServer(routes);
    sites.push(s);
    const dir = tempDir('sk-crawl-int');
    const args = [
      'crawl',
      `${s.origin}/`,
      '--out',
      'out',
      '--state',
      'state.db',
      '--concurrency',
      '1',
      '--fresh',
    ];
    const run = start(args, dir);
    child = run.child;
    const stopped = await run.done;
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain('interrupted: the crawl state is saved in state.db');
    const shown = /to continue, run from this folder:\n {2}(.*)\n/.exec(stopped.stderr)?.[1];
    expect(shown).toBe(`sitemapkit crawl ${s.origin}/ --out out --state state.db --concurrency 1 --resume`);
    expect(existsSync(join(dir, 'out/sitemap.xml'))).toBe(false);
    // The pages from here on answer: the printed command (without "sitemapkit") finishes the crawl.
    for (let i = 0; i < 30; i++) routes[`/p${i}`] = html(`Page ${i}`);
    const resumed = await runBin(shown!.split(' ').slice(1), { cwd: dir });
    expect(resumed.code).toBe(0);
    expect(readFileSync(join(dir, 'out/sitemap.xml'), 'utf8').match(/<url>/g)).toHaveLength(31);
    expect(s.hits('/p0')).toBe(1);
  });
});
