import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../src/core/worker-argv.js';
import { BIN, runProcess } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'sk-worker-argv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// What a user gives `node` for a big run: V8's heap and stack options, a process title. A worker
// thread refuses each of them ("Initiated Worker with invalid execArgv flags").
const REFUSED = ['--max-old-space-size=2048', '--stack-size=1500', '--title=sk-test', '--expose-gc'];

describe('startWorker', () => {
  it('starts the worker without the options a worker refuses, and keeps the others', async () => {
    const worker = startWorker(
      "require('node:worker_threads').parentPort.postMessage(process.execArgv)",
      { eval: true },
      ['--no-warnings', ...REFUSED, '--trace-warnings', '-e', '1', '--input-type=module'],
    );
    const [argv] = await once(worker, 'message');
    await worker.terminate();
    expect(argv).toEqual(['--no-warnings', '--trace-warnings']);
  });

  it('passes every option on when the worker takes them all', async () => {
    const worker = startWorker(
      "require('node:worker_threads').parentPort.postMessage(process.execArgv)",
      { eval: true },
      ['--no-warnings', '--enable-source-maps'],
    );
    const [argv] = await once(worker, 'message');
    await worker.terminate();
    expect(argv).toEqual(['--no-warnings', '--enable-source-maps']);
  });

  it('lets `node --max-old-space-size=… sitemapkit generate` read its JSONL on a second thread', async () => {
    const input = join(dir, 'pages.jsonl');
    writeFileSync(
      input,
      Array.from({ length: 50 }, (_, i) => JSON.stringify({ loc: `https://example.com/p/${i}` })).join('\n'),
    );
    const out = join(dir, 'out');
    const r = await runProcess(process.execPath, [
      ...REFUSED,
      BIN,
      'generate',
      input,
      '--out',
      out,
      '--base-url',
      'https://example.com/',
      '--threads',
      '1',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain('https://example.com/p/49');
  });
});
