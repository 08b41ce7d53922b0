/**
 * The files of the submission journal (see `journal.ts`): their names, how a URL is kept and
 * identified, reading a plan's URLs, and the lazily allocated hashed set the journal keys on.
 */
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { HashedStringSet, hashHex } from '../core/hash.js';

/**
 * A hashed set allocated at its first `add`: an empty `HashedStringSet` costs about 6 MiB, and
 * most journals never settle anything twice or carry `sent` hashes.
 */
export class LazySet {
  #set: HashedStringSet | undefined;

  get size(): number {
    return this.#set?.size ?? 0;
  }

  has(s: string): boolean {
    return this.#set?.has(s) ?? false;
  }

  add(s: string): boolean {
    this.#set ??= new HashedStringSet();
    return this.#set.add(s);
  }
}

/** The plan file of a channel in `dir`. */
export function journalPath(dir: string, channel: string): string {
  return join(dir, `.sitemapkit-submit-${channel}.jsonl`);
}

export function logPath(dir: string, channel: string): string {
  return join(dir, `.sitemapkit-submit-${channel}.done`);
}

/**
 * A URL as the journal keeps it: its WHATWG serialisation (what engines send and report back), or
 * the trimmed text when it is not a URL (the engine leaves it out, and it is settled as such).
 */
export function normal(raw: string): string {
  const t = raw.trim();
  try {
    return new URL(t).href;
  } catch {
    return t;
  }
}

/** A URL's identity in the journal: 16 hex digits of its 64-bit hash. */
export function keyOf(loc: string): string {
  return hashHex(loc);
}

export async function* readPlanItems(path: string): AsyncGenerator<string> {
  const lines = createInterface({
    input: createReadStream(path, { encoding: 'utf8' }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let first = true;
  try {
    for await (const line of lines) {
      if (first) {
        first = false;
        continue;
      }
      if (line === '') continue;
      const j = JSON.parse(line) as unknown;
      if (typeof j === 'string') yield j;
    }
  } finally {
    lines.close();
  }
}

/** A target URL without the credentials it may carry (they must not be written to the file). */
export function withoutCredentials(target: string): string {
  try {
    const u = new URL(target);
    if (u.username === '' && u.password === '') return target;
    u.username = '';
    u.password = '';
    return u.href;
  } catch {
    return target;
  }
}
