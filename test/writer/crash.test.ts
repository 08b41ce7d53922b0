import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runStepsChild, type StepsOutcome } from '../support/steps-child.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, xmllint } from '../support/xmllint.js';

// Every step of the folder sink's commit is hit on purpose: a child process runs the writer and
// kills itself with SIGKILL at one named step (see fixtures/commit-child.mjs). Then the published
// folder is checked, and a rerun must land exactly on a complete build. No timing is involved, so
// the verdict is the same on a loaded machine.
const CHILD = fileURLToPath(new URL('./fixtures/commit-child.mjs', import.meta.url));
const BASE = 'https://example.com/';
const PER_FILE = 40;
// X: 75 children, 30 HTML pages; Y: 60 children, 24 HTML pages (Y's names are a subset of X's).
const X = { tag: 'x', count: 3000 };
const Y = { tag: 'y', count: 2400 };
const TMP = '.sitemapkit-tmp-';
const MANIFEST = '.sitemapkit-manifest.json';

function run(
  out: string,
  build: { tag: string; count: number },
  killAt = '',
  bad = false,
): Promise<StepsOutcome> {
  const robots = join(out, 'robots.txt');
  const args = [out, robots, build.tag, String(build.count), String(PER_FILE), killAt];
  if (bad) args.push('bad');
  // A fixed clock: a complete build is then byte-identical to its reference, indexes included.
  return runStepsChild(CHILD, args, { SOURCE_DATE_EPOCH: '1700000000' });
}

/** Every file of a folder but temp folders and robots.txt, by name. */
function contents(dir: string): Map<string, Buffer> {
  const m = new Map<string, Buffer>();
  for (const name of readdirSync(dir)) {
    if (name.startsWith(TMP) || name === 'robots.txt') continue;
    m.set(name, readFileSync(join(dir, name)));
  }
  return m;
}

