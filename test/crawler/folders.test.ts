import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, startServer, type TestServer, text } from '../support/http-server.js';

// The library's crawl() makes its report and state folders itself, bounded: Node's recursive
// mkdir loops forever under /proc, so a library caller naming such a folder must get a clear
// ERR_OUTPUT and not a process spinning at 100% CPU. Run in a child process, killed after a
// generous limit, so that a regression fails this test instead of hanging the worker.
const DIST = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

let site: TestServer;
beforeAll(async () => {
  site = await startServer({
    '/robots.txt': text('User-agent: *\nAllow: /\n'),
    '/': html('Home', '<h1>Home</h1>'),
  });
});
afterAll(() => site.close());

function crawlInChild(options: string): Promise<{ out: string; signal: NodeJS.Signals | null }> {
  const code = `
    const { crawl } = await import(${JSON.stringify(DIST)});
    try {
      await crawl({ start: ${JSON.stringify(site.url)}, ${options} });
      console.log('no error');
    } catch (e) {
      console.log(e.code + ' ' + e.message);
    }`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', fail);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      done({ out, signal });
    });
  });
}

describe('crawl(): folders under /proc', () => {
  it('a report folder there fails with ERR_OUTPUT instead of spinning', async () => {
    const r = await crawlInChild(`report: '/proc/self/sitemapkit/report', outDir: '/tmp/sk-proc-out'`);
    expect(r.signal, 'killed: it did not end').toBeNull();
    expect(r.out).toMatch(/^ERR_OUTPUT /);
  });

  it('a state folder there fails with ERR_OUTPUT instead of spinning', async () => {
    const r = await crawlInChild(`state: '/proc/self/sitemapkit/state.db', outDir: '/tmp/sk-proc-out'`);
    expect(r.signal, 'killed: it did not end').toBeNull();
    expect(r.out).toMatch(/^ERR_OUTPUT /);
  });
});
