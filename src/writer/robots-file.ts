import { open, readFile, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { SitemapkitError } from '../core/errors.js';
import { fsError, isSystemError } from '../core/fs-errors.js';
import { writeFileAtomic } from './atomic.js';
import { updateRobotsText } from './robots-line.js';

const DOING = 'update robots.txt';

/** Applies {@link updateRobotsText} to a robots.txt file (created when missing), atomically. */
export async function updateRobotsFile(
  path: string,
  add: readonly string[],
  replace: readonly string[],
): Promise<void> {
  let text = '';
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw fsError(e, { path, doing: DOING, code: 'ERR_OUTPUT' });
  }
  const next = updateRobotsText(text, add, replace);
  if (next !== text) await writeFileAtomic(path, next, { doing: DOING });
}

/**
 * Checks, without changing anything, that {@link updateRobotsFile} can work on `path`: a readable
 * file, or a missing one in a folder that takes new files (the update writes a temp file beside
 * it). Throws `ERR_OUTPUT` saying what is wrong; run before anything is published.
 */
export async function checkRobotsFile(path: string): Promise<void> {
  const folder = dirname(path);
  const wrong = (message: string, hint: string): SitemapkitError =>
    new SitemapkitError('ERR_OUTPUT', `cannot ${DOING}: ${message}`, { where: path, hint });
  try {
    const info = await stat(path);
    if (info.isDirectory())
      throw wrong('it is a folder, not a file', `give the file itself, such as ${join(path, 'robots.txt')}`);
    await (await open(path, 'r')).close();
  } catch (e) {
    if (!isSystemError(e)) throw e;
    if (e.code !== 'ENOENT') throw fsError(e, { path, doing: DOING, code: 'ERR_OUTPUT' });
    const parent = await stat(folder).catch(() => undefined);
    if (parent === undefined)
      throw wrong(
        `it does not exist, and neither does its folder ${folder}`,
        'create the folder, or give the path of an existing robots.txt',
      );
    if (!parent.isDirectory()) throw wrong(`${folder} is a file, not a folder`, 'check the path');
  }
  // The only sure test of "may I create a file here" (permissions, read-only mounts, /proc) is to
  // create one.
  const probe = join(folder, `.${basename(path)}.${process.pid}.probe.tmp`);
  try {
    await (await open(probe, 'wx')).close();
  } catch (e) {
    if (isSystemError(e) && e.code === 'ENOENT')
      throw wrong(`the folder ${folder} takes no new files`, 'choose a robots.txt on a regular file system');
    throw fsError(e, { path, doing: DOING, mode: 'write' });
  }
  await rm(probe, { force: true });
}
