/**
 * The CLI of a crawl shared through PostgreSQL (issue 17): `crawl --state postgres://… --workers N`,
 * `crawl-worker`, `crawl-status [--json] [--drop]`, Ctrl-C in one worker, an unreachable database.
 * The built CLI runs for real against a throwaway cluster and a loopback site.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runBin, runProcess } from '../support/cli.js';
import { html, type Route, startServer, type TestServer } from '../support/http-server.js';
import { eventually, usePostgres } from '../support/postgres.js';
import { tempDir } from '../support/tmp.js';
import { countingSite, pageHits } from './postgres-helpers.js';

const server = usePostgres();
const PAGES = 40;
let site: TestServer;
/** Requests for /hold wait until this is resolved (the Ctrl-C test holds a worker mid-fetch). */
let release: () => void = () => undefined;
let held: Promise<void> = Promise.resolve();

/** From now on /hold waits until `release()`; returns how often it was asked for so far. */
function holdPages(): number {
  held = new Promise<void>((r) => {
    release = r;
  });
  return site.hits('/hold');
}

/** A tree: home links to 8 sections, each to 5 pages (some shared), every page back home. */
function routes(): Record<string, Route> {
  const r: Record<string, Route> = {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
  };
  const sections = Array.from({ length: 8 }, (_, s) => `<a href="/s${s}/">Section ${s}</a>`).join('');
  r['/'] = html('Home', `${sections}<a href="/hold">Held</a>`);
  for (let s = 0; s < 8; s++) {
    const pages = Array.from({ length: 5 }, (_, k) => `<a href="/p${(s * 5 + k) % PAGES}">P</a>`).join('');
    r[`/s${s}/`] = html(`Section ${s}`, `${pages}<a href="/">home</a>`);
  }
  for (let i = 0; i < PAGES; i++)
    r[`/p${i}`] = html(`Page ${i}`, `<a href="/">home</a><a href="/s${i % 8}/">up</a>`);
  r['/hold'] = async (_req, res) => {
    await held;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Held</title><a href="/">home</a>');
  };
  return r;
}

beforeAll(async () => {
  site = await startServer(routes());
});
afterAll(async () => {
  await site.close();
});

/** The <url> entries of a sitemap folder, sorted: the same crawl gives the same set, in any order. */
function entries(out: string): string[] {
  const all: string[] = [];
  for (const f of readdirSync(out).filter((n) => /^sitemap.*\.xml$/.test(n))) {
    all.push(...(readFileSync(join(out, f), 'utf8').match(/<url>[\s\S]*?<\/url>/g) ?? []));
  }
  return all.sort();
}

function common(dir: string): string[] {
  return ['--out', join(dir, 'out'), '--report', join(dir, 'report'), '--concurrency', '2'];
}

