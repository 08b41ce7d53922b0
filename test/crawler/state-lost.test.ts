// A crawl whose state file is deleted, or replaced by another crawl's new state, while it runs
// (two crawls started into one folder a few seconds apart; state-guard.ts). SQLite goes on writing
// into the unlinked file, and the crawl used to find out only at its output: "internal error:
// attempt to write a readonly database" (SQLITE_READONLY_DBMOVED at the report's hand-over), exit
// 2, after every page had been crawled into a file nobody could open again. Now it stops with one
// ERR_STATE sentence naming the file, writes no output over the previous one, and leaves the file
// that replaced its state alone.
//
// The window is hit on purpose: the test's server deletes or replaces the state when the crawl asks
// for a chosen page (or, for the output, the library's `adjustEntry` does at the first entry). The
// site of the CLI runs is endless (page n links to 10n+1 … 10n+10): only the crawl noticing the
// loss while its loop runs can end it, and a crawl that never notices is killed by `limitMs`
// (a failure, never a timing assertion).
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { crawl } from '../../src/crawler/crawl.js';
import { CrawlState } from '../../src/crawler/state.js';
import { runBin } from '../support/cli.js';
import { type Answer, html, type Route, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const ROBOTS: Route = { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };
/** The previous sitemap in the output folder, which a crawl that lost its state must not touch. */
const PREVIOUS = '<?xml version="1.0" encoding="UTF-8"?>\n<!-- the previous, good sitemap -->\n';
/** What the crawl must never say. */
const SQLITE_WORDS = /readonly|internal error|SQLITE_|disk I\/O/;

let site: TestServer;
/** The page whose first request runs the fault, and the fault (one at a time). */
let armed: { path: string; fault: () => Promise<void> } | undefined;

/**
 * Page `n` of a tree under `/n/` (endless) or `/f/` (31 pages): it links to 10n+1 … 10n+10.
 */
function page(path: string): Answer {
  const [, tree, num] = /^\/([nf])\/(\d+)$/.exec(path) ?? ['', 'n', '0'];
  const n = Number(num);
  const limit = tree === 'f' ? 31 : Number.POSITIVE_INFINITY;
  const links: string[] = [];
  for (let c = 10 * n + 1; c <= 10 * n + 10 && c < limit; c++) links.push(`<a href="/${tree}/${c}">${c}</a>`);
  return html(`Page ${n}`, `<p>Page ${n}</p>${links.join('')}`);
}

beforeAll(async () => {
  site = await startServer(
    { '/robots.txt': ROBOTS },
    {
      // The armed page runs its fault before it answers: the crawl is waiting for it, mid-loop.
      fallback: async (req, res) => {
        const path = req.url ?? '/';
        const a = armed;
        if (a !== undefined && a.path === path) {
          armed = undefined;
          await a.fault();
        }
        const { body } = page(path);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
    },
  );
}, 30_000);

afterAll(async () => {
  await site?.close();
});

/** Arms the fault at `path`: it runs once, when the crawl first asks for that page. */
function armAt(path: string, fault: () => Promise<void>): void {
  armed = { path, fault };
}

/** A folder with a previous sitemap in `out/`, and the state's path. */
function folder(name: string): { dir: string; out: string; state: string } {
  const dir = tempDir(name);
  const out = join(dir, 'out');
  mkdirSync(out);
  writeFileSync(join(out, 'sitemap.xml'), PREVIOUS);
  return { dir, out, state: join(dir, 'state.db') };
}

/** Deletes the state as a clean-up (or another crawl's `--fresh` of an unlocked file) would: its journal files too. */
function deleteState(path: string): void {
  for (const f of [path, `${path}-wal`, `${path}-shm`]) rmSync(f, { force: true });
}

/** The output folder is as it was: the previous sitemap alone, byte for byte. */
function expectOutputUntouched(out: string): void {
  expect(readdirSync(out)).toEqual(['sitemap.xml']);
  expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toBe(PREVIOUS);
}

function crawlArgs(f: { dir: string; out: string; state: string }, start = `${site.origin}/n/0`): string[] {
  return ['crawl', start, '--out', f.out, '--state', f.state, '--report', join(f.dir, 'report'), '--quiet'];
}

describe('a crawl whose state file is lost while it runs (CLI)', () => {
  it('deleted: stops with ERR_STATE naming the file, exit 2, no output, nothing made again at its path', async () => {
    const f = folder('sk-state-deleted');
    armAt('/n/40', async () => deleteState(f.state));
    const r = await runBin(crawlArgs(f), { limitMs: 120_000 });
    expect(r.signal, 'the crawl never noticed its state was gone').toBeNull();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `${f.state}: the crawl state was deleted (or moved away) while this crawl ran (another crawl into the same folder?): the pages this crawl recorded are lost with it, and no output was written [ERR_STATE]`,
    );
    expect(r.stderr).toContain('--resume cannot help');
    expect(r.stderr).not.toMatch(SQLITE_WORDS);
    expectOutputUntouched(f.out);
    // SQLite opens its journal files by name: none was made again where the state was.
    expect(readdirSync(f.dir).sort()).toEqual(['out']);
    expect(site.hits('/n/40')).toBe(1);
  });

  it('replaced by a new state: the same sentence, and the file that replaced it is left as its owner wrote it', async () => {
    const f = folder('sk-state-replaced');
    let other: CrawlState | undefined;
    armAt('/n/40', async () => {
      deleteState(f.state);
      // Another crawl's state at the path, open and locked as a running crawl holds it.
      other = await CrawlState.open(f.state, 'new');
      other.setMeta('owner', 'the other crawl');
      other.batched(() => other!.insert('http://other.example/', 0, 'start', null));
      other.commit();
    });
    try {
      const r = await runBin(crawlArgs(f), { limitMs: 120_000 });
      expect(r.signal, 'the crawl never noticed its state was replaced').toBeNull();
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(
        `${f.state}: the crawl state was replaced by another file while this crawl ran (another crawl into the same folder?): the pages this crawl recorded are lost with it, and no output was written [ERR_STATE]`,
      );
      expect(r.stderr).toContain('the file now at this path was left alone');
      expect(r.stderr).not.toMatch(SQLITE_WORDS);
      expectOutputUntouched(f.out);
    } finally {
      other?.close();
    }
    // The other crawl's state, closed by its owner, holds what it wrote and nothing of this crawl.
    const again = await CrawlState.open(f.state, 'resume');
    try {
      expect(again.getMeta('owner')).toBe('the other crawl');
      expect([...again.records()].map((u) => u.url)).toEqual(['http://other.example/']);
    } finally {
      again.close();
    }
  });

  it('a resumed crawl whose state is deleted says so too, and that --resume cannot help', async () => {
    const f = folder('sk-state-resumed');
    const first = await runBin([...crawlArgs(f), '--max-pages', '20'], { limitMs: 120_000 });
    expect(first.code, first.stderr).toBe(0);
    // The partial crawl wrote its sitemap: that is the previous output now.
    const previous = readFileSync(join(f.out, 'sitemap.xml'), 'utf8');
    armAt('/n/45', async () => deleteState(f.state));
    const r = await runBin([...crawlArgs(f), '--resume'], { limitMs: 120_000 });
    expect(r.signal, 'the crawl never noticed its state was gone').toBeNull();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `${f.state}: the crawl state was deleted (or moved away) while this crawl ran`,
    );
    expect(r.stderr).toContain('--resume cannot help');
    expect(r.stderr).not.toMatch(SQLITE_WORDS);
    expect(readFileSync(join(f.out, 'sitemap.xml'), 'utf8')).toBe(previous);
    expect(existsSync(f.state)).toBe(false);
  });

  it('a small crawl that ends before its next look at the file is stopped before its output', async () => {
    // 31 pages: the loop may end within the second after the loss; the look before the output sees it.
    const f = folder('sk-state-end');
    armAt('/f/25', async () => deleteState(f.state));
    const r = await runBin(crawlArgs(f, `${site.origin}/f/0`), { limitMs: 120_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(
      `${f.state}: the crawl state was deleted (or moved away) while this crawl ran`,
    );
    expect(r.stderr).not.toMatch(SQLITE_WORDS);
    expectOutputUntouched(f.out);
  });
});

/** A crawl through the library whose state is lost when its output reads the first entry. */
async function lostAtOutput(
  f: { dir: string; out: string; state: string },
  start: string,
  maxPages: number,
  fault: () => Promise<void> | void,
): Promise<unknown> {
  let first = true;
  try {
    await crawl({
      start,
      outDir: f.out,
      state: f.state,
      report: join(f.dir, 'report'),
      maxPages,
      adjustEntry: (e) => {
        if (first) {
          first = false;
          void fault();
        }
        return e;
      },
    });
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('a crawl whose state file is lost while its output is written (library)', () => {
  it('a small crawl: the sitemaps are written from what it read, then ERR_STATE says the state is lost', async () => {
    const f = folder('sk-state-output-small');
    const error = await lostAtOutput(f, `${site.origin}/f/0`, 1000, () => deleteState(f.state));
    expect(isSitemapkitError(error, 'ERR_STATE'), String(error)).toBe(true);
    const e = error as Error & { where?: string };
    expect(e.where).toBe(f.state);
    expect(e.message).toBe(
      'the crawl state was deleted (or moved away) while this crawl ran (another crawl into the same folder?): the sitemaps were written before this was noticed, but the state is lost',
    );
    expect(readFileSync(join(f.out, 'sitemap.xml'), 'utf8')).toContain(`<loc>${site.origin}/f/30</loc>`);
    expect(existsSync(f.state)).toBe(false);
  });

  it('a crawl whose report is written by a second thread (it opens the state by its path): the same sentence, and the file that replaced it untouched', async () => {
    // 1,100 pages of ten links each: more than 10,000 URLs, so the report's thread reads the state by its path.
    const f = folder('sk-state-output-thread');
    let other: CrawlState | undefined;
    const replace = async (): Promise<void> => {
      deleteState(f.state);
      other = await CrawlState.open(f.state, 'new');
      other.setMeta('owner', 'the other crawl');
    };
    let pending: Promise<void> | undefined;
    const error = await lostAtOutput(f, `${site.origin}/n/0`, 1100, () => {
      pending = replace();
    });
    await pending;
    try {
      expect(isSitemapkitError(error, 'ERR_STATE'), String(error)).toBe(true);
      expect((error as Error).message).toBe(
        'the crawl state was replaced by another file while this crawl ran (another crawl into the same folder?): the sitemaps were written before this was noticed, but the state is lost',
      );
      expect((error as Error).message).not.toMatch(SQLITE_WORDS);
    } finally {
      other?.close();
    }
    const again = await CrawlState.open(f.state, 'resume');
    try {
      expect(again.getMeta('owner')).toBe('the other crawl');
      expect(again.counts().done + again.counts().queued).toBe(0);
    } finally {
      again.close();
    }
  });
});

describe('the state guard (CrawlState)', () => {
  it('tells a file moved away, one put in its place and one left alone apart; SQLite’s DBMOVED is worded as the loss', async () => {
    const dir = tempDir('sk-state-guard');
    const path = join(dir, 'state.db');
    const state = await CrawlState.open(path, 'new');
    try {
      state.checkFile();
      const plain = new Error('disk full');
      expect(state.explain(plain, false)).toBe(plain);
      // SQLite's own word for a moved file, while the path still shows it: the loss in words all the same.
      const moved = Object.assign(new Error('attempt to write a readonly database'), {
        code: 'SQLITE_READONLY_DBMOVED',
      });
      const told = state.explain(moved, false) as Error & { where?: string; cause?: unknown };
      expect(told.message).toMatch(/^the crawl state was deleted or replaced while this crawl ran/);
      expect(told.where).toBe(path);
      expect(told.cause).toBe(moved);
      renameSync(path, join(dir, 'elsewhere.db'));
      expect(() => state.checkFile()).toThrow(
        'the crawl state was deleted (or moved away) while this crawl ran (another crawl into the same folder?)',
      );
      // Put back under its name, it is the same file, but what was found stays found.
      renameSync(join(dir, 'elsewhere.db'), path);
      expect(() => state.checkFile()).toThrow('was deleted (or moved away)');
    } finally {
      state.close();
    }
    const other = await CrawlState.open(join(dir, 'second.db'), 'new');
    try {
      deleteState(join(dir, 'second.db'));
      writeFileSync(join(dir, 'second.db'), 'another file');
      expect(() => other.checkFile()).toThrow('was replaced by another file');
      // Closing writes nothing more (SQLite would open the journal files by name).
      other.close();
      expect(readFileSync(join(dir, 'second.db'), 'utf8')).toBe('another file');
      expect(readdirSync(dir).sort()).toEqual(['second.db', 'state.db']);
    } finally {
      other.close();
    }
  });
});
