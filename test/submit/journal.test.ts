import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isSitemapkitError } from '../../src/core/errors.js';
import { journalPath, openSubmissionJournal } from '../../src/submit/journal.js';
import { type FakeBing, startFakeBing } from '../support/bing-server.js';
import { runStepsChild } from '../support/steps-child.js';
import { tempDir } from '../support/tmp.js';

// The journal's crash windows are hit on purpose: a child process submits to the fake Bing with
// its journal and kills itself (SIGKILL) at a named journal step. No timing is involved.
const CHILD = fileURLToPath(new URL('./fixtures/journal-child.mjs', import.meta.url));
const SITE = 'https://www.example.com/';
let bing: FakeBing;

beforeAll(async () => {
  bing = await startFakeBing({ site: SITE });
});
afterAll(async () => {
  await bing.close();
});
afterEach(() => bing.reset());

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  steps: string[];
  report: { submitted: number; kept: number; journal?: { fromEarlier: number; kept?: number } } | undefined;
}

function run(dir: string, from: number, count: number, batch: number, killAt = ''): Promise<Outcome> {
  const args = [dir, bing.apiRoot, bing.key, SITE, String(from), String(count), String(batch), killAt];
  // This child prints its steps on standard error and its report on standard output.
  return runStepsChild(CHILD, args).then((r) => ({
    code: r.code,
    signal: r.signal,
    steps: r.stderr.split('\n').filter(Boolean),
    report: r.stdout === '' ? undefined : JSON.parse(r.stdout),
  }));
}

const urls = (n: number, from = 0): string[] => Array.from({ length: n }, (_, i) => `${SITE}p/${from + i}`);

describe('the submission journal: nothing lost, nothing sent twice', () => {
  it('a crash between batches loses nothing, and rerunning the same command sends exactly the rest', async () => {
    const dir = tempDir('sk-journal');
    const crashed = await run(dir, 0, 450, 100, 'settled:2');
    expect(crashed.signal).toBe('SIGKILL');
    expect(bing.accepted).toEqual(urls(200));
    expect(existsSync(journalPath(dir, 'bing-urls'))).toBe(true);

    const again = await run(dir, 0, 450, 100);
    expect(again.code).toBe(0);
    expect(bing.accepted).toEqual(urls(450));
    expect(again.report).toMatchObject({ submitted: 250, kept: 0, journal: { fromEarlier: 250, kept: 0 } });
    // A run that ends with nothing kept leaves no journal behind.
    expect(existsSync(journalPath(dir, 'bing-urls'))).toBe(false);
  });

  it('a crash after the plan was written and before any batch: the next run sends everything once', async () => {
    const dir = tempDir('sk-journal');
    const crashed = await run(dir, 0, 250, 100, 'planned');
    expect(crashed.signal).toBe('SIGKILL');
    expect(bing.accepted).toEqual([]);
    const again = await run(dir, 0, 250, 100);
    expect(again.code).toBe(0);
    expect(bing.accepted).toEqual(urls(250));
  });

  it('two crashes in a row still send each URL once', async () => {
    const dir = tempDir('sk-journal');
    expect((await run(dir, 0, 500, 100, 'settled:1')).signal).toBe('SIGKILL');
    expect((await run(dir, 0, 500, 100, 'settled:2')).signal).toBe('SIGKILL');
    expect(bing.accepted).toEqual(urls(300));
    expect((await run(dir, 0, 500, 100)).code).toBe(0);
    expect(bing.accepted).toEqual(urls(500));
  });

  it('what the quota kept is sent first on the next run, before the new URLs', async () => {
    const dir = tempDir('sk-journal');
    bing.daily = 150;
    const first = await run(dir, 0, 450, 100);
    expect(first.report).toMatchObject({ submitted: 150, kept: 300, journal: { kept: 300 } });
    expect(bing.accepted).toEqual(urls(150));
    bing.daily = 1000;
    const second = await run(dir, 1000, 20, 100);
    expect(second.report).toMatchObject({ submitted: 320, kept: 0, journal: { fromEarlier: 300, kept: 0 } });
    expect(bing.accepted).toEqual([...urls(150), ...urls(300, 150), ...urls(20, 1000)]);
  });

  it('a settle line torn by a crash is ignored: that batch is sent again, nothing is lost', async () => {
    const dir = tempDir('sk-journal');
    expect((await run(dir, 0, 300, 100, 'settled:1')).signal).toBe('SIGKILL');
    const log = join(dir, '.sitemapkit-submit-bing-urls.done');
    const text = readFileSync(log, 'utf8');
    // Cut the only record in the middle, as a crash during the append would.
    writeFileSync(log, text.slice(0, Math.floor(text.length / 2)));
    expect((await run(dir, 0, 300, 100)).code).toBe(0);
    expect(new Set(bing.accepted)).toEqual(new Set(urls(300)));
    expect(bing.accepted).toHaveLength(400);
  });

  it('a journal kept for another target is refused with ERR_STATE, naming both', async () => {
    const dir = tempDir('sk-journal');
    bing.daily = 0;
    expect((await run(dir, 0, 5, 100)).report).toMatchObject({ kept: 5 });
    const e = await openSubmissionJournal({
      dir,
      channel: 'bing-urls',
      target: 'https://other.example/',
    }).catch((x: unknown) => x);
    expect(isSitemapkitError(e, 'ERR_STATE')).toBe(true);
    expect((e as Error).message).toBe(
      `the submission journal keeps URLs for ${SITE}, not https://other.example/`,
    );
  });

  it('a journal that is not one is refused with ERR_STATE, not a stack', async () => {
    const dir = tempDir('sk-journal');
    writeFileSync(journalPath(dir, 'bing-urls'), 'hello\n');
    appendFileSync(journalPath(dir, 'bing-urls'), '{"loc":"x"}\n');
    const e = await openSubmissionJournal({ dir, channel: 'bing-urls', target: SITE }).catch(
      (x: unknown) => x,
    );
    expect(isSitemapkitError(e, 'ERR_STATE')).toBe(true);
    expect((e as Error).message).toBe('the submission journal has a line that is not JSON (line 1)');
  });
});
