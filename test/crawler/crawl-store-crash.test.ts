import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, html, type Route, type TestServer as Site, startServer } from '../support/http-server.js';
import { runStepsChild } from '../support/steps-child.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';

// crawl --store killed with SIGKILL at every step of the store's import, build and commit, and
// between the store's commit and the crawl state's record of it (a child process kills itself at
// the named step: fixtures/store-crash-child.mjs). Whatever a reader then sees is whole files of
// the old set or the new one, and the same crawl run again lands exactly on the new set.
const CHILD = fileURLToPath(new URL('./fixtures/store-crash-child.mjs', import.meta.url));
const T1 = Date.parse('2026-11-20T08:00:00Z');
const T2 = Date.parse('2026-11-21T08:00:00Z');
const N = 24;
const TMP = '.sitemapkit-tmp-';

let site: Site;
const text = new Map<number, string>();
const status = new Map<number, number>();

function run(dir: string, at: number, killAt = '') {
  return runStepsChild(CHILD, [site.origin, dir, String(at), killAt]);
}

/** The published files by name (temp folders left out). */
function contents(dir: string): Map<string, Buffer> {
  const m = new Map<string, Buffer>();
  for (const name of readdirSync(join(dir, 'out'))) {
    if (name.startsWith(TMP)) continue;
    m.set(name, readFileSync(join(dir, 'out', name)));
  }
  return m;
}

let work: string;
let before: string;
let refOld: Map<string, Buffer>;
let refNew: Map<string, Buffer>;
let steps: string[];

beforeAll(async () => {
  assertXmllint();
  const routes: Record<string, Route> = {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' },
  };
  routes['/'] = html('Home', Array.from({ length: N }, (_, i) => `<a href="/p${i}">${i}</a>`).join(''));
  for (let i = 0; i < N; i++) {
    routes[`/p${i}`] = answer(() => {
      const st = status.get(i);
      if (st !== undefined) return { status: st, body: 'gone' };
      return html(`Page ${i}`, `<p>Page ${i}: ${text.get(i) ?? 'first'}</p>`);
    });
  }
  site = await startServer(routes);
  work = tempDir('sk-crawl-store-crash');
  before = join(work, 'before');
  const first = await run(before, T1);
  expect(first.code, first.stderr).toBe(0);
  refOld = contents(before);
  // The site changes: one page's text, one new page gone, one new page found.
  text.set(7, 'second');
  status.set(12, 410);
  const after = join(work, 'after');
  cpSync(before, after, { recursive: true });
  const second = await run(after, T2);
  expect(second.code, second.stderr).toBe(0);
  refNew = contents(after);
  steps = second.steps;
}, 120_000);

afterAll(async () => {
  await site?.close();
});

describe('crawl --store killed at every step', () => {
  it('the recrawl goes through every step of a store build, and changes three of the files', () => {
    expect(steps).toContain('import:applied');
    expect(steps).toContain('commit:journal-written');
    expect(steps).toContain('build:published');
    expect(steps.at(-1)).toBe('crawl:store-committed');
    const changed = [...refNew.keys()].filter((n) => !refOld.get(n)?.equals(refNew.get(n)!));
    expect(changed.length).toBeGreaterThanOrEqual(2);
  });

  it('at each step: whole files of the old set or the new one, and the rerun lands exactly on the new one', async () => {
    expect(steps.length).toBeGreaterThan(8);
    for (const step of steps) {
      const dir = join(work, step.replace(/\W+/g, '_'));
      cpSync(before, dir, { recursive: true });
      const r = await run(dir, T2, step);
      expect(r.signal, `${step}: ${r.stderr}`).toBe('SIGKILL');
      expect(r.steps.at(-1)).toBe(step);
      const entry = join(dir, 'out', 'sitemap.xml');
      const lint = xmllint(entry);
      expect(lint.ok, `${step}: ${lint.output}`).toBe(true);
      for (const [name, data] of contents(dir)) {
        const whole = [refOld.get(name), refNew.get(name)].some((b) => b?.equals(data) === true);
        expect(whole, `killed at ${step}: ${name} is neither the old set's nor the new one's`).toBe(true);
      }
      const again = await run(dir, T2);
      expect(again.code, `${step}: ${again.stderr}`).toBe(0);
      const now = contents(dir);
      expect([...now.keys()].sort(), step).toEqual([...refNew.keys()].sort());
      for (const [name, data] of now) expect(data.equals(refNew.get(name)!), `${step}: ${name}`).toBe(true);
    }
  }, 300_000);
});
