// The state's lock while a large crawl's report is written by a second thread (CrawlState.share,
// src/crawler/state-open.ts): the crawl's exclusive lock becomes a shared one, held until the
// state is closed, and turns exclusive again before the close. Another crawl (another process
// opening the state, as `sitemapkit crawl --resume` does) is refused at every step of the hand-over,
// not only before and after it: the test stops the hand-over at each step (fault-injection points)
// and runs that other crawl there, to its end. There was a window: the exclusive lock was let go
// in one statement and the shared one taken in the next, and a crawl starting in between took the
// state (this crawl then failed with "in use").
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CrawlState } from '../../src/crawler/state.js';
import type { ShareStep } from '../../src/crawler/state-open.js';
import { tempDir } from '../support/tmp.js';

// The other crawl runs the build's JavaScript (the report's thread does too).
const STATE_OPEN = fileURLToPath(new URL('../../dist/crawler/state-open.js', import.meta.url));

/** Opens the state at `path` from another process as a resumed crawl does; its error's message, or 'opened'. */
function otherCrawl(path: string): string {
  const script = `
    import { openStateDb } from ${JSON.stringify(STATE_OPEN)};
    try { (await openStateDb(${JSON.stringify(path)}, 'resume')).close(); console.log('opened'); }
    catch (e) { console.log(e.message); }`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

let path: string;

beforeAll(async () => {
  path = join(tempDir('sk-share-lock'), 'state.db');
  const state = await CrawlState.open(path, 'new');
  state.setMeta('status', 'complete');
  state.close();
});

describe('the state shared with the report’s thread', () => {
  it('refuses another crawl at every step of the hand-over, and this crawl keeps the state', async () => {
    expect(otherCrawl(path)).toBe('opened');
    const state = await CrawlState.open(path, 'resume');
    const seen: Array<[ShareStep | 'before' | 'after', string]> = [];
    try {
      seen.push(['before', otherCrawl(path)]);
      state.share((step) => seen.push([step, otherCrawl(path)]));
      seen.push(['after', otherCrawl(path)]);
      // What this crawl writes while it shares the state, as `published` does.
      state.published();
    } finally {
      state.close();
    }
    const refused = 'the crawl state is in use by another crawl';
    expect(seen.map(([step]) => step)).toEqual([
      'before',
      'journal',
      'normal',
      'committed',
      'shared',
      'after',
      'unsharing',
    ]);
    for (const [step, answer] of seen) expect({ step, answer }).toEqual({ step, answer: refused });
    // Closed: the state opens again, with what this crawl wrote while it was shared.
    expect(otherCrawl(path)).toBe('opened');
    const again = await CrawlState.open(path, 'resume');
    try {
      expect(again.getMeta('published')).toBe('0');
    } finally {
      again.close();
    }
  });
});
