import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from './atomic.js';
import { updateRobotsText } from './robots-line.js';

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
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const next = updateRobotsText(text, add, replace);
  if (next !== text) await writeFileAtomic(path, next);
}
