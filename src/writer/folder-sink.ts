/**
 * The folder sink: a set written atomically into `OUT/`, loaded only when writing to a folder.
 *
 * Everything is written into `OUT/.sitemapkit-tmp-<pid>-<id>/` first. Then a journal (what is
 * about to be published, and which files of the previous set are to go) is made durable, and the
 * files are renamed into place: supporting files, children, extra indexes, the entry point, the
 * manifest. Each rename replaces a complete file by a complete file, so at any moment the entry
 * point and every file it references are whole, valid sitemaps of the previous build or this one.
 * Old files are removed last, and the journal only after that: a run killed at any step leaves
 * its journal behind, and the next run removes what the dead one would have (every file it names
 * whose bytes are still the ones recorded, so never a file someone else wrote since).
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, writeFile as writeFileCallback } from 'node:fs';
import { copyFile, link, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isSitemapkitError, SitemapkitError } from '../core/errors.js';
import { fsError, fsReason, isSystemError } from '../core/fs-errors.js';
import { ensureDir, removeCreated, syncDir, writeFileAtomic } from './atomic.js';
import { type CommitJournal, type JournalFile, readJournal, sameBytes } from './journal.js';
import { MANIFEST_NAME, type ManifestHeader, readManifestHeader } from './manifest.js';
import { checkRobotsFile, updateRobotsFile } from './robots-file.js';
import type { CommitPlan, Sink, SinkFile, SinkStart } from './sink.js';

const TMP_PREFIX = '.sitemapkit-tmp-';
const JOURNAL = '.commit.json';

// The callback form: about a quarter cheaper a file than fs/promises' FileHandle-based writeFile.
const putFile = promisify(writeFileCallback);

/**
 * The steps of a commit, in order, for fault injection: `files-written`, `journal-written`,
 * `moved:NAME` after each rename, `swept:NAME` after each removal, `robots-updated`, `cleaned`.
 */
export type CommitStepHook = (step: string) => void | Promise<void>;

export interface FolderSinkOptions {
  /** Called at each step of the commit (tests kill the process there on purpose). */
  onCommitStep?: CommitStepHook;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const WRITE_AHEAD = 1 << 20;

/** A file inside the temp folder. */
function folderFile(path: string, explain: (e: unknown) => unknown): SinkFile {
  // Up to WRITE_AHEAD bytes queued before the writer is asked to wait: with the stream's default
  // of 16 KiB every 256 KiB chunk waited for the disk, and serialising and writing took turns.
  const ws = createWriteStream(path, { flags: 'wx', flush: true, highWaterMark: WRITE_AHEAD });
  let error: unknown;
  ws.on('error', (e) => {
    error ??= explain(e);
  });
  const settled = (event: 'drain' | 'close'): Promise<void> =>
    new Promise((resolve, reject) => {
      const done = (): void => {
        ws.off(event, done);
        ws.off('close', done);
        if (error !== undefined) reject(error);
        else resolve();
      };
      ws.on(event, done);
      ws.on('close', done);
    });
  return {
    write(chunk, release) {
      if (error !== undefined) throw error;
      // The stream's callback runs once the chunk is in the file (or failed): it is free again.
      return ws.write(chunk, release === undefined ? undefined : () => release())
        ? undefined
        : settled('drain');
    },
    close() {
      const closed = settled('close');
      // `flush: true`: the data is fsync'ed before 'close'.
      ws.end();
      return closed;
    },
    abort() {
      ws.destroy();
    },
  };
}

export class FolderSink implements Sink {
  readonly renames = true;
  readonly outDir: string;
  readonly #hook: CommitStepHook | undefined;
  readonly #files = new Set<SinkFile>();
  #tmp = '';
  #journaled = false;
  #previous: ManifestHeader | undefined;
  /** Folders `start` created (the output folder and missing ones above it). */
  #created: string[] = [];
  /** Temp folders of dead runs that hold a journal, and what their journal says. */
  #inherited: Array<{ dir: string; journal: CommitJournal }> = [];

  constructor(outDir: string, options: FolderSinkOptions = {}) {
    this.outDir = outDir;
    this.#hook = options.onCommitStep;
  }

