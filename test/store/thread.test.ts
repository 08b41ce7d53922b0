// The SQLite store's connection in a worker thread (src/store/sqlite-thread.ts, the default for a
// new or empty store): the same store, bytes and errors as in thread, a fault in the middle of a
// first build leaves the store as it was, and the worker never keeps a process alive or running.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SitemapEntryInput } from '../../src/core/entry.js';
import { isSitemapkitError, SitemapkitError } from '../../src/core/errors.js';
import { SqliteBackend } from '../../src/store/sqlite.js';
import { openStore, type SiteStore, type StoreOptions } from '../../src/store/store.js';
import { BIN, runProcess } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';
import { BASE, snapshot } from './helpers.js';

const STORE = fileURLToPath(new URL('../../dist/store/index.js', import.meta.url));
const env = { SOURCE_DATE_EPOCH: '1780000000' };

const open: SiteStore[] = [];
async function store(path: string, options: StoreOptions = {}): Promise<SiteStore> {
  const s = await openStore(path, { baseUrl: BASE, maxUrlsPerFile: 500, ...options });
  open.push(s);
  return s;
}
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

/** Over a chunk of rows (4,096 a message) several times, with sections, lastmods and extensions. */
function entries(n: number, changed = -1): SitemapEntryInput[] {
  return Array.from({ length: n }, (_, i) => ({
    loc: `${BASE}${i % 3 === 0 ? 'blog' : 'p'}/${i}`,
    ...(i % 3 === 0 && { section: 'blog' }),
    ...(i % 5 === 0 && { lastmod: '2026-01-02' }),
    ...(i % 7 === 0 && { images: [`${BASE}img/${i}.png`] }),
    ...(i === changed && { priority: 0.9 }),
  }));
}

async function dump(s: SiteStore): Promise<string> {
  const rows: string[] = [];
  for await (const u of s.list()) rows.push(JSON.stringify(u));
  for await (const u of s.list({ removed: true })) rows.push(JSON.stringify(u));
  const { settings: _s, lastBuild, ...stats } = await s.stats();
  // The output folders differ: the rest of the last build's record must not.
  if (lastBuild !== undefined) Object.assign(stats, { lastBuild: { ...lastBuild, outDir: '' } });
  return `${rows.join('\n')}\n${JSON.stringify(stats)}`;
}

async function errorOf(p: Promise<unknown>): Promise<SitemapkitError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(isSitemapkitError(e), String(e)).toBe(true);
  return e as SitemapkitError;
}

const said = (e: SitemapkitError) => ({ code: e.code, message: e.message, where: e.where, hint: e.hint });

