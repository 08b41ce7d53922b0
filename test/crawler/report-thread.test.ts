// The crawl report written by a worker thread beside the sitemaps (src/crawler/report-thread.ts,
// a crawl of REPORT_THREAD_MIN URLs or more): the state is shared (its exclusive lock turned into
// a shared one held by the crawl's connection), the thread reads it over a read-only connection of
// its own. The files are the ones the report written on the crawl's own connection has, byte for
// byte; another crawl is refused while the state is shared, as while it is crawled; closing the
// state takes the exclusive lock back (what was written meanwhile kept) and the state opens again.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SitemapkitError } from '../../src/core/errors.js';
import { crawl } from '../../src/crawler/crawl.js';
import type { CrawlStats } from '../../src/crawler/records.js';
import { writeCrawlReport } from '../../src/crawler/report.js';
import { writeCrawlReportInThread } from '../../src/crawler/report-thread.js';
import { CrawlState } from '../../src/crawler/state.js';
import { type Answer, html, redirect, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

// Every list report.html shows: listed, canonicalised, broken (with referrers), a redirect, a
// non-HTML file, and quotes and commas in a title (CSV quoting).
const PAGES: Record<string, Answer> = {
  '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
  '/': html(
    'Home, "quoted"',
    '<a href="/a">a</a><a href="/b">b</a><a href="/missing">m</a><a href="/moved">r</a>',
  ),
  '/a': html('Page A', '<a href="/b">b</a><a href="/missing">m</a><a href="/data.json">j</a>'),
  '/b': html('Page B', '<p>B</p>', '<link rel="canonical" href="/a">'),
  '/missing': { status: 404, headers: { 'content-type': 'text/html' }, body: '<p>nope</p>' },
  '/moved': redirect('/a', 301),
  '/data.json': { headers: { 'content-type': 'application/json' }, body: '{"a":1}' },
};

let site: TestServer;
let dir: string;
let stats: CrawlStats;

beforeAll(async () => {
  site = await startServer(PAGES);
  dir = tempDir('sk-report-thread');
  const r = await crawl({ start: `${site.origin}/`, outDir: join(dir, 'out'), state: join(dir, 'state.db') });
  stats = r.stats;
}, 60_000);

afterAll(async () => {
  await site?.close();
});

const input = (to: string) => ({
  dir: join(dir, to),
  stats,
  starts: [`${site.origin}/`],
  complete: true,
  generatedAt: new Date('2026-11-26T12:00:00Z'),
});

function files(folder: string): Map<string, string> {
  return new Map(readdirSync(folder).map((f) => [f, readFileSync(join(folder, f), 'utf8')]));
}

describe('the report on a second thread', () => {
  it('writes the bytes the report on the crawl’s connection writes; another crawl is refused meanwhile', async () => {
    const path = join(dir, 'state.db');
    const state = await CrawlState.open(path, 'resume');
    try {
      state.share();
      const refused = { code: 'ERR_STATE', message: 'the crawl state is in use by another crawl' };
      await expect(CrawlState.open(path, 'resume')).rejects.toMatchObject(refused);
      const threaded = writeCrawlReportInThread(path, input('thread'));
      // The crawl's connection reads too, while the thread does (the sitemaps do).
      const here = await writeCrawlReport(state, input('here'));
      expect(await threaded).toEqual({ ...here, dir: join(dir, 'thread'), ...paths(join(dir, 'thread')) });
      const a = files(join(dir, 'here'));
      expect([...a.keys()].sort()).toEqual(['report.html', 'urls.csv', 'urls.jsonl']);
      expect(files(join(dir, 'thread'))).toEqual(a);
      expect(a.get('urls.jsonl')!.trim().split('\n')).toHaveLength(6);
      await expect(CrawlState.open(path, 'resume')).rejects.toMatchObject(refused);
      state.published();
    } finally {
      state.close();
    }
    // The exclusive lock was taken back and released: the state opens, with what was written.
    const again = await CrawlState.open(path, 'resume');
    try {
      expect(again.getMeta('published')).toBe('0');
      expect(again.tallies().counts.total).toBe(6);
    } finally {
      again.close();
    }
  });

  it('fails as the report on the crawl’s connection fails', async () => {
    const path = join(dir, 'state.db');
    writeFileSync(join(dir, 'not-a-folder'), 'x');
    const state = await CrawlState.open(path, 'resume');
    try {
      state.share();
      const bad = { ...input('x'), dir: join(dir, 'not-a-folder', 'report') };
      const here = await writeCrawlReport(state, bad).catch((e: unknown) => e);
      const there = await writeCrawlReportInThread(path, bad).catch((e: unknown) => e);
      expect(here).toBeInstanceOf(SitemapkitError);
      expect(there).toBeInstanceOf(SitemapkitError);
      expect(there).toMatchObject({
        code: (here as SitemapkitError).code,
        message: (here as SitemapkitError).message,
        hint: (here as SitemapkitError).hint,
      });
    } finally {
      state.close();
    }
  });
});

describe('the report thread and a state replaced under its crawl', () => {
  /** A crawl's state of its own (a copy of the suite's), opened and shared as the crawl shares it. */
  async function shared(name: string): Promise<{ path: string; state: CrawlState; other: string }> {
    const folder = join(dir, name);
    mkdirSync(folder);
    const path = join(folder, 'state.db');
    copyFileSync(join(dir, 'state.db'), path);
    // Another crawl's state, which is moved to the path (a second crawl started into the folder).
    const other = join(folder, 'other.db');
    copyFileSync(join(dir, 'state.db'), other);
    const state = await CrawlState.open(path, 'resume');
    state.share();
    return { path, state, other };
  }
  const lost = {
    code: 'ERR_STATE',
    message:
      'the crawl state was replaced by another file while this crawl ran (another crawl into the same folder?): the pages this crawl recorded are lost with it, and no output was written',
  };

  it('replaced after the crawl last looked and before the thread opens it: the guard’s sentence, no report', async () => {
    const { path, state, other } = await shared('replaced-before');
    try {
      // The window between the crawl's last identity check (share) and the thread's open, on purpose.
      renameSync(other, path);
      const to = input('replaced-before/report');
      await expect(writeCrawlReportInThread(path, to, state.identity)).rejects.toMatchObject(lost);
      expect(existsSync(to.dir)).toBe(false);
    } finally {
      state.close();
    }
  });

  it('replaced while the thread reads (after its open): the same sentence', async () => {
    const { path, state, other } = await shared('replaced-during');
    try {
      const hold = new Int32Array(new SharedArrayBuffer(4));
      const writing = writeCrawlReportInThread(path, input('replaced-during/report'), state.identity, hold);
      writing.catch(() => undefined);
      // The thread opened the crawl's file and waits: the file is replaced now, then it reads.
      while (Atomics.load(hold, 0) !== 1) await new Promise((r) => setTimeout(r, 5));
      renameSync(other, path);
      Atomics.store(hold, 0, 2);
      Atomics.notify(hold, 0);
      await expect(writing).rejects.toMatchObject(lost);
    } finally {
      state.close();
    }
  });

  it('the crawl’s own file, unchanged: the report as before', async () => {
    const { path, state } = await shared('kept');
    try {
      const files = await writeCrawlReportInThread(path, input('kept/report'), state.identity);
      expect(readdirSync(files.dir).sort()).toEqual(['report.html', 'urls.csv', 'urls.jsonl']);
    } finally {
      state.close();
    }
  });
});

function paths(folder: string): { html: string; jsonl: string; csv: string } {
  return {
    html: join(folder, 'report.html'),
    jsonl: join(folder, 'urls.jsonl'),
    csv: join(folder, 'urls.csv'),
  };
}