describe('crawl --state postgres://… (a shared crawl)', () => {
  it('--workers 3 writes the same sitemap as the single-process SQLite crawl', async () => {
    const dir = tempDir('sk-pg-workers');
    const lite = await runBin([
      'crawl',
      site.url,
      ...common(join(dir, 'lite')),
      '--state',
      join(dir, 'lite.db'),
    ]);
    expect(lite.code, lite.stderr).toBe(0);
    const r = await runBin(
      [
        'crawl',
        site.url,
        ...common(join(dir, 'pg')),
        '--state',
        server().url,
        '--crawl-id',
        'three',
        '--workers',
        '3',
      ],
      { limitMs: 120_000 },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('crawl id three');
    // The whole crawl's counts, with this worker's own requests said as such.
    expect(r.stdout).toMatch(
      new RegExp(
        `^Crawl "three" finished \\(this worker: [\\d,]+ pages? fetched, [\\d,]+ URLs? finished without a fetch, [\\d,]+ requests? in [\\d.]+ s, and wrote the outputs\\): ${PAGES + 10} pages in the sitemap`,
      ),
    );
    expect(entries(join(dir, 'pg', 'out'))).toEqual(entries(join(dir, 'lite', 'out')));
    expect(entries(join(dir, 'pg', 'out'))).toHaveLength(PAGES + 10);
    // Three processes worked on it, each registered under its own id.
    const status = await runBin(['crawl-status', '--state', server().url, '--crawl-id', 'three', '--json']);
    const s = JSON.parse(status.stdout) as { workers: Array<{ pid: number; ended: string }> };
    expect(new Set(s.workers.map((w) => w.pid)).size).toBe(3);
    expect(s.workers.map((w) => w.ended)).toEqual(['done', 'done', 'done']);
  }, 180_000);

  it('--workers 2 on a terminal: one merged progress line, with the workers alive', async () => {
    const dir = tempDir('sk-pg-tty');
    // script(1) (bsdutils, essential in Debian) gives the command a terminal; its output is the terminal's.
    const command = [process.execPath, BIN, 'crawl', site.url, ...common(dir), '--state', server().url]
      .concat(['--crawl-id', 'tty', '--workers', '2'])
      .map((w) => `'${w.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const r = await runProcess('script', ['-qec', command, '/dev/null'], { limitMs: 120_000 });
    expect(r.code, r.stdout).toBe(0);
    const lines = r.stdout.split(/\r\x1b\[K/).filter((l) => l.startsWith('crawl: '));
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) expect(l).toMatch(/^crawl: [12] workers · [\d,]+ done · [\d,]+ queued · /);
    // Never a worker's own line: only the supervisor draws on the terminal.
    expect(r.stdout).not.toContain('worker 1: crawl:');
    expect(r.stdout).toContain(`${PAGES + 10} pages in the sitemap`);
  }, 120_000);

  it('the default crawl id comes from the start host and is said on stderr', async () => {
    const dir = tempDir('sk-pg-default-id');
    const id = `127_0_0_1_${site.port}`;
    const r = await runBin(['crawl', site.url, ...common(dir), '--state', server().url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `crawl id ${id}; more workers join from any machine with: sitemapkit crawl-worker`,
    );
    // Run again without --resume or --fresh: a finished crawl starts over by itself.
    const again = await runBin(['crawl', site.url, ...common(dir), '--state', server().url]);
    expect(again.code, again.stderr).toBe(0);
  }, 120_000);

  it("crawl-status counts each worker's pages fetched apart from its URLs finished without a fetch, as its summary does", async () => {
    // /private/x is refused by robots.txt: finished by a worker without a request.
    const counted = await countingSite(30);
    try {
      const dir = tempDir('sk-pg-counts');
      const url = server().url;
      const r = await runBin(
        ['crawl', counted.url, '--out', join(dir, 'out'), '--no-report', '--state', url].concat([
          '--crawl-id',
          'counts',
          '--workers',
          '2',
          '--concurrency',
          '2',
        ]),
        { limitMs: 120_000 },
      );
      expect(r.code, r.stderr).toBe(0);
      const fetched = pageHits(counted).size;
      const status = await runBin(['crawl-status', '--state', url, '--crawl-id', 'counts', '--json']);
      expect(status.code, status.stderr).toBe(0);
      const s = JSON.parse(status.stdout) as { workers: Array<{ pages: number; withoutFetch: number }> };
      expect(s.workers).toHaveLength(2);
      expect(s.workers.reduce((a, w) => a + w.pages, 0)).toBe(fetched);
      expect(s.workers.reduce((a, w) => a + w.withoutFetch, 0)).toBe(1);
      // The rate's rows count fetched pages too (read whole: the rate keeps only the last minute).
      const progress = await server().query('SELECT sum(pages)::int AS n FROM crawl_counts.progress');
      expect(progress.rows[0]!['n']).toBe(fetched);
      const text = await runBin(['crawl-status', '--state', url, '--crawl-id', 'counts']);
      expect(text.stdout).toMatch(/pages fetched\/s over the last minute/);
      const shares = [
        ...text.stdout.matchAll(/ended \(done\), ([\d,]+) pages? fetched, (\d+) URLs? without a fetch/g),
      ];
      expect(shares.map((m) => Number(m[1]!.replace(/,/g, ''))).reduce((a, b) => a + b, 0)).toBe(fetched);
      expect(shares.map((m) => Number(m[2])).reduce((a, b) => a + b, 0)).toBe(1);
    } finally {
      await counted.close();
    }
  }, 180_000);

  it('crawl-worker joins from a second process; crawl-status --json gives the fields; --drop removes it', async () => {
    const dir = tempDir('sk-pg-join');
    const url = server().url;
    // /hold is held until the second worker has registered: the first cannot finish the crawl
    // before the second joins it, however the two processes are scheduled.
    holdPages();
    const first = spawnBin(['crawl', site.url, ...common(dir), '--state', url, '--crawl-id', 'joined']);
    await waitForCommand(url, 'joined');
    const joining = runBin(['crawl-worker', '--state', url, '--crawl-id', 'joined'], { limitMs: 120_000 });
    await eventually(async () => {
      const r = await server()
        .query('SELECT count(*)::int AS n FROM crawl_joined.workers')
        .catch(() => ({ rows: [{ n: 0 }] }));
      return r.rows[0]!['n'] === 2;
    }, 60_000);
    release();
    const second = await joining;
    const one = await first.done;
    expect(second.code, second.stderr).toBe(0);
    expect(one.code, one.stderr).toBe(0);
    // Exactly one of the two wrote the outputs and printed the summary; the other says so.
    const summaries = [one.stdout, second.stdout];
    expect(summaries.filter((s) => s.includes('pages in the sitemap'))).toHaveLength(1);
    expect(summaries.filter((s) => s.includes('another worker wrote the sitemaps'))).toHaveLength(1);
    expect(entries(join(dir, 'out'))).toHaveLength(PAGES + 10);

    const status = await runBin(['crawl-status', '--state', url, '--crawl-id', 'joined', '--json']);
    expect(status.code, status.stderr).toBe(0);
    const s = JSON.parse(status.stdout) as Record<string, unknown>;
    expect(s).toMatchObject({ crawlId: 'joined', finished: true, queued: 0, leased: 0, workersAlive: 0 });
    expect(s['done']).toBe(PAGES + 10);
    expect(s['workers']).toHaveLength(2);

    const text = await runBin(['crawl-status', '--state', url, '--crawl-id', 'joined']);
    expect(text.stdout).toContain(`pages: ${PAGES + 10} done, 0 queued, 0 leased`);

    const drop = await runBin(['crawl-status', '--state', url, '--crawl-id', 'joined', '--drop']);
    expect(drop.code, drop.stderr).toBe(0);
    const gone = await runBin(['crawl-status', '--state', url, '--crawl-id', 'joined']);
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain('there is no crawl "joined"');
    const schemas = await server().query(
      "SELECT 1 FROM information_schema.schemata WHERE schema_name = 'crawl_joined'",
    );
    expect(schemas.rowCount).toBe(0);
  }, 180_000);

  it('Ctrl-C in one worker: exit 130, its leases back at once; another worker finishes the crawl', async () => {
    const dir = tempDir('sk-pg-sigint');
    const url = server().url;
    const before = holdPages();
    const a = spawnBin([
      'crawl',
      site.url,
      ...common(dir),
      '--state',
      url,
      '--crawl-id',
      'interrupted',
      '--lease',
      '600s',
    ]);
    // The known point: worker A is fetching /hold (its lease held), and nothing else is left.
    await eventually(() => site.hits('/hold') > before, 60_000);
    a.child.kill('SIGINT');
    const ra = await a.done;
    expect(ra.code, ra.stderr).toBe(130);
    expect(ra.stderr).toContain('this worker\'s pages went back to the crawl "interrupted"');
    expect(ra.stderr).toContain('sitemapkit crawl-worker --state');
    // With a 600 s lease, only returning it makes the page claimable now.
    const status = await runBin(['crawl-status', '--state', url, '--crawl-id', 'interrupted', '--json']);
    const s = JSON.parse(status.stdout) as {
      leased: number;
      queued: number;
      workersAlive: number;
      finished: boolean;
    };
    expect(s).toMatchObject({ leased: 0, workersAlive: 0, finished: false });
    expect(s.queued).toBeGreaterThan(0);
    // An unfinished crawl is not started over by a plain crawl: --resume joins it.
    const plain = await runBin([
      'crawl',
      site.url,
      ...common(dir),
      '--state',
      url,
      '--crawl-id',
      'interrupted',
    ]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain('the crawl "interrupted" is unfinished [ERR_STATE]');
    expect(plain.stderr).toContain('pass --resume to join it, or --fresh to drop it and start over');
    release();
    const b = await runBin(['crawl-worker', '--state', url, '--crawl-id', 'interrupted'], {
      limitMs: 120_000,
    });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stdout).toContain('pages in the sitemap');
    expect(entries(join(dir, 'out'))).toHaveLength(PAGES + 10);
  }, 180_000);

  it('crawl-status --drop refuses while a worker is alive; --force drops under it', async () => {
    const dir = tempDir('sk-pg-drop-alive');
    const url = server().url;
    const before = holdPages();
    const a = spawnBin(['crawl', site.url, ...common(dir), '--state', url, '--crawl-id', 'alive']);
    await eventually(() => site.hits('/hold') > before, 60_000);
    const refused = await runBin(['crawl-status', '--state', url, '--crawl-id', 'alive', '--drop']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the crawl "alive" has 1 worker alive [ERR_STATE]');
    expect(refused.stderr).toContain('--force');
    const forced = await runBin(['crawl-status', '--state', url, '--crawl-id', 'alive', '--drop', '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('Dropped the crawl "alive"');
    release();
    const ra = await a.done;
    // The worker fails at its next statement, in one sentence, and never writes the outputs.
    expect(ra.code, ra.stderr).toBe(2);
    expect(ra.stderr).not.toMatch(/\n\s+at /);
    // It says the crawl was dropped, not which relation is missing.
    expect(ra.stderr).toContain('(schema crawl_alive): the crawl was dropped while this worker ran');
    expect(ra.stderr).not.toContain('does not exist');
    expect(existsSync(join(dir, 'out', 'sitemap.xml'))).toBe(false);
  }, 180_000);

  it('Ctrl-C in crawl --workers 2 reaches each worker once: all exit 130 with their leases back', async () => {
    const dir = tempDir('sk-pg-sigint-all');
    const url = server().url;
    const before = holdPages();
    const parent = spawnBin([
      'crawl',
      site.url,
      ...common(dir),
      '--state',
      url,
      '--crawl-id',
      'stopped',
      '--workers',
      '2',
      '--lease',
      '600s',
    ]);
    // The known point: both workers registered (a slow start would meet Ctrl-C before its crawl
    // began), and one of them fetching /hold.
    await eventually(async () => {
      const r = await server()
        .query('SELECT count(*)::int AS n FROM crawl_stopped.workers WHERE stopped_at IS NULL')
        .catch(() => ({ rows: [{ n: 0 }] }));
      return r.rows[0]!['n'] === 2 && site.hits('/hold') > before;
    }, 60_000);
    parent.child.kill('SIGINT');
    const r = await parent.done;
    release();
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr.match(/this worker's pages went back to the crawl "stopped"/g)).toHaveLength(2);
    const status = await runBin(['crawl-status', '--state', url, '--crawl-id', 'stopped', '--json']);
    const s = JSON.parse(status.stdout) as {
      leased: number;
      workersAlive: number;
      workers: Array<{ ended: string }>;
    };
    expect(s).toMatchObject({ leased: 0, workersAlive: 0 });
    expect(s.workers.map((w) => w.ended)).toEqual(['aborted', 'aborted']);
    const resumed = await runBin([
      'crawl',
      site.url,
      ...common(dir),
      '--state',
      url,
      '--crawl-id',
      'stopped',
      '--resume',
      '--workers',
      '2',
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(entries(join(dir, 'out'))).toHaveLength(PAGES + 10);
  }, 180_000);

  it('--resume needs a crawl; a finished crawl starts over; --fresh starts over', async () => {
    const dir = tempDir('sk-pg-modes');
    const url = server().url;
    const none = await runBin([
      'crawl',
      site.url,
      ...common(dir),
      '--state',
      url,
      '--crawl-id',
      'modes',
      '--resume',
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('there is no crawl "modes" to resume');
    const done = await runBin(['crawl', site.url, ...common(dir), '--state', url, '--crawl-id', 'modes']);
    expect(done.code, done.stderr).toBe(0);
    const fresh = await runBin([
      'crawl',
      site.url,
      ...common(dir),
      '--state',
      url,
      '--crawl-id',
      'modes',
      '--fresh',
    ]);
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain(`${PAGES + 10} pages in the sitemap`);
  }, 120_000);

  it('an unreachable database: exit 2 and one sentence naming the host and what to check, once --connect-timeout passed', async () => {
    const dir = tempDir('sk-pg-down');
    const r = await runBin([
      'crawl',
      site.url,
      ...common(dir),
      '--state',
      'postgres://sk:secret@127.0.0.1:1/crawls',
      '--connect-timeout',
      '1s',
    ]);
    expect(r.code).toBe(2);
    // It waited (the server may be starting), then said why it gave up.
    expect(r.stderr).toContain(
      'info crawl-database-waiting: postgres://sk:***@127.0.0.1:1/crawls (schema crawl_127_0_0_1_',
    );
    expect(r.stderr).toContain(
      'the database cannot be reached yet (the connection was refused): waiting up to 1 s for it',
    );
    expect(r.stderr).toContain('127.0.0.1:1');
    expect(r.stderr).toContain('cannot connect to the database: the connection was refused');
    expect(r.stderr).toMatch(/Check that the server runs/);
    expect(r.stderr).not.toContain('secret');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    const w = await runBin([
      'crawl-worker',
      '--state',
      'postgres://sk@127.0.0.1:1/crawls',
      '--crawl-id',
      'x',
      '--connect-timeout',
      '0',
    ]);
    expect(w.code).toBe(2);
    expect(w.stderr).toContain('cannot connect to the database');
    expect(w.stderr).not.toContain('crawl-database-waiting');
  });

  it('usage errors exit 2 with the flag named', async () => {
    const dir = tempDir('sk-pg-usage');
    const cases: Array<[string[], string]> = [
      [['crawl', site.url, ...common(dir), '--workers', '3'], '--workers needs --state postgres://'],
      [
        ['crawl', site.url, ...common(dir), '--connect-timeout', '5s'],
        '--connect-timeout needs --state postgres://',
      ],
      [
        ['crawl-worker', '--state', server().url, '--crawl-id', 'x', '--connect-timeout', 'soon'],
        '--connect-timeout',
      ],
      [['crawl', site.url, ...common(dir), '--state', server().url, '--workers', '0'], '--workers'],
      [
        ['crawl', site.url, ...common(dir), '--state', server().url, '--crawl-id', 'no way'],
        '--crawl-id takes',
      ],
      [['crawl-worker', '--state', server().url], "required option '--crawl-id <id>'"],
      [['crawl-status', '--state', server().url, '--crawl-id', 'x', '--force'], '--force needs --drop'],
      [
        ['crawl-worker', '--state', server().url, '--crawl-id', 'never_started'],
        'there is no crawl "never_started" to join',
      ],
    ];
    for (const [args, says] of cases) {
      const r = await runBin(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(says);
    }
  }, 60_000);
});

interface Spawned {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** The built CLI as a child process whose pid the test keeps (to send it SIGINT). */
function spawnBin(args: string[]): Spawned {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  return { child, done };
}

/** Waits until `crawl` recorded the command of `id` (a worker can join from then on). */
async function waitForCommand(_url: string, id: string): Promise<void> {
  await eventually(async () => {
    const r = await server()
      .query('SELECT 1 FROM sitemapkit_cli.crawl_commands WHERE crawl_id = $1', [id])
      .catch(() => ({ rowCount: 0 }));
    return (r.rowCount ?? 0) > 0;
  }, 60_000);
}
