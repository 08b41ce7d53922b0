/**
 * IndexNow keys (indexnow.org/documentation): 8 to 128 characters of `a-z A-Z 0-9 -`, proven by a
 * UTF-8 text file holding exactly the key, at `https://HOST/KEY.txt` or at a `keyLocation` on the
 * same host.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { wholeNumber } from '../core/checks.js';
import { SitemapkitError } from '../core/errors.js';
import { ensureDir, removeCreated, writeFileAtomic } from '../writer/atomic.js';

export const KEY_MIN_LENGTH = 8;
export const KEY_MAX_LENGTH = 128;
const KEY = /^[a-zA-Z0-9-]{8,128}$/;

/** Whether `key` is a valid IndexNow key. */
export function isValidKey(key: string): boolean {
  return KEY.test(key);
}

/** Throws `ERR_OPTIONS`, saying what is wrong, unless `key` is a valid IndexNow key. */
export function assertValidKey(key: string, where = 'key'): void {
  if (isValidKey(key)) return;
  const why =
    key.length < KEY_MIN_LENGTH || key.length > KEY_MAX_LENGTH
      ? `it has ${key.length} characters; IndexNow keys have ${KEY_MIN_LENGTH} to ${KEY_MAX_LENGTH}`
      : `it contains "${[...key].find((c) => !/[a-zA-Z0-9-]/.test(c))}"; only a-z, A-Z, 0-9 and - are allowed`;
  throw new SitemapkitError('ERR_OPTIONS', `invalid IndexNow key: ${why}`, {
    where,
    hint: 'generate one with `sitemapkit submit key --out DIR`',
  });
}

/**
 * A new random key: lower-case hexadecimal (the documentation's own examples are hex).
 * @param length characters, 8 to 128. @default 32
 */
export function generateKey(length = 32): string {
  wholeNumber('key length', length, 32, { min: KEY_MIN_LENGTH, max: KEY_MAX_LENGTH });
  const bytes = new Uint8Array(Math.ceil(length / 2));
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .slice(0, length);
}

/**
 * Writes `DIR/KEY.txt` holding exactly the key, atomically (temp file + rename), creating DIR.
 * Returns the path. Publish DIR at the site root so that `https://HOST/KEY.txt` serves it.
 */
export async function writeKeyFile(dir: string, key: string): Promise<string> {
  assertValidKey(key);
  const path = join(dir, `${key}.txt`);
  // Bounded folder creation: Node's recursive mkdir spins forever under /proc.
  const created = await ensureDir(dir, 'create the folder of the key file');
  try {
    await writeFileAtomic(path, key, { doing: 'write the key file' });
  } catch (error) {
    await removeCreated(created);
    throw error;
  }
  return path;
}

/**
 * The key whose key file `writeKeyFile` left in `dir` (a file `KEY.txt` holding exactly KEY), so
 * that a build folder submits with the key it publishes. Undefined when there is none; a folder
 * holding two keys is an error, since the one meant cannot be told.
 */
export async function findKeyFile(dir: string): Promise<{ key: string; file: string } | undefined> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return undefined;
  }
  const found: Array<{ key: string; file: string }> = [];
  for (const name of names.sort()) {
    const key = name.slice(0, -4);
    if (!name.endsWith('.txt') || !isValidKey(key)) continue;
    const file = join(dir, name);
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text?.trim() === key) found.push({ key, file });
  }
  if (found.length > 1) {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `${dir} holds ${found.length} IndexNow key files (${found.map((f) => f.key).join(', ')}), so the key to use cannot be told`,
      { where: dir, hint: 'give the one the site publishes with --key KEY, or remove the others' },
    );
  }
  return found[0];
}
