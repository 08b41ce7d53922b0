import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/store.js';
import { tempDir } from '../support/tmp.js';
import { assertXmllint, xmllint } from '../support/xmllint.js';
import { BASE, clock, indexChildren, publishedUrls, snapshot } from './helpers.js';
import type { StoreTarget } from './targets.js';

// Random sequences of add, remove, change and full-set syncs, each followed by a build, on small
// files (3–7 URLs) so that shards fill, empty, merge and split all the time.
type Op =
  | { kind: 'add'; ids: number[] }
  | { kind: 'remove'; ids: number[] }
  | { kind: 'change'; ids: number[]; priority: number }
  | { kind: 'sync'; keep: number; extra: number[] };

const idsArb = fc.uniqueArray(fc.integer({ min: 0, max: 80 }), { minLength: 1, maxLength: 24 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), ids: idsArb }),
  fc.record({ kind: fc.constant('remove' as const), ids: idsArb }),
  fc.record({ kind: fc.constant('change' as const), ids: idsArb, priority: fc.integer({ min: 0, max: 10 }) }),
  fc.record({ kind: fc.constant('sync' as const), keep: fc.integer({ min: 1, max: 4 }), extra: idsArb }),
);
// With some ops, someone also edits a published child in place (same size): the build must not
// trust it, neither to keep it nor to splice from it.
// And with some, the build is first run once into the output folder and killed after the folder
// commit, before the store's (the crash window, hit on purpose): the folder holds files the store
// never recorded, which the next build must not trust either.
const stepArb = fc.tuple(opArb, fc.option(fc.nat(), { freq: 3, nil: undefined }), fc.boolean());

/** A build that publishes its files and then fails, so the store stays as it was (`probe`). */
class Probe extends Error {}

/** A build failed by the probe after its files were published: the store says so, the probe is the cause. */
async function probed(build: Promise<unknown>): Promise<void> {
  const e = await build.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect((e as { cause?: unknown } | undefined)?.cause).toBeInstanceOf(Probe);
  expect((e as Error).message).toMatch(/ were published, but the site store could not record it: /);
}

const loc = (id: number): string => `${BASE}page/${id}${id % 7 === 0 ? `?long=${'x'.repeat(id)}` : ''}`;
const sectionOf = (id: number): string | undefined => (id % 3 === 0 ? 'blog' : undefined);
const entry = (id: number, priority?: number) => {
  const s = sectionOf(id);
  return {
    loc: loc(id),
    ...(s !== undefined && { section: s }),
    ...(priority !== undefined && { priority: priority / 10 }),
  };
};

