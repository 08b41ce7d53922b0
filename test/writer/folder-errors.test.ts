/**
 * The folder sink's failures, each a SitemapkitError that says what was and was not written
 * (issue 11, defects 1 and 7): robots.txt checked before anything is published, a failure after
 * the publication said as such (ERR_PARTIAL), folders made for a run that wrote nothing taken away,
 * and folder creation that ends on pseudo file systems.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSitemapkitError, type SitemapkitError } from '../../src/core/errors.js';
import { ensureDir } from '../../src/writer/atomic.js';
import { FolderSink } from '../../src/writer/folder-sink.js';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';
import { tempDir } from '../support/tmp.js';

const BASE = 'https://example.com/';
const entries = [{ loc: `${BASE}a` }, { loc: `${BASE}b` }];

async function failure(run: Promise<unknown>): Promise<SitemapkitError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isSitemapkitError(error)) throw new Error(`expected a SitemapkitError, got ${String(error)}`);
  return error;
}

describe('the folder sink says what was and was not written', () => {
  it('updateRobots naming a folder or a missing folder: ERR_OUTPUT before anything is published', async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    await writeSitemaps([{ loc: `${BASE}old` }], { outDir: out, baseUrl: BASE });
    const before = readFileSync(join(out, 'sitemap.xml'), 'utf8');
    for (const robots of [dir, join(dir, 'missing', 'robots.txt')]) {
      const e = await failure(writeSitemaps(entries, { outDir: out, baseUrl: BASE, updateRobots: robots }));
      expect(e.code).toBe('ERR_OUTPUT');
      expect(e.where).toBe(robots);
      expect(e.message).toMatch(/^cannot update robots\.txt: /);
      expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toBe(before);
    }
  });

  it('robots.txt failing after the sitemaps were published: ERR_PARTIAL, the lines to add by hand', async () => {
    const dir = tempDir();
    const out = join(dir, 'out');
    const site = join(dir, 'site');
    mkdirSync(site);
    const robots = join(site, 'robots.txt');
    writeFileSync(robots, 'User-agent: *\n');
    // After the last file is in place, robots.txt's folder turns into a file: the update must fail.
    const sink = new FolderSink(out, {
      onCommitStep(step) {
        if (step === 'moved:.sitemapkit-manifest.json') {
          rmSync(site, { recursive: true });
          writeFileSync(site, 'not a folder');
        }
      },
    });
    const e = await failure(writeSitemaps(entries, { output: sink, baseUrl: BASE, updateRobots: robots }));
    expect(e.code).toBe('ERR_PARTIAL');
    expect(e.where).toBe(robots);
    expect(e.message).toContain(`the sitemaps are published in ${out}, but robots.txt was not updated`);
    expect(e.hint).toContain(`Sitemap: ${BASE}sitemap.xml`);
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain(`${BASE}a`);
  });

  it('a run that writes nothing leaves no output folder behind (nor the folders above it it made)', async () => {
    const dir = tempDir();
    const out = join(dir, 'new', 'deeper', 'out');
    const none = await failure(writeSitemaps([], { outDir: out, baseUrl: BASE }));
    expect(none.code).toBe('ERR_NO_URLS');
    const bad = await failure(writeSitemaps([{ loc: 'relative' }], { outDir: out, baseUrl: BASE }));
    expect(bad.code).toBe('ERR_INVALID_ENTRY');
    expect(existsSync(join(dir, 'new'))).toBe(false);
    // A folder that was there before stays.
    mkdirSync(out, { recursive: true });
    await failure(writeSitemaps([], { outDir: out, baseUrl: BASE }));
    expect(existsSync(out)).toBe(true);
  });

  it('an output folder through a file, or where the file system takes no folders, fails at once', async () => {
    const dir = tempDir();
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    const e = await failure(writeSitemaps(entries, { outDir: join(file, 'out'), baseUrl: BASE }));
    expect(e.code).toBe('ERR_OUTPUT');
    expect(e.message).toMatch(/^cannot create the output folder: /);
    const onFile = await failure(ensureDir(file));
    expect(onFile.message).toMatch(/it is a file, not a folder/);
    if (process.platform === 'linux') {
      // Node's mkdir({recursive: true}) never returns here.
      const proc = await failure(ensureDir('/proc/self/sitemapkit/out'));
      expect(proc.code).toBe('ERR_OUTPUT');
      expect(proc.message).toMatch(/does not take new folders/);
    }
  });

  it('ensureDir makes every missing folder and returns them, top first', async () => {
    const dir = tempDir();
    const made = await ensureDir(join(dir, 'a', 'b', 'c'));
    expect(made).toEqual([join(dir, 'a'), join(dir, 'a', 'b'), join(dir, 'a', 'b', 'c')]);
    expect(await ensureDir(join(dir, 'a', 'b'))).toEqual([]);
  });
});
