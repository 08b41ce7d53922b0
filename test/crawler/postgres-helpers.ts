/**
 * Shared parts of the tests of the crawl shared through PostgreSQL (issue 17): a loopback site
 * whose server counts every request, worker processes running the library's `crawl()`
 * (test/support/pg-crawl-worker.mjs) that print their steps, and the sitemap of a crawl read back
 * as its entries.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { html, type Route, startServer, type TestServer } from '../support/http-server.js';

export const WORKER = fileURLToPath(new URL('../support/pg-crawl-worker.mjs', import.meta.url));

/** A site of `n` pages (`/` and `/p/1` … `/p/N-1`), each linking to a few others, deterministically. */
export function siteRoutes(
  n: number,
  robots = 'User-agent: *\nDisallow: /private/\n',
): Record<string, Route> {
  const path = (i: number): string => (i === 0 ? '/' : `/p/${i}`);
  const routes: Record<string, Route> = {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: robots },
  };
  for (let i = 0; i < n; i++) {
    const links = [0, (i * 7 + 1) % n, (i * 13 + 5) % n, (i + 1) % n].map(
      (j) => `<a href="${path(j)}">${j}</a>`,
    );
    // Some pages are not listed (noindex), broken links and a robots.txt refusal: verdicts beside "listed".
    if (i % 10 === 3) links.push('<a href="/private/x">p</a>', `<a href="/missing/${i}">m</a>`);
    const head = i % 17 === 5 ? '<meta name="robots" content="noindex">' : '';
    routes[path(i)] = html(`Page ${i}`, links.join(' '), head);
  }
  return routes;
}

export async function countingSite(n: number, robots?: string): Promise<TestServer> {
  return startServer(siteRoutes(n, robots));
}

/** Requests per path, robots.txt left out. */
export function pageHits(server: TestServer): Map<string, number> {
  const hits = new Map<string, number>();
  for (const r of server.requests)
    if (r.path !== '/robots.txt') hits.set(r.path, (hits.get(r.path) ?? 0) + 1);
  return hits;
}

/** The `<url>` elements of every sitemap file in `dir`, sorted by their `<loc>`. */
export function sitemapUrls(dir: string): string[] {
  const urls: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.xml')) continue;
    const xml = readFileSync(join(dir, f), 'utf8');
    for (const m of xml.matchAll(/<url>[\s\S]*?<\/url>/g)) urls.push(m[0]);
  }
  return urls.sort();
}

export interface WorkerRun {
  child: ChildProcess;
  lines: string[];
  /** Resolves when the process ended. */
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; lines: string[]; stderr: string }>;
}

/** Starts one worker process; `env.PAUSE_AT` makes it freeze at a step (see pg-crawl-worker.mjs). */
export function startWorker(options: Record<string, unknown>, env: Record<string, string> = {}): WorkerRun {
  const child = spawn(process.execPath, [WORKER, JSON.stringify(options)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buf = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  const done = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    lines: string[];
    stderr: string;
  }>((resolve) =>
    child.on('close', (code, signal) => {
      if (buf !== '') lines.push(buf);
      resolve({ code, signal, lines, stderr });
    }),
  );
  return { child, lines, done };
}

/** The `result` line of a worker, parsed. */
export function resultOf(lines: readonly string[]): {
  complete: boolean;
  worker: { wroteOutput: boolean; pages: number; withoutFetch: number };
} {
  const line = lines.find((l) => l.startsWith('result '));
  if (line === undefined)
    throw new Error(
      `the worker printed no result:\n${lines.filter((l) => !l.startsWith('page ')).join('\n')}`,
    );
  return JSON.parse(line.slice('result '.length));
}
