import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runStepsChild } from '../support/steps-child.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, xmllint } from '../support/xmllint.js';

// The crash guarantees with lastmodPolicy 'drop' (children read back and written again in the temp
// folder) and the delta feed (a supporting file of the commit): a child process kills itself with
// SIGKILL at named steps of the commit (fixtures/extras-child.mjs); whatever a reader then sees is
// whole files of the old build or the new one, and a rerun lands exactly on the new build.
const CHILD = fileURLToPath(new URL('./fixtures/extras-child.mjs', import.meta.url));
const BASE = 'https://example.com/';
const PER_FILE = 40;
const X = { tag: 'x', count: 400 }; // 10 children
const Y = { tag: 'y', count: 300 }; // 8 children
const TMP = '.sitemapkit-tmp-';

function run(out: string, build: { tag: string; count: number }, killAt = '') {
  const args = [out, join(out, 'robots.txt'), build.tag, String(build.count), String(PER_FILE), killAt];
  return runStepsChild(CHILD, args, { SOURCE_DATE_EPOCH: '1700000000' });
}

function contents(dir: string): Map<string, Buffer> {
  const m = new Map<string, Buffer>();
  for (const name of readdirSync(dir)) {
    if (name.startsWith(TMP) || name === 'robots.txt') continue;
    m.set(name, readFileSync(join(dir, name)));
  }
  return m;
}

let work: string;
let stateX: string;
let refX: Map<string, Buffer>;
let refY: Map<string, Buffer>;

beforeAll(async () => {
  assertXmllint();
  work = tempDir('sk-crash-extras');
  stateX = join(work, 'state-x');
  const stateY = join(work, 'state-y');
  expect((await run(stateX, X)).code).toBe(0);
  expect((await run(stateY, Y)).code).toBe(0);
  refX = contents(stateX);
  refY = contents(stateY);
  // The references are what drop and the feed make: no lastmod in any child, a feed of 20.
  for (const [name] of refY)
    if (name.endsWith('.xml.gz') && name !== 'sitemap.xml.gz')
      expect(readSitemapText(join(stateY, name))).not.toContain('<lastmod>');
  expect(readFileSync(join(stateY, 'feed.xml'), 'utf8').match(/<entry>/g)).toHaveLength(20);
}, 60_000);

describe('crash safety with lastmod dropped and a delta feed', () => {
  const steps = [
    'files-written',
    'journal-written',
    'moved:feed.xml',
    'moved:sitemap-00001.xml.gz',
    'moved:sitemap-00008.xml.gz',
    'moved:sitemap.xml.gz',
    'moved:.sitemapkit-manifest.json',
    'swept:sitemap-00009.xml.gz',
    'robots-updated',
    'cleaned',
  ];
  it.each(steps)(
    'X → Y killed at %s: whole files of X or Y only, and the rerun lands exactly on Y',
    async (step) => {
      const out = join(work, step.replace(/\W+/g, '_'));
      cpSync(stateX, out, { recursive: true });
      const r = await run(out, Y, step);
      expect(r.signal, `${step}: ${r.stderr}`).toBe('SIGKILL');
      expect(r.steps.at(-1)).toBe(step);
      const entry = join(out, 'sitemap.xml.gz');
      const lint = xmllint(entry);
      expect(lint.ok, lint.output).toBe(true);
      for (const url of readSitemapText(entry).matchAll(/<loc>([^<]*)<\/loc>/g))
        expect(existsSync(join(out, url[1]!.slice(BASE.length)))).toBe(true);
      for (const [name, data] of contents(out)) {
        const whole = [refX.get(name), refY.get(name)].some((b) => b?.equals(data) === true);
        expect(whole, `killed at ${step}: ${name} is neither X's nor Y's`).toBe(true);
      }
      const again = await run(out, Y);
      expect(again.code, again.stderr).toBe(0);
      expect(readdirSync(out).sort()).toEqual([...refY.keys(), 'robots.txt'].sort());
      for (const [name, data] of contents(out)) expect(data.equals(refY.get(name)!), name).toBe(true);
      expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toBe(
        `Sitemap: ${BASE}sitemap.xml.gz\nSitemap: ${BASE}feed.xml\n`,
      );
      rmSync(out, { recursive: true, force: true });
    },
    60_000,
  );
});