function locs(text: string): string[] {
  return [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
}

let refX: Map<string, Buffer>;
let refY: Map<string, Buffer>;
let work: string;
let stateX: string;
let stateY: string;

beforeAll(async () => {
  assertXmllint();
  work = tempDir('sk-crash');
  stateX = join(work, 'state-x');
  stateY = join(work, 'state-y');
  expect((await run(stateX, X)).code).toBe(0);
  expect((await run(stateY, Y)).code).toBe(0);
  refX = contents(stateX);
  refY = contents(stateY);
  expect([...refX.keys()].filter((n) => n.endsWith('.xml.gz'))).toHaveLength(76);
  expect([...refY.keys()].filter((n) => n.endsWith('.xml.gz'))).toHaveLength(61);
}, 60_000);

/**
 * What a reader may see at any moment: an entry point that validates, every file it references
 * present, and every sitemapkit file in the folder a whole file of build X or of build Y.
 */
function expectWholeSets(out: string, label: string): void {
  const entry = join(out, 'sitemap.xml.gz');
  expect(existsSync(entry), label).toBe(true);
  const lint = xmllint(entry);
  expect(lint.ok, `${label}: ${lint.output}`).toBe(true);
  const index = readSitemapText(entry);
  for (const url of locs(index)) {
    const name = url.slice(BASE.length);
    expect(existsSync(join(out, name)), `${label}: ${name} is referenced but missing`).toBe(true);
  }
  for (const [name, data] of contents(out)) {
    const candidates = [refX.get(name), refY.get(name)].filter((b) => b !== undefined);
    expect(candidates.length, `${label}: ${name} belongs to neither build`).toBeGreaterThan(0);
    expect(
      candidates.some((b) => b.equals(data)),
      `${label}: ${name} is neither build X's nor build Y's (half-written?)`,
    ).toBe(true);
  }
}

/** The folder holds exactly the reference build: no file of another build, no temp folder. */
function expectExactly(out: string, ref: Map<string, Buffer>, label: string): void {
  expect(readdirSync(out).sort(), label).toEqual([...ref.keys(), 'robots.txt'].sort());
  for (const [name, data] of contents(out))
    expect(data.equals(ref.get(name)!), `${label}: ${name}`).toBe(true);
  expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toBe(`Sitemap: ${BASE}sitemap.xml.gz\n`);
}

async function crashThenRerun(
  from: string,
  killed: { tag: string; count: number },
  step: string,
  rerun: { tag: string; count: number },
  ref: Map<string, Buffer>,
): Promise<void> {
  const out = join(work, `${killed.tag}-${step.replace(/\W+/g, '_')}`);
  cpSync(from, out, { recursive: true });
  const r = await run(out, killed, step);
  expect(r.signal, `${step}: the child was to kill itself there (stderr: ${r.stderr})`).toBe('SIGKILL');
  expect(r.steps.at(-1)).toBe(step);
  expectWholeSets(out, `killed at ${step}`);
  const again = await run(out, rerun);
  expect(again.code, again.stderr).toBe(0);
  expectExactly(out, ref, `after the rerun that follows a kill at ${step}`);
  rmSync(out, { recursive: true, force: true });
}

describe('crash safety: a kill -9 at each step of the commit', () => {
  // From X to the smaller Y: Y's commit removes X's extra children and pages.
  const shrinking = [
    'files-written',
    'journal-written',
    'moved:sitemap.xsl',
    'moved:sitemap-00001.html',
    'moved:sitemap.html',
    'moved:sitemap-00001.xml.gz',
    'moved:sitemap-00030.xml.gz',
    'moved:sitemap-00060.xml.gz',
    'moved:sitemap.xml.gz',
    `moved:${MANIFEST}`,
    'swept:sitemap-00061.xml.gz',
    'swept:sitemap-00075.xml.gz',
    'swept:sitemap-00030.html',
    'robots-updated',
    'cleaned',
  ];
  it.each(shrinking)(
    'X → Y killed at %s: whole files only, and the rerun of Y leaves nothing of X',
    async (step) => {
      await crashThenRerun(stateX, Y, step, Y, refY);
    },
    60_000,
  );

  // From Y to the larger X, killed, then Y again: X's new names (61 to 75) were published under
  // Y's manifest, which does not list them; the journal the dead run left says they are its own.
  const growing = [
    'moved:sitemap-00025.html',
    'moved:sitemap-00061.xml.gz',
    'moved:sitemap-00075.xml.gz',
    'moved:sitemap.xml.gz',
    `moved:${MANIFEST}`,
    'cleaned',
  ];
  it.each(growing)(
    'Y → X killed at %s: the rerun of Y removes what X published',
    async (step) => {
      await crashThenRerun(stateY, X, step, Y, refY);
    },
    60_000,
  );

  it('the journal of a dead commit outlives a failed run, and the next good run acts on it', async () => {
    const out = join(work, 'failed-between');
    cpSync(stateY, out, { recursive: true });
    const killed = await run(out, X, 'moved:sitemap-00070.xml.gz');
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(join(out, 'sitemap-00070.xml.gz'))).toBe(true);
    const failed = await run(out, Y, '', true);
    expect(failed.code, failed.stderr).toBe(3);
    expect(failed.stderr).toContain('ERR_INVALID_ENTRY');
    expect(existsSync(join(out, 'sitemap-00070.xml.gz'))).toBe(true);
    expect((await run(out, Y)).code).toBe(0);
    expectExactly(out, refY, 'after the failed run and a good one');
  }, 60_000);

  it('never removes a file someone else wrote under a name a dead commit had used', async () => {
    const out = join(work, 'user-file');
    cpSync(stateY, out, { recursive: true });
    expect((await run(out, X, 'moved:sitemap-00070.xml.gz')).signal).toBe('SIGKILL');
    // Someone replaces one of the dead run's files with their own before the next run.
    writeFileSync(join(out, 'sitemap-00070.xml.gz'), 'mine');
    expect((await run(out, Y)).code).toBe(0);
    expect(readFileSync(join(out, 'sitemap-00070.xml.gz'), 'utf8')).toBe('mine');
    expect(existsSync(join(out, 'sitemap-00069.xml.gz'))).toBe(false);
  }, 60_000);
});