describe('the SQLite store in a worker thread', () => {
  it('a first build, then changes, give the store and the bytes of the same builds in thread', async () => {
    const runs = [];
    for (const worker of [true, false]) {
      const dir = tempDir('sk-thread');
      const now = () => new Date(Date.UTC(2026, 0, 10));
      // worker: true keeps the thread for the whole session, past the first build.
      const s = await store(join(dir, 'site.db'), { worker, now });
      const out = join(dir, 'out');
      const first = await s.syncAndBuild(entries(10_000), { outDir: out, changes: join(dir, 'c1.jsonl') });
      const files1 = snapshot(out);
      const dump1 = await dump(s);
      // A full-set sync that removes, changes and adds (tombstones, moves, the unseen rows).
      const next = [...entries(9_000, 17), ...entries(10_100).slice(10_000)];
      const second = await s.syncAndBuild(next, { outDir: out, force: true, feed: { format: 'atom' } });
      await s.remove([`${BASE}p/1`, `${BASE}p/2`]);
      const third = await s.build({ outDir: out });
      const entriesOf = [];
      for await (const e of s.fileEntries((await s.files()).files[0]!.name)) entriesOf.push(e);
      runs.push({
        first: first.files,
        files1,
        dump1,
        second: second.files,
        third: third.files,
        files: snapshot(out),
        dump: await dump(s),
        read: { files: await s.files(), entries: entriesOf },
      });
    }
    const [thread, inThread] = runs;
    expect(thread!.first.filter((f) => f.kind === 'urlset').length).toBeGreaterThan(10);
    expect(thread).toEqual(inThread);
  });

  it('refuses a worker or readOnly that is not true or false, before any file is made', async () => {
    const path = join(tempDir('sk-thread'), 'site.db');
    for (const [key, value] of [
      ['worker', 'yes'],
      ['readOnly', 1],
    ] as const) {
      const e = await openStore(path, { [key]: value } as unknown as StoreOptions).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isSitemapkitError(e) && e.code).toBe('ERR_OPTIONS');
      expect((e as SitemapkitError).message).toBe(
        `openStore's ${key} must be true or false, got ${JSON.stringify(value)}`,
      );
    }
    expect(existsSync(path)).toBe(false);
  });

  it('opens a new or empty store in the worker, one that holds URLs in thread, as asked', async () => {
    const dir = tempDir('sk-thread');
    const path = join(dir, 'site.db');
    // An empty store (created, no URL yet) still goes to the worker; a store with URLs does not.
    const made = await store(path);
    await made.close();
    const s = await store(path);
    await s.syncAndBuild(entries(10), { outDir: join(dir, 'out') });
    await s.close();
    // In thread, the main thread's SQLite backend answers (a spy sees it); in the worker, it never runs here.
    const inThread = async (options: StoreOptions): Promise<boolean> => {
      const files = vi.spyOn(SqliteBackend.prototype, 'files');
      const t = await store(path, options);
      await t.stats();
      await t.close();
      const called = files.mock.calls.length > 0;
      files.mockRestore();
      return called;
    };
    expect(await inThread({})).toBe(true);
    expect(await inThread({ worker: true })).toBe(false);
    expect(await inThread({ worker: false })).toBe(true);
    const fresh = join(dir, 'fresh.db');
    const files = vi.spyOn(SqliteBackend.prototype, 'files');
    const f = await store(fresh);
    await f.stats();
    expect(files).not.toHaveBeenCalled();
    files.mockRestore();
  });

  it('gives the errors of the store in thread: a store in use, a file that is not a store', async () => {
    const dir = tempDir('sk-thread');
    const path = join(dir, 'site.db');
    const holder = await store(path, { worker: false });
    const busy = [];
    for (const worker of [true, false]) busy.push(said(await errorOf(openStore(path, { worker }))));
    expect(busy[0]).toEqual(busy[1]);
    expect(busy[0]!.code).toBe('ERR_STATE');
    expect(busy[0]!.message).toContain('in use by another sitemapkit process');
    await holder.close();
    const junk = join(dir, 'junk.db');
    writeFileSync(junk, 'not a database, not even close '.repeat(200));
    const bad = [];
    for (const worker of [true, false]) bad.push(said(await errorOf(openStore(junk, { worker }))));
    expect(bad[0]).toEqual(bad[1]);
    expect(bad[0]!.code).toBe('ERR_STATE');
  });

  it("a fault at each of the worker's steps: the same error, the store as it was, and the next build whole", async () => {
    const steps = [
      'worker:posted',
      'worker:inserted',
      'worker:indexing',
      'worker:indexed',
      'worker:committing',
    ];
    for (const at of steps) {
      const dir = tempDir('sk-thread');
      const path = join(dir, 'site.db');
      const fault = new SitemapkitError('ERR_OUTPUT', `fault at ${at}`);
      let hit = 0;
      const s = await store(path, {
        onStep: (step) => {
          if (step === at && hit++ === 0) throw fault;
        },
      });
      const e = await s.syncAndBuild(entries(10_000), { outDir: join(dir, 'out') }).catch((x: unknown) => x);
      expect(hit, at).toBeGreaterThan(0);
      // The error the caller's onStep threw, whichever thread met the step (at the commit, after
      // the files were published: the store says so, with the fault as its cause).
      if (at === 'worker:committing') {
        expect((e as SitemapkitError).code).toBe('ERR_STATE');
        expect((e as SitemapkitError).cause, at).toBe(fault);
      } else expect(e, at).toBe(fault);
      expect((await s.stats()).live, at).toBe(0);
      const r = await s.syncAndBuild(entries(10_000), { outDir: join(dir, 'out') });
      expect(r.import.added, at).toBe(10_000);
      expect((await s.stats()).live, at).toBe(10_000);
      await s.close();
    }
  });

  it('an invalid record under fail: the same error as in thread, nothing imported', async () => {
    const said2 = [];
    for (const worker of [true, false]) {
      const dir = tempDir('sk-thread');
      const s = await store(join(dir, 'site.db'), { worker });
      const bad = [...entries(9_000), { loc: 'ftp://example.com/x' }];
      said2.push(said(await errorOf(s.syncAndBuild(bad, { outDir: join(dir, 'out') }))));
      expect((await s.stats()).live).toBe(0);
      expect(existsSync(join(dir, 'out', 'sitemap.xml'))).toBe(false);
    }
    expect(said2[0]).toEqual(said2[1]);
    expect(said2[0]!.code).toBe('ERR_INVALID_ENTRY');
  });

  it('never keeps a process alive: a script that forgets close() ends', async () => {
    const dir = tempDir('sk-thread');
    const script = `import { openStore } from ${JSON.stringify(STORE)};
const s = await openStore(${JSON.stringify(join(dir, 'site.db'))}, { baseUrl: ${JSON.stringify(BASE)} });
await s.syncAndBuild([{ loc: ${JSON.stringify(`${BASE}a`)} }], { outDir: ${JSON.stringify(join(dir, 'out'))} });
console.log('built');`;
    const r = await runProcess(process.execPath, ['--input-type=module', '-e', script], { limitMs: 60_000 });
    expect(r.signal, r.stderr).toBe(null);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('built\n');
  });

  it('Ctrl-C during a first build into a new store: exit 130, the store empty, no process left', async () => {
    const dir = tempDir('sk-thread');
    let big = '';
    for (let i = 0; i < 300_000; i++) big += `${BASE}p/${i}\n`;
    writeFileSync(join(dir, 'big.txt'), big);
    const path = join(dir, 'site.db');
    const out = join(dir, 'out');
    const child = spawn(
      process.execPath,
      [BIN, 'generate', join(dir, 'big.txt'), '--base-url', BASE, '--out', out, '--store', path],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Interrupt once the import is under way (its spool beside the store has data).
    const spooling = (): boolean =>
      readdirSync(dir).some((n) => n.includes('.spool-') && statSync(join(dir, n)).size > 0);
    for (let i = 0; i < 3000 && !spooling(); i++) await new Promise((r) => setTimeout(r, 10));
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stderr).toContain('interrupted');
    expect(existsSync(join(out, 'sitemap.xml'))).toBe(false);
    const s = await store(path, { worker: false });
    expect((await s.stats()).live).toBe(0);
  });
});