  async start(): Promise<SinkStart> {
    this.#created = await ensureDir(this.outDir);
    try {
      await this.#sweepTemp();
    } catch (cause) {
      throw this.#failed(cause, 'read the output folder', 'read');
    }
    try {
      this.#previous = await readManifestHeader(this.outDir);
    } catch (cause) {
      const where = join(this.outDir, MANIFEST_NAME);
      if (isSystemError(cause))
        throw fsError(cause, {
          path: where,
          doing: 'read the manifest of the previous set',
          code: 'ERR_OUTPUT',
        });
      throw new SitemapkitError(
        'ERR_OUTPUT',
        `${(cause as Error).message}; move it away or delete it to start afresh`,
        {
          cause,
          where,
        },
      );
    }
    this.#tmp = join(this.outDir, `${TMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await mkdir(this.#tmp);
    } catch (cause) {
      this.#tmp = '';
      await removeCreated(this.#created);
      throw this.#failed(cause, 'write into the output folder');
    }
    return {
      previous: this.#previous,
      staleRoots: [...new Set(this.#inherited.flatMap((i) => i.journal.robots))],
      inherited: [...new Set(this.#inherited.flatMap((i) => i.journal.publish.map((f) => f.path)))],
      folder: this.outDir,
    };
  }

  /** A file-system failure of this folder as an `ERR_OUTPUT` naming the folder. */
  #failed(cause: unknown, doing: string, mode: 'read' | 'write' = 'write'): unknown {
    return fsError(cause, { path: this.outDir, doing, mode, code: 'ERR_OUTPUT' });
  }

  create(name: string): SinkFile {
    const file = folderFile(join(this.#tmp, name), (e) =>
      this.#failed(e, `write ${name} into the output folder`),
    );
    this.#files.add(file);
    return file;
  }

  put(name: string, data: Uint8Array): Promise<void> {
    return putFile(join(this.#tmp, name), data).catch((e: unknown) => {
      throw this.#failed(e, `write ${name} into the output folder`);
    });
  }

  read(name: string): AsyncIterable<Uint8Array> {
    return createReadStream(join(this.#tmp, name), { highWaterMark: 256 * 1024 });
  }

  locate(name: string): string {
    return join(this.outDir, name);
  }

  /**
   * Takes a published file into this set as it is (the site store's unchanged children): a hard
   * link in the temp folder, so the commit publishes it like a written file without a byte being
   * copied (renaming a link onto its own file changes nothing). False when the file is missing.
   */
  async adopt(name: string): Promise<boolean> {
    const from = join(this.outDir, name);
    const to = join(this.#tmp, name);
    try {
      await link(from, to);
      return true;
    } catch (cause) {
      if (isSystemError(cause) && cause.code === 'ENOENT') return false;
      try {
        // A file system without hard links: a copy does the same, more slowly.
        await copyFile(from, to);
        return true;
      } catch (again) {
        if (isSystemError(again) && again.code === 'ENOENT') return false;
        throw this.#failed(again, `keep ${name} in the output folder`);
      }
    }
  }

  async abort(): Promise<void> {
    for (const f of this.#files) f.abort(undefined);
    // Cleaning up must never hide the failure that led here: the writer rethrows that one.
    try {
      if (this.#tmp === '') return;
      if (!this.#journaled) {
        await rm(this.#tmp, { recursive: true, force: true });
        // Nothing was published: the folders this run made go too, so a failed run leaves no trace.
        await removeCreated(this.#created);
        return;
      }
      // A commit failed half-way: like a killed run, the journal stays for the next run.
      for (const entry of await readdir(this.#tmp)) {
        if (entry !== JOURNAL) await rm(join(this.#tmp, entry), { recursive: true, force: true });
      }
    } catch {
      // What is left is swept by the next run (temp folders of dead runs are removed at start).
    }
  }

  async commit(plan: CommitPlan): Promise<void> {
    const step = async (name: string): Promise<void> => {
      if (this.#hook !== undefined) await this.#hook(name);
    };
    await step('files-written');
    // robots.txt is checked before anything is published, so that a wrong --update-robots (a
    // folder, a missing folder, no permission) fails while the previous set is still whole.
    if (plan.robots !== undefined) await checkRobotsFile(plan.robots.path);
    const keep = new Set(plan.files.map((f) => f.as));
    // Files of the previous manifest that this set no longer uses. Only plain names: a manifest
    // path that climbs out of the folder or hides in a dot file is never acted on.
    const remove: JournalFile[] = (this.#previous?.files ?? [])
      .filter((f) => !keep.has(f.path) && isPlainName(f.path))
      .map((f) => ({ path: f.path, sha256: f.sha256 }));
    const journal: CommitJournal = {
      publish: plan.files.filter((f) => f.sha256 !== '').map((f) => ({ path: f.as, sha256: f.sha256 })),
      remove,
      robots: plan.robots?.replace ?? [],
    };
    try {
      await writeFileAtomic(join(this.#tmp, JOURNAL), JSON.stringify(journal));
    } catch (cause) {
      throw this.#failed(cause, 'write into the output folder');
    }
    await syncDir(this.#tmp);
    this.#journaled = true;
    await step('journal-written');

    const moved: string[] = [];
    for (const f of plan.files) {
      try {
        await rename(join(this.#tmp, f.name), join(this.outDir, f.as));
      } catch (cause) {
        throw this.#partial(cause, `publish ${f.as}`, moved, plan);
      }
      moved.push(f.as);
      await step(`moved:${f.as}`);
    }
    await syncDir(this.outDir);

    const stuck: string[] = [];
    const sweep = async (name: string): Promise<void> => {
      try {
        await rm(join(this.outDir, name), { force: true });
        await step(`swept:${name}`);
      } catch (cause) {
        if (!isSystemError(cause)) throw cause;
        stuck.push(name);
      }
    };
    for (const f of remove) await sweep(f.path);
    // What runs killed earlier meant to publish or remove, and this set does not use: removed
    // when the bytes are still those the dead run recorded.
    const seen = new Set<string>(remove.map((f) => f.path));
    for (const { journal: j } of this.#inherited) {
      for (const f of [...j.publish, ...j.remove]) {
        if (keep.has(f.path) || seen.has(f.path) || !isPlainName(f.path)) continue;
        seen.add(f.path);
        if (await sameBytes(join(this.outDir, f.path), f.sha256)) await sweep(f.path);
      }
    }
    if (plan.robots !== undefined) {
      try {
        await updateRobotsFile(plan.robots.path, plan.robots.add, plan.robots.replace);
      } catch (cause) {
        throw this.#robotsFailed(cause, plan);
      }
      await step('robots-updated');
    }
    if (stuck.length > 0) {
      // The set is published; the old files stay, so the journal stays for the next run to retry.
      throw new SitemapkitError(
        'ERR_PARTIAL',
        `the new sitemaps are published, but ${stuck.length} file${stuck.length === 1 ? '' : 's'} of the previous set could not be removed (${stuck.slice(0, 3).join(', ')}${stuck.length > 3 ? ', …' : ''})`,
        { where: this.outDir, hint: 'check the permissions of those files; the next run removes them' },
      );
    }
    for (const { dir } of this.#inherited) await rm(dir, { recursive: true, force: true });
    await rm(join(this.#tmp, JOURNAL), { force: true });
    await step('cleaned');
    await rm(this.#tmp, { recursive: true, force: true });
  }

  /** A rename failed part-way: say what is published and what is not. */
  #partial(cause: unknown, doing: string, moved: readonly string[], plan: CommitPlan): unknown {
    if (!isSystemError(cause)) return cause;
    const left = plan.files.length - moved.length;
    return new SitemapkitError(
      moved.length === 0 ? 'ERR_OUTPUT' : 'ERR_PARTIAL',
      `cannot ${doing}: ${fsReason(cause)}; ${moved.length} of ${plan.files.length} files are in place, ${left} are not${plan.robots === undefined ? '' : ', and robots.txt was not updated'}`,
      {
        cause,
        where: this.outDir,
        hint: 'every file in the folder is whole; run the command again to publish the rest (the next run finishes or undoes this one)',
      },
    );
  }

  /** robots.txt failed after the sitemaps were published: they stay; robots.txt is as it was. */
  #robotsFailed(cause: unknown, plan: CommitPlan): unknown {
    const reason = isSystemError(cause)
      ? fsReason(cause)
      : isSitemapkitError(cause)
        ? cause.message.replace(/^cannot update robots\.txt: /, '')
        : undefined;
    if (reason === undefined || plan.robots === undefined) return cause;
    const lines = plan.robots.add.map((u) => `Sitemap: ${u}`).join(', ');
    return new SitemapkitError(
      'ERR_PARTIAL',
      `the sitemaps are published in ${this.outDir}, but robots.txt was not updated: ${reason}`,
      { cause, where: plan.robots.path, hint: `add the line(s) yourself: ${lines}` },
    );
  }

  /**
   * Removes temp folders left by runs that died (kill -9, power cut); never one whose process
   * still runs. A folder holding a journal died while committing: its journal stays (alone) until
   * a later commit has done what the dead one could not.
   */
  async #sweepTemp(): Promise<void> {
    for (const name of await readdir(this.outDir)) {
      if (!name.startsWith(TMP_PREFIX)) continue;
      const pid = Number(name.slice(TMP_PREFIX.length).split('-')[0]);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
      const dir = join(this.outDir, name);
      const journal = await readJournal(join(dir, JOURNAL));
      if (journal === undefined) {
        await rm(dir, { recursive: true, force: true });
        continue;
      }
      for (const entry of await readdir(dir)) {
        if (entry !== JOURNAL) await rm(join(dir, entry), { recursive: true, force: true });
      }
      this.#inherited.push({ dir, journal });
    }
  }
}

function isPlainName(path: string): boolean {
  return path !== '' && !path.includes('/') && !path.includes('\\') && !path.startsWith('.');
}
