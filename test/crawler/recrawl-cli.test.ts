import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { crawl } from '../../src/crawler/crawl.js';
import { BIN, runBin } from '../support/cli.js';
import { answer, html, type Route, type TestServer as Site, startServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const sites: Site[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(sites.splice(0).map((s) => s.close()));
});

const ROBOTS: Route = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };

/** `n` pages linked from the home page; their text is `Page I, version V` with V from `version`. */
async function site(n: number, version: { v: number }, extra: Record<string, Route> = {}): Promise<Site> {
  const routes: Record<string, Route> = { '/robots.txt': ROBOTS, ...extra };
  routes['/'] = html('Home', Array.from({ length: n }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
  for (let i = 0; i < n; i++) {
    routes[`/p${i}`] = answer(() =>
      html(`Page ${i}`, `<p>Page ${i}, version ${version.v}</p><a href="/">home</a>`),
    );
  }
  const s = await startServer(routes);
  sites.push(s);
  return s;
}

function lines(path: string): Array<{ change: string; loc: string; at: string; lastmod?: string }> {
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { change: string; loc: string; at: string; lastmod?: string });
}

function query<T>(state: string, sql: string): T[] {
  const db = new Database(state, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

describe('sitemapkit crawl --recrawl', () => {
  it('says what changed since the last crawl and writes the change set; refuses --recrawl with --resume', async () => {
    const version = { v: 1 };
    const s = await site(3, version);
    const dir = tempDir('sk-recrawl-cli');
    const args = ['crawl', `${s.origin}/`, '--out', 'out', '--state', 'site.db', '--recrawl'];
    // No state yet: --recrawl is a first crawl (so a cron job needs no first run by hand).
    const first = await runBin(args, { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/4 pages in the sitemap/);
    expect(first.stdout).not.toMatch(/since the last crawl/);
    expect(readFileSync(join(dir, 'out/sitemap.xml'), 'utf8')).not.toContain('<lastmod>');
    version.v = 2;
    const again = await runBin([...args, '--changes', 'changes/today.jsonl'], { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(
      'since the last crawl: 1 unchanged (0 answered 304), 3 changed, 0 new, 0 gone',
    );
    expect(again.stdout).toContain('change set: changes/today.jsonl');
    const changes = lines(join(dir, 'changes/today.jsonl'));
    expect(changes.map((c) => `${c.change} ${new URL(c.loc).pathname}`).sort()).toEqual([
      'changed /p0',
      'changed /p1',
      'changed /p2',
    ]);
    // The published lastmod of a changed page is the time its change was observed.
    const xml = readFileSync(join(dir, 'out/sitemap.xml'), 'utf8');
    expect(xml.match(/<lastmod>/g)).toHaveLength(3);
    expect(xml).toContain(`<lastmod>${changes[0]!.at}</lastmod>`);
    const report = readFileSync(join(dir, 'sitemapkit-report/report.html'), 'utf8');
    expect(report).toContain('since the last crawl');
    const json = await runBin([...args, '--json'], { cwd: dir });
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      stats: { changes: { unchanged: 4, changed: 0, added: 0, removed: 0 } },
    });
    const both = await runBin([...args, '--resume'], { cwd: dir });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--recrawl and --resume exclude each other/);
  });

  it('after kill -9 during a recrawl, --recrawl again fetches no re-visited page again and keeps the changes it saw', async () => {
    const version = { v: 1 };
    const n = 40;
    let child: ChildProcess | undefined;
    let recrawled = 0;
    let dead = false;
    const s = await site(n, version);
    const dir = tempDir('sk-recrawl-kill');
    const state = join(dir, 'site.db');
    const args = [
      BIN,
      'crawl',
      `${s.origin}/`,
      '--out',
      'out',
      '--state',
      state,
      '--recrawl',
      '--concurrency',
      '2',
    ];
    const first = await runBin(args.slice(1), { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    version.v = 2;
    // The fault-injection point: the 15th page request of the recrawl kills the crawler and is
    // never answered, at the same point on a loaded machine as on an idle one.
    for (let i = 0; i < n; i++) {
      const page = answer(() => html(`Page ${i}`, `<p>Page ${i}, version 2</p><a href="/">home</a>`));
      s.route(`/p${i}`, (req, res, ctx) => {
        recrawled++;
        if (recrawled === 15) child?.kill('SIGKILL');
        // Requests of the killed process in flight: never answered (it is gone anyway).
        if (recrawled >= 15 && !dead) return;
        return page(req, res, ctx);
      });
    }
    child = spawn(process.execPath, args, { cwd: dir, stdio: ['ignore', 'ignore', 'ignore'] });
    children.push(child);
    const code = await new Promise<number | null>((r) => child!.on('close', (c) => r(c)));
    dead = true;
    expect(code).toBeNull();
    // What the killed recrawl finished: re-visited and found changed, durably.
    const done = query<{ url: string; change: string; changed_at: string }>(
      state,
      "SELECT url, change, changed_at FROM urls WHERE state = 2 AND attempts > 0 AND url LIKE '%/p%'",
    );
    expect(done.length).toBeGreaterThanOrEqual(10);
    for (const r of done) expect(r.change).toBe('changed');
    const hitsBefore = new Map(done.map((r) => [new URL(r.url).pathname, s.hits(new URL(r.url).pathname)]));
    const resumed = await runBin([...args.slice(1), '--changes', 'changes.jsonl'], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/had not finished: it goes on/);
    for (const [p, hits] of hitsBefore) expect(s.hits(p), p).toBe(hits);
    const changes = lines(join(dir, 'changes.jsonl'));
    expect(changes).toHaveLength(n);
    expect(new Set(changes.map((c) => c.change))).toEqual(new Set(['changed']));
    // A change seen before the kill keeps the time it was seen.
    const at = new Map(changes.map((c) => [new URL(c.loc).pathname, c.at]));
    for (const r of done) expect(at.get(new URL(r.url).pathname)).toBe(r.changed_at);
  });

  it('opens a state written by the previous release (format 1), migrates it and recrawls it', async () => {
    const version = { v: 1 };
    const gone = { on: false };
    const s = await site(3, version, {
      '/old': answer(() => (gone.on ? { status: 410, body: 'gone' } : html('Old', '<p>Old</p>'))),
    });
    s.route(
      '/',
      html('Home', '<a href="/p0">0</a><a href="/p1">1</a><a href="/p2">2</a><a href="/old">old</a>'),
    );
    const dir = tempDir('sk-recrawl-v1');
    const scratch = join(dir, 'scratch.db');
    const options = { start: `${s.origin}/`, outDir: join(dir, 'out') };
    await crawl({ ...options, state: scratch });
    // The same crawl as the previous release stored it: its schema, its columns, version 1.
    const v1 = join(dir, 'v1.db');
    const db = new Database(v1);
    db.exec(V1_SCHEMA);
    db.exec(`ATTACH DATABASE '${scratch.replace(/'/g, "''")}' AS cur`);
    db.exec(`INSERT INTO urls SELECT ${V1_COLUMNS} FROM cur.urls`);
    db.exec('INSERT INTO links SELECT * FROM cur.links');
    db.exec("INSERT INTO meta SELECT key, CASE key WHEN 'version' THEN '1' ELSE value END FROM cur.meta");
    db.exec('DETACH DATABASE cur');
    db.close();
    gone.on = true;
    s.route(
      '/',
      html('Home', '<a href="/p0">0</a><a href="/p1">1</a><a href="/p2">2</a><a href="/new">new</a>'),
    );
    s.route('/new', html('New', '<p>New</p>'));
    version.v = 2;
    const r = await crawl({ ...options, state: v1, recrawl: true, changes: join(dir, 'c.jsonl') });
    // Format 1 kept no fingerprints: this recrawl takes them; gone and new pages are seen already.
    expect(r.stats.changes).toMatchObject({ added: 1, removed: 1, changed: 0 });
    // Migrated through every later format (2, 3, then 4) in one go.
    expect(query<{ value: string }>(v1, "SELECT value FROM meta WHERE key = 'version'")[0]!.value).toBe('4');
    version.v = 3;
    const next = await crawl({ ...options, state: v1, recrawl: true });
    expect(next.stats.changes).toMatchObject({ changed: 3, added: 0, removed: 0 });
  });
});

// src/crawler/state-open.ts as the previous release had it (format 1), frozen.
const V1_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS urls (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  depth INTEGER NOT NULL,
  state INTEGER NOT NULL DEFAULT 0,
  via INTEGER,
  source TEXT NOT NULL,
  status INTEGER,
  verdict TEXT,
  reason TEXT,
  target TEXT,
  content_type TEXT,
  title TEXT,
  lastmod TEXT,
  extra TEXT,
  bytes INTEGER,
  ms INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS urls_queue ON urls (depth, id) WHERE state = 0;
CREATE TABLE IF NOT EXISTS links (target INTEGER NOT NULL, source INTEGER NOT NULL, PRIMARY KEY (target, source)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS patterns (key TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID;
`;
const V1_COLUMNS =
  'id, url, depth, state, via, source, status, verdict, reason, target, content_type, title, lastmod, extra, bytes, ms, attempts';