/** The property, run over each backend (property.test.ts, property-pg.test.ts). */
export function propertySuite(target: StoreTarget): void {
  beforeAll(() => assertXmllint());

  describe('property: the store and its published set', () => {
    it('output equals the live set; valid files; children byte-identical to a build into an empty folder (spliced or not); a child edited on disk is not trusted; unchanged children byte-identical; lastmods move only for rewritten children; file count within twice the minimum', async () => {
      let round = 0;
      let builds = 0;
      let spliced = 0;
      let tampered = 0;
      let crashed = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 3, max: 7 }),
          fc.array(stepArb, { minLength: 1, maxLength: 9 }),
          async (perFile, ops) => {
            const dir = tempDir('sk-store-prop');
            const out = join(dir, 'out');
            const scratch = join(dir, 'scratch');
            const c = clock();
            let probe = false;
            const s = await openStore(target.fresh(dir), {
              baseUrl: BASE,
              maxUrlsPerFile: perFile,
              now: c.now,
              onStep: (step) => {
                if (step.startsWith('build:spliced:')) spliced++;
                if (probe && step === 'build:published') throw new Probe();
              },
            });
            // Files before any edit on disk: what a kept child must still hold.
            let pristine = new Map<string, Buffer>();
            // The model: live ids and their priority.
            const live = new Map<number, number | undefined>();
            try {
              for (const [op, tamper, crash] of ops) {
                c.tick();
                pristine = snapshot(out);
                if (tamper !== undefined) {
                  const children = indexChildren(out);
                  const names = children.size > 0 ? [...children.keys()] : ['sitemap.xml'];
                  const name = names[tamper % names.length]!;
                  const text = pristine.get(name)?.toString('utf8');
                  if (text?.includes('example.com/page/') === true) {
                    writeFileSync(join(out, name), text.replace('example.com/page/', 'example.com/pAge/'));
                    tampered++;
                  }
                }
                if (op.kind === 'add') {
                  await s.add(op.ids.filter((i) => !live.has(i)).map((i) => entry(i)));
                  for (const i of op.ids) if (!live.has(i)) live.set(i, undefined);
                } else if (op.kind === 'remove') {
                  await s.remove(op.ids.map(loc));
                  for (const i of op.ids) live.delete(i);
                } else if (op.kind === 'change') {
                  const present = op.ids.filter((i) => live.has(i));
                  await s.add(present.map((i) => entry(i, op.priority)));
                  for (const i of present) live.set(i, op.priority);
                } else {
                  const kept = [...live].filter(([i]) => i % op.keep === 0);
                  const next = new Map<number, number | undefined>(kept);
                  for (const i of op.extra) if (!next.has(i)) next.set(i, undefined);
                  await s.sync([...next].map(([i, p]) => entry(i, p)));
                  live.clear();
                  for (const [i, p] of next) live.set(i, p);
                }
                if (live.size === 0) continue;
                const before = pristine;
                const lastmodsBefore = indexChildren(out);
                if (crash) {
                  probe = true;
                  await probed(s.build({ outDir: out, force: true }));
                  probe = false;
                  crashed++;
                }
                const r = await s.build({ outDir: out, force: true });
                builds++;
                const after = snapshot(out);
                // The URLs in the output are the store's live set (and the model's).
                const listed: string[] = [];
                for await (const u of s.list()) listed.push(u.loc);
                const model = [...live.keys()].map(loc).sort();
                expect(listed.sort()).toEqual(model);
                expect(publishedUrls(out).sort()).toEqual(model);
                // Kept children are byte-identical; lastmods move only for rewritten ones.
                const lastmodsAfter = indexChildren(out);
                for (const f of r.files) {
                  if (f.kind === 'index') continue;
                  if (f.change === 'kept') {
                    expect(after.get(f.path)!.equals(before.get(f.path)!), f.path).toBe(true);
                    if (lastmodsBefore.has(f.path) && lastmodsAfter.has(f.path))
                      expect(lastmodsAfter.get(f.path), f.path).toBe(lastmodsBefore.get(f.path));
                  } else if (lastmodsBefore.has(f.path) && lastmodsAfter.has(f.path)) {
                    expect(lastmodsAfter.get(f.path), f.path).not.toBe(lastmodsBefore.get(f.path));
                  }
                }
                // Within twice the minimum, per section.
                const st = await s.stats();
                for (const sec of st.sections) {
                  if (sec.urls === 0) continue;
                  expect(sec.files, `section "${sec.section}"`).toBeLessThanOrEqual(
                    2 * Math.ceil(sec.urls / perFile),
                  );
                }
                for (const f of st.files) expect(f.urls).toBeLessThanOrEqual(perFile);
                // Every child as a build into an empty folder writes it (in full), published there
                // by a build that then fails, so the store stays as it was.
                rmSync(scratch, { recursive: true, force: true });
                probe = true;
                await probed(s.build({ outDir: scratch, force: true }));
                probe = false;
                const fresh = snapshot(scratch);
                for (const f of r.files) {
                  if (f.kind === 'index') continue;
                  expect(fresh.get(f.path)?.equals(after.get(f.path)!), f.path).toBe(true);
                }
                // Valid against the XSDs: a sample (every fifth build checks every file).
                if (round++ % 5 === 0) {
                  for (const name of after.keys())
                    if (name.endsWith('.xml')) {
                      const lint = xmllint(join(out, name));
                      expect(
                        lint.ok,
                        `${name}: ${lint.output}\n${readFileSync(join(out, name), 'utf8')}`,
                      ).toBe(true);
                    }
                }
              }
            } finally {
              await s.close();
            }
          },
        ),
        { numRuns: 60, seed: 1212 },
      );
      // The property ran for real: many builds, not a string of empty sets; many spliced files,
      // and edits on disk.
      expect(builds).toBeGreaterThan(150);
      expect(spliced).toBeGreaterThan(100);
      expect(tampered).toBeGreaterThan(20);
      expect(crashed).toBeGreaterThan(50);
    }, 240_000);
  });
}
