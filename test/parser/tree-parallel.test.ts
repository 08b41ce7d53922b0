// The tree read ahead, in parse workers or in this thread, against the sequential walk
// (threads 0, concurrency 1): the same entries, findings, sitemap facts and onItem positions, in
// the same order, on the spec samples as children of one index, on the failure scenarios of
// tree.test.ts, and on generated trees (a property); a worker that fails; Ctrl-C.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { formatRow } from '../../src/cli/commands/parse.js';
import { TREE_JSON_LINES } from '../../src/cli/tree-lines.js';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { isSitemapkitError } from '../../src/core/errors.js';
import { parseSitemapTree, parseSitemapTreeLines } from '../../src/parser/tree.js';
import { useParseWorker } from '../../src/parser/tree-pool.js';
import type { ItemPosition, SitemapInfo, TreeEntry, TreeOptions } from '../../src/parser/types.js';
import { BIN, cli } from '../support/cli.js';
import {
  body,
  cut,
  gzipFile,
  gzipTransfer,
  type Route,
  redirect,
  serveFolder,
  startServer,
  type TestServer,
} from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';
import { indexOf, SAMPLES, sampleFiles, urlsetOf } from './helpers.js';

const servers: TestServer[] = [];
async function server(routes: Record<string, Route> = {}): Promise<TestServer> {
  const s = await startServer(routes, { keepAlive: false });
  servers.push(s);
  return s;
}
afterEach(async () => {
  useParseWorker(undefined);
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

interface Walk {
  entries: TreeEntry[];
  diagnostics: Diagnostic[];
  sitemaps: SitemapInfo[];
  items: Array<[string, string, ItemPosition]>;
  errorCount: number;
}

async function walk(roots: string | string[], options: TreeOptions): Promise<Walk> {
  const out: Walk = { entries: [], diagnostics: [], sitemaps: [], items: [], errorCount: 0 };
  const tree = parseSitemapTree(roots, {
    ...options,
    onDiagnostic: (d) => out.diagnostics.push(d),
    onSitemap: (s) => out.sitemaps.push(s),
    onItem: (item, sitemap, where) => out.items.push([item.loc, sitemap, { ...where }]),
  });
  for await (const e of tree) out.entries.push(e);
  out.errorCount = tree.errorCount;
  expect(tree.diagnostics).toEqual(out.diagnostics.slice(0, tree.diagnostics.length));
  expect(tree.sitemaps).toEqual(out.sitemaps);
  return out;
}

const SEQUENTIAL: TreeOptions = { threads: 0, concurrency: 1 };

interface GeneratedChild {
  size: number;
  gzip: boolean;
  kind: string;
  /** Text of an image title on every other page: multi-byte in UTF-8 (a worker's lines are bytes). */
  title: string;
}
const generatedChild = fc.record({
  size: fc.integer({ min: 0, max: 400 }),
  gzip: fc.boolean(),
  kind: fc.constantFrom('ok', 'ok', 'ok', 'truncated', 'bad-gzip', 'missing', 'cut', 'text', 'index'),
  title: fc.string({ unit: fc.constantFrom('a', ' ', 'é', '漢', '😀', '&amp;'), maxLength: 6 }),
});

/** A urlset of `locs`, every other page with an image titled `title`. */
function urlsetWithTitles(locs: readonly string[], title: string): string {
  const image = (l: string): string =>
    `<image:image><image:loc>${l}.png</image:loc><image:title>${title}</image:title></image:image>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n${locs.map((l, j) => `<url><loc>${l}</loc>${j % 2 === 0 ? image(l) : ''}</url>`).join('\n')}\n</urlset>\n`;
}

/** Serves an index of `children` (their sizes and failures as generated); its origin. */
async function generatedTree(children: GeneratedChild[]): Promise<string> {
  const s = await server();
  const o = s.origin;
  const url = (i: number): string => `${o}/c${i}.xml${children[i]!.gzip ? '.gz' : ''}`;
  s.route('/index.xml', body(indexOf(children.map((_, i) => url(i)))));
  children.forEach((c, i) => {
    const locs = Array.from({ length: c.size }, (_, j) => `${o}/c${i}/page-${j}?q=${j % 7}&x=%41`);
    const xml =
      c.kind === 'index'
        ? indexOf([url((i + 1) % children.length), `${o}/extra-${i}.xml`])
        : c.kind === 'text'
          ? `${locs.join('\n')}\n`
          : urlsetWithTitles(locs, c.title);
    const path = new URL(url(i)).pathname;
    if (c.kind === 'missing') return;
    if (c.kind === 'cut') s.route(path, cut(xml, Math.floor(xml.length / 2)));
    else if (c.kind === 'bad-gzip') s.route(path, body(gzipSync(xml).subarray(0, 40 + c.size)));
    else {
      const text = c.kind === 'truncated' ? xml.slice(0, Math.floor(xml.length * 0.7)) : xml;
      s.route(path, c.gzip ? body(gzipSync(text)) : body(text));
    }
    s.route(`/extra-${i}.xml`, body(urlsetOf([`${o}/extra/${i}`])));
  });
  return o;
}

interface LinesWalk {
  text: string;
  count: number;
  diagnostics: Diagnostic[];
  sitemaps: SitemapInfo[];
  errorCount: number;
}

/**
 * The tree as `sitemapkit parse URL --format jsonl` prints it: with `threads` undefined, the
 * reference (the sequential walk's entries through the CLI's `formatRow`, as the one-thread CLI
 * wrote them), else `parseSitemapTreeLines` with the CLI's line format (lines written in workers).
 */
async function linesWalk(roots: string, options: TreeOptions, reference: boolean): Promise<LinesWalk> {
  const out: LinesWalk = { text: '', count: 0, diagnostics: [], sitemaps: [], errorCount: 0 };
  const o: TreeOptions = {
    ...options,
    onDiagnostic: (d) => out.diagnostics.push(d),
    onSitemap: (i) => out.sitemaps.push(i),
  };
  if (reference) {
    const tree = parseSitemapTree(roots, { ...o, ...SEQUENTIAL });
    for await (const e of tree) out.text += formatRow(e, roots, 'jsonl');
    out.count = out.text.split('\n').length - 1;
    out.errorCount = tree.errorCount;
  } else {
    const tree = parseSitemapTreeLines(roots, o, TREE_JSON_LINES);
    for await (const lines of tree) {
      const text = 'text' in lines ? lines.text : Buffer.from(lines.bytes).toString();
      // Whole lines, as many as said: a run cut mid-line would shift findings and maxUrls' cut.
      expect(text.split('\n')).toHaveLength(lines.count + 1);
      expect(text === '' || text.endsWith('\n')).toBe(true);
      out.text += text;
      out.count += lines.count;
    }
    out.errorCount = tree.errorCount;
  }
  return out;
}

/** The CLI's JSON lines from parse workers (each of `modes`) against the one-thread CLI's bytes. */
async function expectSameLines(
  roots: string,
  options: TreeOptions,
  modes: TreeOptions[],
): Promise<LinesWalk> {
  const reference = await linesWalk(roots, options, true);
  for (const mode of modes) {
    const w = await linesWalk(roots, { ...options, ...mode }, false);
    expect(w, JSON.stringify(mode)).toEqual(reference);
  }
  return reference;
}

/** Reads `roots` sequentially, then in each of `modes`, and expects the same walk every time. */
async function expectSameWalk(
  roots: string | string[],
  options: TreeOptions,
  modes: TreeOptions[] = [
    { threads: 2, concurrency: 4 },
    { threads: 1, concurrency: 1 },
    { threads: 0, concurrency: 4 },
  ],
): Promise<Walk> {
  const reference = await walk(roots, { ...options, ...SEQUENTIAL });
  for (const mode of modes) {
    const w = await walk(roots, { ...options, ...mode });
    expect(w, JSON.stringify(mode)).toEqual(reference);
  }
  return reference;
}

/**
 * The property over generated trees (random sizes, gzip or not, broken children, nested indexes):
 * `same` finds one reading with `threads` workers and one without equal to the sequential one.
 */
function generatedTreesAgree(
  same: (roots: string, options: TreeOptions, modes: TreeOptions[]) => Promise<unknown>,
  numRuns: number,
): Promise<void> {
  return fc.assert(
    fc.asyncProperty(
      fc.array(generatedChild, { minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 3 }),
      async (children, concurrency, threads) => {
        const o = await generatedTree(children);
        await same(`${o}/index.xml`, {}, [
          { threads, concurrency },
          { threads: 0, concurrency },
        ]);
      },
    ),
    { numRuns },
  );
}

describe('parseSitemapTree read ahead gives the sequential walk', () => {
  it('every spec sample as a child of one index: entries, findings, facts and positions, in order', async () => {
    const s = await server();
    const files = sampleFiles();
    s.route('/index.xml', body(indexOf(files.map((f) => `${s.origin}/${f}`))));
    const folder = serveFolder(SAMPLES);
    for (const f of files) s.route(`/${f}`, folder);
    const w = await expectSameWalk(`${s.origin}/index.xml`, { crossSubmit: false, maxUrls: 20_000_000 });
    // The samples hold entries and findings: the comparison compared something.
    expect(w.entries.length).toBeGreaterThan(50_000);
    expect(new Set(w.diagnostics.map((d) => d.code)).size).toBeGreaterThan(10);
    // The index, each sample, and the children of the samples that are indexes.
    expect(w.sitemaps.length).toBeGreaterThan(files.length);
    // The documented order: the children's entries in the order the index lists them.
    const order = [...new Set(w.entries.map((e) => e.sitemap))];
    expect(order).toEqual(files.map((f) => `${s.origin}/${f}`).filter((f) => order.includes(f)));
  });

  it('failing children (broken, gzip, cut, 404, 500, HTML), cycles, duplicates and redirects', async () => {
    const s = await server();
    const o = s.origin;
    const names = [
      'good',
      'gz',
      'te',
      'broken',
      'missing',
      'error',
      'reset',
      'html',
      'hop',
      'nested',
      'good',
    ];
    s.route('/index.xml', body(indexOf([`${o}/index.xml`, ...names.map((n) => `${o}/${n}.xml`)])));
    s.route('/good.xml', body(urlsetOf([`${o}/a`, `${o}/b`])));
    s.route('/gz.xml', gzipFile(urlsetOf([`${o}/gz1`, `${o}/gz2`])));
    s.route('/te.xml', gzipTransfer(urlsetOf([`${o}/te1`])));
    s.route('/broken.xml', body(`${urlsetOf([`${o}/br1`, `${o}/br2`]).slice(0, -40)}`));
    s.route('/error.xml', body('oops', {}, 500));
    s.route('/reset.xml', cut(urlsetOf([`${o}/r1`, `${o}/r2`, `${o}/r3`]), 180));
    s.route(
      '/html.xml',
      body('<!DOCTYPE html><html><body>Not found</body></html>', { 'content-type': 'text/html' }),
    );
    s.route('/hop.xml', redirect(`${o}/index.xml`));
    s.route('/nested.xml', body(indexOf([`${o}/deep.xml`, `${o}/gz.xml`])));
    s.route('/deep.xml', body(urlsetOf([`${o}/d1`, 'not a url', `${o}/d2`])));
    const w = await expectSameWalk(`${o}/index.xml`, {});
    expect(w.entries.map((e) => e.loc)).toEqual([
      `${o}/a`,
      `${o}/b`,
      `${o}/gz1`,
      `${o}/gz2`,
      `${o}/te1`,
      `${o}/br1`,
      `${o}/r1`,
      `${o}/d1`,
      `${o}/d2`,
    ]);
    expect(w.diagnostics.map((d) => d.code)).toEqual(
      expect.arrayContaining([
        'index-cycle',
        'index-duplicate',
        'fetch-status',
        'xml-truncated',
        'index-nested',
      ]),
    );
  });

  it('limits: maxUrls stops mid-child and maxSitemaps refuses the rest, at the same entry', async () => {
    const s = await server();
    const o = s.origin;
    const kids = Array.from({ length: 6 }, (_, i) => `${o}/k${i}.xml.gz`);
    s.route('/index.xml', body(indexOf(kids)));
    for (let i = 0; i < 6; i++)
      s.route(`/k${i}.xml.gz`, gzipFile(urlsetOf(Array.from({ length: 700 }, (_, j) => `${o}/k${i}/${j}`))));
    const capped = await expectSameWalk(`${o}/index.xml`, { maxUrls: 1500 });
    expect(capped.entries).toHaveLength(1500);
    expect(capped.diagnostics.map((d) => d.code)).toContain('tree-limit');
    const fewer = await expectSameWalk(`${o}/index.xml`, { maxSitemaps: 3 });
    expect(fewer.entries).toHaveLength(1400);
  });

  it('cross-submits: a child listing another host is checked against its robots.txt, as in sequence', async () => {
    const other = await server();
    const s = await server();
    const o = s.origin;
    other.route('/robots.txt', body(`Sitemap: ${o}/b.xml\n`, { 'content-type': 'text/plain' }));
    s.route('/index.xml', body(indexOf([`${o}/a.xml`, `${o}/b.xml`])));
    s.route('/a.xml', body(urlsetOf([`${o}/1`, `${other.origin}/x`, `${other.origin}/y`])));
    s.route('/b.xml', body(urlsetOf([`${other.origin}/z`, `${o}/2`])));
    const w = await expectSameWalk(`${o}/index.xml`, {});
    expect(w.diagnostics.map((d) => [d.code, d.url])).toEqual([
      ['url-outside-location', `${other.origin}/x`],
      ['url-outside-location', `${other.origin}/y`],
    ]);
  });

  it('generated trees: random sizes, gzip or not, broken children, nested indexes (property)', async () => {
    await generatedTreesAgree(expectSameWalk, 12);
  });
});

describe('parseSitemapTreeLines (sitemapkit parse URL --format jsonl) gives the one-thread bytes', () => {
  it('every spec sample as a child of one index: the same lines, findings and facts', async () => {
    const s = await server();
    const files = sampleFiles();
    s.route('/index.xml', body(indexOf(files.map((f) => `${s.origin}/${f}`))));
    const folder = serveFolder(SAMPLES);
    for (const f of files) s.route(`/${f}`, folder);
    const w = await expectSameLines(`${s.origin}/index.xml`, { crossSubmit: false, maxUrls: 20_000_000 }, [
      { threads: 2, concurrency: 4 },
      { threads: 0, concurrency: 4 },
    ]);
    expect(w.count).toBeGreaterThan(50_000);
    expect(new Set(w.diagnostics.map((d) => d.code)).size).toBeGreaterThan(10);
  });

  it('maxUrls stops mid-child at the same line', async () => {
    const s = await server();
    const o = s.origin;
    const kids = Array.from({ length: 4 }, (_, i) => `${o}/k${i}.xml.gz`);
    s.route('/index.xml', body(indexOf(kids)));
    for (let i = 0; i < 4; i++)
      s.route(`/k${i}.xml.gz`, gzipFile(urlsetOf(Array.from({ length: 700 }, (_, j) => `${o}/k${i}/${j}`))));
    const w = await expectSameLines(`${o}/index.xml`, { maxUrls: 1234 }, [{ threads: 2, concurrency: 4 }]);
    expect(w.count).toBe(1234);
    expect(w.diagnostics.map((d) => d.code)).toContain('tree-limit');
  });

  it('findings between the pages of children read in a worker: whole lines, the same findings', async () => {
    const s = await server();
    const o = s.origin;
    const kids = Array.from({ length: 3 }, (_, i) => `${o}/k${i}.xml.gz`);
    s.route('/index.xml', body(indexOf(kids)));
    for (let i = 0; i < 3; i++) {
      // A loc that is no URL every 97 pages, and pages of about 1 KB (a long title): a batch (one
      // inflated chunk) holds some 60 pages, a message several batches, findings fall between them.
      const locs = Array.from({ length: 3000 }, (_, j) =>
        j % 97 === 50 ? `not a url ${j}` : `${o}/k${i}/${j}`,
      );
      s.route(`/k${i}.xml.gz`, gzipFile(urlsetWithTitles(locs, `${'é'.repeat(300)} ${i}`)));
    }
    const w = await expectSameLines(`${o}/index.xml`, {}, [{ threads: 1, concurrency: 3 }]);
    expect(w.diagnostics.length).toBeGreaterThan(90);
  });

  it("maxUrls stops at the same line within a worker's UTF-8 (multi-byte titles on every line)", async () => {
    const s = await server();
    const o = s.origin;
    const kids = Array.from({ length: 3 }, (_, i) => `${o}/k${i}.xml`);
    s.route('/index.xml', body(indexOf(kids)));
    for (let i = 0; i < 3; i++) {
      const locs = Array.from({ length: 900 }, (_, j) => `${o}/k${i}/${j}`);
      s.route(`/k${i}.xml`, body(urlsetWithTitles(locs, `Überschrift 漢字 😀 ${i}`)));
    }
    // 1,000 + 777: the cut falls inside the second child, read in a worker, mid-message.
    const w = await expectSameLines(`${o}/index.xml`, { maxUrls: 1777 }, [{ threads: 1, concurrency: 3 }]);
    expect(w.count).toBe(1777);
    expect(w.text).toContain('漢字 😀');
    expect(w.diagnostics.map((d) => d.code)).toContain('tree-limit');
  });

  it('generated trees: random sizes, gzip or not, broken children, nested indexes (property)', async () => {
    await generatedTreesAgree(expectSameLines, 10);
  });
});

describe('the parse workers of a tree', () => {
  it('start, their line module loaded, while the single root is fetched and read in this thread', async () => {
    // The line format's module marks its loading in a file; the index is answered only once the
    // mark is there (workers started when the first child is queued would never come: a 503).
    const dir = tempDir('tree-warm');
    const mark = join(dir, 'loaded');
    const module = join(dir, 'lines.mjs');
    writeFileSync(
      module,
      `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(mark)}, 'loaded');\nexport { jsonLine } from ${JSON.stringify(TREE_JSON_LINES.module)};\n`,
    );
    const s = await server();
    const o = s.origin;
    s.route('/index.xml', async (_req, res) => {
      for (let i = 0; i < 400 && !existsSync(mark); i++) await new Promise((r) => setTimeout(r, 50));
      if (!existsSync(mark)) return void res.writeHead(503).end();
      res.writeHead(200, { 'content-type': 'application/xml' }).end(indexOf([`${o}/a.xml`, `${o}/b.xml`]));
    });
    s.route('/a.xml', body(urlsetOf([`${o}/a/1`, `${o}/a/2`])));
    s.route('/b.xml', body(urlsetOf([`${o}/b/1`])));
    const format = { ...TREE_JSON_LINES, module: pathToFileURL(module).href };
    const tree = parseSitemapTreeLines(`${o}/index.xml`, { threads: 1 }, format);
    let text = '';
    for await (const lines of tree)
      text += 'text' in lines ? lines.text : Buffer.from(lines.bytes).toString();
    expect(tree.errorCount).toBe(0);
    expect(text).toBe(
      [`${o}/a/1`, `${o}/a/2`, `${o}/b/1`]
        .map((loc, i) => `{"loc":"${loc}","sitemap":"${o}/${i < 2 ? 'a' : 'b'}.xml"}\n`)
        .join(''),
    );
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('parseSitemapTree with a parse worker that fails', () => {
  it('an error thrown in the worker ends the iteration with that error, as it would in this thread', async () => {
    const s = await server();
    const o = s.origin;
    // With one worker, this thread reads the root and a.xml, the worker b.xml.
    s.route('/index.xml', body(indexOf([`${o}/a.xml`, `${o}/b.xml`])));
    s.route('/a.xml', body(urlsetOf([`${o}/1`])));
    s.route('/b.xml', body(urlsetOf([`${o}/2`])));
    useParseWorker(new URL('./fixtures/failing-worker.mjs', import.meta.url));
    const error = await walk(`${o}/index.xml`, { threads: 1 }).catch((e: unknown) => e);
    expect(isSitemapkitError(error, 'ERR_LIMIT')).toBe(true);
    expect((error as Error).message).toBe('injected failure');
  });

  it('a worker that exits ends the iteration with an error naming the sitemap (threads given: the roots too)', async () => {
    const s = await server();
    const o = s.origin;
    s.route('/index.xml', body(indexOf([`${o}/a.xml`, `${o}/b.xml`])));
    s.route('/a.xml', body(urlsetOf([`${o}/1`])));
    s.route('/b.xml', body(urlsetOf([`${o}/2`])));
    useParseWorker(new URL('./fixtures/exiting-worker.mjs', import.meta.url));
    // A single root is read in this thread; several are shared with the workers, the first in one.
    const error = await walk([`${o}/index.xml`, `${o}/b.xml`], { threads: 2 }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(
      /parse worker stopped \(exit code 7\) while reading http:\/\/127\.0\.0\.1:\d+\/index\.xml/,
    );
    const child = await walk(`${o}/index.xml`, { threads: 2 }).catch((e: unknown) => e);
    expect((child as Error).message).toMatch(
      /parse worker stopped \(exit code 7\) while reading http:\/\/127\.0\.0\.1:\d+\/a\.xml/,
    );
  });
});

describe('sitemapkit parse --concurrency and --threads', () => {
  it('read the tree with the given threads: the same lines as one thread, in the same order', async () => {
    const s = await server();
    const o = s.origin;
    s.route('/index.xml', body(indexOf([`${o}/a.xml.gz`, `${o}/b.xml`, `${o}/c.xml.gz`])));
    s.route('/a.xml.gz', gzipFile(urlsetOf(Array.from({ length: 500 }, (_, j) => `${o}/a/${j}`))));
    s.route('/b.xml', body(urlsetOf([`${o}/b/1`, 'nope', `${o}/b/2`])));
    s.route('/c.xml.gz', gzipFile(urlsetOf(Array.from({ length: 500 }, (_, j) => `${o}/c/${j}`))));
    const one = await cli(['parse', `${o}/index.xml`, '--threads', '0', '--concurrency', '1']);
    const two = await cli(['parse', `${o}/index.xml`, '--threads', '2', '--concurrency', '3']);
    expect(one.code).toBe(1);
    expect(two).toEqual(one);
    expect(one.stdout.split('\n')).toHaveLength(1003);
  });

  it('are refused for a file read alone, and with a value that is not a whole number', async () => {
    const file = `${SAMPLES}valid/basic.xml`;
    const alone = await cli(['parse', file, '--threads', '2']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--concurrency and --threads are for a tree/);
    const bad = await cli(['parse', 'https://www.example.com/sitemap.xml', '--threads', 'many']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--threads needs a whole number/);
    const zero = await cli(['parse', 'https://www.example.com/sitemap.xml', '--concurrency', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/--concurrency needs a whole number/);
  });
});

describe('sitemapkit parse of a tree interrupted', () => {
  it('Ctrl-C while workers read children: exit 130 with one line', async () => {
    let child: ChildProcess | undefined;
    const s = await server();
    const o = s.origin;
    const big = (i: number): Route =>
      gzipFile(urlsetOf(Array.from({ length: 3000 }, (_, j) => `${o}/${i}/${j}`)));
    s.route(
      '/index.xml',
      body(indexOf([`${o}/0.xml.gz`, `${o}/1.xml.gz`, `${o}/stop.xml`, `${o}/3.xml.gz`])),
    );
    s.route('/0.xml.gz', big(0));
    s.route('/1.xml.gz', big(1));
    s.route('/3.xml.gz', big(3));
    // Asked for ahead of its turn, while the workers read the first children; never answered.
    s.route('/stop.xml', () => {
      child!.kill('SIGINT');
    });
    child = spawn(process.execPath, [BIN, 'parse', `${o}/index.xml`, '--threads', '2'], {
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.stdout!.resume();
    const limit = setTimeout(() => child!.kill('SIGKILL'), 50_000);
    const code = await new Promise<number | null>((resolve) => child!.on('close', (c) => resolve(c)));
    clearTimeout(limit);
    expect(code).toBe(130);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/interrupted/);
  });
});
