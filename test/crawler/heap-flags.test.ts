// A library caller's process is left as the crawl found it (src/crawler/heap.ts). `crawl()` set
// three of V8's flags of the whole process (--heap-growing-percent, --semi-space-growth-factor,
// --expose-gc) and set the first two back to V8's defaults, not to the caller's values, and left
// --expose-gc on: after a library crawl of 10,000 URLs or more, every new context of the caller's
// process had a `gc` function, and a process started with its own heap flags had lost them. Now the
// library holds the heap only with `holdHeap` (the CLI's), never touches a flag the process was
// started with, and sets the others back.
//
// Each case is a real child process started with its own flags that crawls a loopback site through
// the build's `crawl()` (fixtures/heap-flags-child.mjs). --expose-gc is observed (a new context's
// `gc`); the heap's growth flags have no observable without timing, and V8 cannot read a flag back,
// so the child records what the library passed to node:v8's setFlagsFromString.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlags } from '../../src/crawler/heap.js';
import { html, startServer, type TestServer } from '../support/http-server.js';
import { tempDir } from '../support/tmp.js';

const CHILD = fileURLToPath(new URL('./fixtures/heap-flags-child.mjs', import.meta.url));

let site: TestServer;

beforeAll(async () => {
  // An endless tree (page n links to 10n+1 … 10n+10): 1,100 pages find more than 10,000 URLs.
  site = await startServer(
    { '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' } },
    {
      fallback: (req, res) => {
        const n = Number(/^\/n\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 0);
        const links = Array.from({ length: 10 }, (_, i) => `<a href="/n/${10 * n + i + 1}">${i}</a>`).join(
          '',
        );
        const { body } = html(`Page ${n}`, links);
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(body);
      },
    },
  );
});

afterAll(async () => {
  await site?.close();
});

interface After {
  found: number;
  gcInNewContext: string;
  gcHere: string;
  set: string[];
}

/** Runs the child with `nodeFlags` (and `NODE_OPTIONS`), crawling with `holdHeap: hold`. */
function crawlIn(nodeFlags: string[], hold: boolean, nodeOptions = ''): Promise<After> {
  const dir = tempDir('sk-heap-flags');
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeFlags, CHILD, site.origin, dir, String(hold)],
      { env: { ...process.env, NODE_OPTIONS: nodeOptions }, timeout: 120_000 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as After);
      },
    );
  });
}

/** The last value the library gave each flag (`expose-gc`: on or off). */
function lastValues(set: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of set) {
    const m = /^--(no-)?([\w-]+)(?:=(.*))?$/.exec(f)!;
    out[m[2]!] = m[3] ?? (m[1] === undefined ? 'on' : 'off');
  }
  return out;
}

describe('the process’s own V8 flags (startFlags)', () => {
  it('reads them from the command line after NODE_OPTIONS, in V8’s spellings, the last one winning', () => {
    const none = { heapGrowingPercent: undefined, semiSpaceGrowthFactor: undefined, exposeGc: false };
    expect(startFlags([], undefined)).toEqual(none);
    expect(startFlags(['--max-old-space-size=100', '--stack-size=900'], '')).toEqual(none);
    expect(startFlags(['--expose-gc'], undefined).exposeGc).toBe(true);
    expect(startFlags(['--expose_gc'], undefined).exposeGc).toBe(true);
    expect(startFlags([], '--expose-gc  --max-old-space-size=100').exposeGc).toBe(true);
    expect(startFlags(['--no-expose-gc'], '--expose-gc').exposeGc).toBe(false);
    expect(startFlags(['--noexpose_gc'], '--expose-gc').exposeGc).toBe(false);
    expect(startFlags(['--expose-gc', '--no-expose-gc', '--expose-gc'], undefined).exposeGc).toBe(true);
    expect(startFlags(['--heap-growing-percent=50'], undefined).heapGrowingPercent).toBe('50');
    expect(startFlags(['--heap_growing_percent=20', '--heap-growing-percent=30'], undefined)).toEqual({
      ...none,
      heapGrowingPercent: '30',
    });
    expect(startFlags(['--semi_space_growth_factor=4'], undefined).semiSpaceGrowthFactor).toBe('4');
    // Without its value V8 refuses the flag: nothing to keep.
    expect(startFlags(['--heap-growing-percent'], undefined).heapGrowingPercent).toBeUndefined();
  });
});

describe('a library crawl leaves its caller’s process as it found it', () => {
  it('by default it sets no flag at all, and no new context gets a gc function', async () => {
    const after = await crawlIn([], false);
    expect(after.found).toBeGreaterThanOrEqual(10_000);
    expect(after.set).toEqual([]);
    expect(after.gcInNewContext).toBe('undefined');
  }, 130_000);

  it('with holdHeap (the CLI’s), every flag it set is back at what the process had: V8’s defaults', async () => {
    const after = await crawlIn([], true);
    expect(after.found).toBeGreaterThanOrEqual(10_000);
    // It did hold the heap, and collect it at the last page.
    expect(after.set).toContain('--heap-growing-percent=100');
    expect(after.set).toContain('--expose-gc');
    expect(lastValues(after.set)).toMatchObject({
      'heap-growing-percent': '0',
      'semi-space-growth-factor': '2',
      'expose-gc': 'off',
    });
    expect(after.gcInNewContext).toBe('undefined');
  }, 130_000);

  it('with holdHeap, flags the process was started with (command line or NODE_OPTIONS) are never touched', async () => {
    const after = await crawlIn(
      ['--heap-growing-percent=50', '--semi-space-growth-factor=4'],
      true,
      '--expose-gc',
    );
    expect(after.found).toBeGreaterThanOrEqual(10_000);
    expect(after.set.filter((f) => !f.includes('expose'))).toEqual([]);
    expect(after.set).not.toContain('--no-expose-gc');
    expect(after.gcHere).toBe('function');
    expect(after.gcInNewContext).toBe('function');
  }, 130_000);
});
