import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { SitemapkitError } from '../core/errors.js';
import { fsError, isSystemError } from '../core/fs-errors.js';

/** What a write is, for its error: `write the report`, `write the key file`. */
export interface WriteContext {
  /** @default 'write the file' */
  doing?: string;
}

/**
 * Writes a whole file through a temp file in the same folder, fsync, then rename. Failures are
 * `ERR_OUTPUT` naming `path` (never the temp name), the reason and what to do.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  context: WriteContext = {},
): Promise<void> {
  const doing = context.doing ?? 'write the file';
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx').catch(async (e: unknown) => {
    throw await writeError(e, path, doing);
  });
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (e) {
    await fh.close();
    await rm(tmp, { force: true });
    throw fsError(e, { path, doing, mode: 'write' });
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw fsError(e, { path, doing, mode: 'write' });
  }
}

/** A failure to create the temp file beside `path`, said of `path` and its folder. */
async function writeError(e: unknown, path: string, doing: string): Promise<unknown> {
  if (!isSystemError(e)) return e;
  const dir = dirname(path);
  if (e.code === 'ENOENT' || e.code === 'ENOTDIR') {
    // The temp file is created in path's folder: that folder (or one above it) is missing.
    const kind = await stat(dir).then(
      (s) => (s.isDirectory() ? 'refuses new files' : 'is not a folder'),
      () => 'does not exist',
    );
    return new SitemapkitError('ERR_OUTPUT', `cannot ${doing}: its folder ${dir} ${kind}`, {
      cause: e,
      where: path,
      hint:
        kind === 'does not exist'
          ? 'create the folder first, or choose another path'
          : kind === 'is not a folder'
            ? `check the path: ${dir} is a file`
            : 'choose a path in a folder of a regular file system',
    });
  }
  return fsError(e, { path, doing, mode: 'write' });
}

/** Most folders `ensureDir` creates below the first existing one: far more than any real path. */
const MAX_NEW_FOLDERS = 256;

/**
 * Creates `dir` and the folders above it that are missing, and returns those it created (top
 * first), so that a run that writes nothing can take them away again. Unlike
 * `mkdir({ recursive: true })`, which loops forever on pseudo file systems such as /proc (its
 * mkdir says ENOENT although the parent exists), every step is bounded: walk up to the first
 * existing folder, then create each missing one downward, once. Failures are `ERR_OUTPUT` naming
 * `dir`.
 */
export async function ensureDir(dir: string, doing = 'create the output folder'): Promise<string[]> {
  const target = resolve(dir);
  const missing: string[] = [];
  for (let at = target; ; ) {
    let isDir: boolean;
    try {
      isDir = (await stat(at)).isDirectory();
    } catch (e) {
      if (!isSystemError(e) || e.code !== 'ENOENT') throw fsError(e, { path: dir, doing, mode: 'write' });
      const up = dirname(at);
      if (up === at || missing.length >= MAX_NEW_FOLDERS)
        throw fsError(e, { path: dir, doing, mode: 'write' });
      missing.unshift(at);
      at = up;
      continue;
    }
    if (isDir) break;
    throw new SitemapkitError(
      'ERR_OUTPUT',
      `cannot ${doing}: ${at === target ? 'it is a file' : `${at} is a file`}, not a folder`,
      { where: dir, hint: 'choose a folder, or move the file away' },
    );
  }
  const created: string[] = [];
  for (const folder of missing) {
    try {
      await mkdir(folder);
      created.push(folder);
    } catch (e) {
      // Made meanwhile by someone else: fine when it is a folder.
      if (isSystemError(e) && e.code === 'EEXIST' && (await isFolder(folder))) continue;
      await removeCreated(created);
      if (isSystemError(e) && e.code === 'ENOENT') {
        // The parent exists (it was just checked or made), yet mkdir says ENOENT: a pseudo file
        // system (/proc, /sys) that takes no new folders.
        throw new SitemapkitError(
          'ERR_OUTPUT',
          `cannot ${doing}: the file system of ${dirname(folder)} does not take new folders`,
          { cause: e, where: dir, hint: 'choose a folder on a regular file system' },
        );
      }
      throw fsError(e, { path: dir, doing, mode: 'write' });
    }
  }
  return created;
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Removes folders {@link ensureDir} created (deepest first), each only while it is empty. */
export async function removeCreated(created: readonly string[]): Promise<void> {
  for (const folder of [...created].reverse()) {
    try {
      await rmdir(folder);
    } catch {
      // Not empty (someone put something there) or already gone: leave it.
    }
  }
}

/** fsync a folder so that renames inside it survive a power cut (a no-op where folders cannot be opened). */
export async function syncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Some filesystems refuse fsync on directories; the renames are still atomic there.
  }
}
