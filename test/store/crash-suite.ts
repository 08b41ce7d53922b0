import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runStepsChild, type StepsOutcome } from '../support/steps-child.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, readSitemapText, xmllint } from '../support/xmllint.js';
import { BASE, locsOf, snapshot } from './helpers.js';
import type { StoreTarget } from './targets.js';

// kill -9 at every step of an import and of a build (the store's own steps and the folder
// commit's), hit on purpose by a child process that kills itself there; then the store and the
// published folder must each be the old or the new state, and a rerun must land exactly on the
// new one. A fixed clock (SOURCE_DATE_EPOCH) makes the new state byte-for-byte reproducible.
const CHILD = fileURLToPath(new URL('./fixtures/store-child.mjs', import.meta.url));

/** How a backend takes part: where a folder's store is, whether it copies as files, how a kill settles. */
export interface CrashTarget {
  target: StoreTarget;
  /** The store of a test folder (a file in it, or a schema named after it). */
  storeOf(dir: string): string;
  /** Whether a store is copied with its folder (else made again). */
  copies: boolean;
  /** Until the store can be opened after a kill -9. */
  settle(): Promise<void>;
}

/** kill -9 at each step, over a backend (crash.test.ts, crash-pg.test.ts). */
export function crashSuite(crash: CrashTarget): void {
  function child(dir: string, op: string, killAt = '', then = ''): Promise<StepsOutcome> {
    return runStepsChild(CHILD, [crash.storeOf(dir), join(dir, 'out'), op, killAt, then], {
      SOURCE_DATE_EPOCH: '1780000000',
    }).then(async (r) => {
      // A killed client's session ends on the server a moment later (the lock goes with it).
      if (r.signal === 'SIGKILL') await crash.settle();
      return r;
    });
  }

  async function dump(dir: string): Promise<string> {
    const r = await child(dir, 'dump');
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  }

  let work: string;
  let base: string;
  let refOld: { files: Map<string, Buffer>; store: string };
  let refNew: { files: Map<string, Buffer>; store: string };
  let refAdd: string;
  let buildSteps: string[];
  let addSteps: string[];
  let firstSteps: string[];
  let emptyStore: string;

  let copies = 0;
  async function copyOf(name: string): Promise<string> {
    // Numbered: a schema named after the folder must be new even when a name comes again.
    const dir = join(work, `${name.replace(/\W+/g, '_')}_${++copies}`);
    if (crash.copies) {
      cpSync(base, dir, { recursive: true });
      return dir;
    }
    // A store that cannot be copied as a file is made again: the first set, reproducibly.
    mkdirSync(dir);
    const r = await child(dir, 'a');
    expect(r.code, r.stderr).toBe(0);
    return dir;
  }

  beforeAll(async () => {
    assertXmllint();
    work = tempDir('sk-store-crash');
    base = join(work, 'base');
    mkdirSync(base);
    const first = await child(base, 'a');
    expect(first.code, first.stderr).toBe(0);
    firstSteps = first.stdout.split('\n').filter(Boolean);
    refOld = { files: snapshot(join(base, 'out')), store: await dump(base) };
    const empty = join(work, 'empty');
    mkdirSync(empty);
    emptyStore = await dump(empty);
    const whole = await copyOf('whole');
    const b = await child(whole, 'b');
    expect(b.code, b.stderr).toBe(0);
    buildSteps = b.stdout.split('\n').filter(Boolean);
    refNew = { files: snapshot(join(whole, 'out')), store: await dump(whole) };
    const added = await copyOf('added');
    const a = await child(added, 'add');
    addSteps = a.stdout.split('\n').filter(Boolean);
    refAdd = await dump(added);
    expect(refNew.store).not.toBe(refOld.store);
    // The feed is part of the commit: it differs between the two builds, so a mix would show.
    expect(refNew.files.get('feed.xml')?.equals(refOld.files.get('feed.xml')!)).toBe(false);
    expect(buildSteps).toContain('build:feed-written');
  }, 120_000);

  /** Whatever a reader sees: a valid entry point whose files are all there, each file old or new. */
  function expectWholeFolder(out: string, label: string): 'old' | 'new' | 'mixed-in-commit' {
    const entry = join(out, 'sitemap.xml.gz');
    expect(existsSync(entry), label).toBe(true);
    expect(xmllint(entry).ok, label).toBe(true);
    for (const url of locsOf(readSitemapText(entry)))
      expect(
        existsSync(join(out, url.slice(BASE.length))),
        `${label}: ${url} is referenced but missing`,
      ).toBe(true);
    const now = snapshot(out);
    for (const [name, data] of now) {
      if (name === '.sitemapkit-manifest.json') continue;
      const ok = [refOld.files.get(name), refNew.files.get(name)].some((b) => b?.equals(data));
      expect(ok, `${label}: ${name} is neither the old nor the new build's`).toBe(true);
    }
    const same = (ref: Map<string, Buffer>) =>
      [...ref].every(([n, b]) => now.get(n)?.equals(b)) && [...now.keys()].every((n) => ref.has(n));
    return same(refOld.files) ? 'old' : same(refNew.files) ? 'new' : 'mixed-in-commit';
  }

  describe(`crash safety of the store (${crash.target.name}): kill -9 at each step`, () => {
    it('finds the steps of an import and of a build', () => {
      expect(addSteps).toEqual(['import:batch', 'import:applied']);
      for (const s of [
        'import:batch',
        'import:applied',
        'build:children-written',
        'build:changes-written',
        'commit:journal-written',
        'build:published',
      ])
        expect(buildSteps, s).toContain(s);
      expect(buildSteps.some((s) => s.startsWith('build:kept:'))).toBe(true);
      expect(buildSteps.some((s) => s.startsWith('commit:moved:'))).toBe(true);
      expect(buildSteps.some((s) => s.startsWith('commit:swept:'))).toBe(true);
    });

    it('an import killed at any step leaves the store old; run again, it is new', async () => {
      for (const step of addSteps) {
        const dir = await copyOf(`add-${step}`);
        const r = await child(dir, 'add', step);
        expect(r.signal, step).toBe('SIGKILL');
        expect(await dump(dir), step).toBe(refOld.store);
        expect((await child(dir, 'add')).code).toBe(0);
        expect(await dump(dir), step).toBe(refAdd);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);

    it('a sync-and-build killed at any step: the store is old or new, the folder whole; a rerun lands exactly on the new state', async () => {
      for (const step of buildSteps) {
        const dir = await copyOf(`build-${step}`);
        const r = await child(dir, 'b', step);
        expect(r.signal, `${step}: ${r.stderr}`).toBe('SIGKILL');
        const store = await dump(dir);
        expect([refOld.store, refNew.store], step).toContain(store);
        const folder = expectWholeFolder(join(dir, 'out'), `killed at ${step}`);
        // The store records the build only after the folder commit.
        if (store === refNew.store) expect(folder, step).toBe('new');
        // The rerun prints the store's state once it is done.
        const again = await child(dir, 'b', '', 'dump');
        expect(again.code, `${step}: ${again.stderr}`).toBe(0);
        expect(again.stdout.slice(again.stdout.indexOf('https://')), step).toBe(refNew.store);
        const files = snapshot(join(dir, 'out'));
        expect([...files.keys()].sort(), step).toEqual([...refNew.files.keys()].sort());
        for (const [name, data] of files)
          if (name !== '.sitemapkit-manifest.json')
            expect(data.equals(refNew.files.get(name)!), `${step}: ${name}`).toBe(true);
        expect(
          readdirSync(join(dir, 'out')).some((n) => n.startsWith('.sitemapkit-tmp-')),
          step,
        ).toBe(false);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 300_000);

    it('a first sync-and-build into a new store killed at any step: the store empty or whole, the folder empty or whole; a rerun lands on the first set', async () => {
      // A new SQLite store fills under a rollback journal, its files from the import's spool.
      expect(firstSteps).toContain('build:children-written');
      // Its connection in a worker thread: killed with rows sent and not inserted, while the
      // worker inserts, builds the indexes, and at its commit (src/store/sqlite-thread.ts).
      if (crash.target.name === 'SQLite')
        for (const s of [
          'worker:posted',
          'worker:inserted',
          'worker:indexing',
          'worker:indexed',
          'worker:committing',
        ])
          expect(firstSteps, s).toContain(s);
      for (const step of firstSteps) {
        const dir = join(work, `first_${step.replace(/\W+/g, '_')}_${++copies}`);
        mkdirSync(dir);
        const r = await child(dir, 'a', step);
        expect(r.signal, `${step}: ${r.stderr}`).toBe('SIGKILL');
        const store = await dump(dir);
        expect([emptyStore, refOld.store], step).toContain(store);
        const out = join(dir, 'out');
        if (existsSync(join(out, 'sitemap.xml.gz'))) {
          // Every file it references is there, and each is the first set's.
          const entry = join(out, 'sitemap.xml.gz');
          expect(xmllint(entry).ok, step).toBe(true);
          for (const url of locsOf(readSitemapText(entry)))
            expect(existsSync(join(out, url.slice(BASE.length))), `${step}: ${url}`).toBe(true);
          for (const [name, data] of snapshot(out))
            if (name !== '.sitemapkit-manifest.json')
              expect(refOld.files.get(name)?.equals(data), `${step}: ${name}`).toBe(true);
        } else expect(store, `${step}: the store records a build that is not published`).toBe(emptyStore);
        const again = await child(dir, 'a', '', 'dump');
        expect(again.code, `${step}: ${again.stderr}`).toBe(0);
        expect(again.stdout.slice(again.stdout.indexOf('https://')), step).toBe(refOld.store);
        const files = snapshot(out);
        expect([...files.keys()].sort(), step).toEqual([...refOld.files.keys()].sort());
        for (const [name, data] of files)
          if (name !== '.sitemapkit-manifest.json')
            expect(data.equals(refOld.files.get(name)!), `${step}: ${name}`).toBe(true);
        // The killed run's spool went with the rerun's.
        expect(
          readdirSync(dir).filter((n) => n.includes('.spool-')),
          step,
        ).toEqual([]);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 300_000);

    it('seeded random kills (the same steps on every run) converge too', async () => {
      // A small linear congruential generator: the verdict never depends on the machine.
      let x = 1212;
      const next = (): number => {
        x = (x * 1103515245 + 12345) % 2 ** 31;
        return x;
      };
      for (let k = 0; k < 4; k++) {
        const n = 1 + (next() % buildSteps.length);
        const dir = await copyOf(`random-${n}`);
        const r = await child(dir, 'b', `#${n}`);
        expect(r.signal).toBe('SIGKILL');
        expect([refOld.store, refNew.store]).toContain(await dump(dir));
        expectWholeFolder(join(dir, 'out'), `random kill at step ${n}`);
        expect((await child(dir, 'b')).code).toBe(0);
        expect(await dump(dir)).toBe(refNew.store);
        rmSync(dir, { recursive: true, force: true });
      }
    }, 120_000);
  });
}
