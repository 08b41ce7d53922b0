/**
 * The folder sink's commit journal: written (and fsync'ed) before the first rename of a commit,
 * removed after the last removal. Its presence in a dead run's temp folder says the run died while
 * committing, and what it would have published and removed.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';

/** A file name and the SHA-256 of its uncompressed bytes. */
export interface JournalFile {
  path: string;
  sha256: string;
}

export interface CommitJournal {
  /** Every file the commit publishes. */
  publish: JournalFile[];
  /** Files of the previous set that the commit removes. */
  remove: JournalFile[];
  /** Entry point URLs the commit replaces in robots.txt. */
  robots: string[];
}

function files(v: unknown): JournalFile[] {
  if (!Array.isArray(v)) return [];
  return v.filter(
    (f): f is JournalFile =>
      typeof f === 'object' &&
      f !== null &&
      typeof (f as JournalFile).path === 'string' &&
      typeof (f as JournalFile).sha256 === 'string',
  );
}

/** The journal at `path`, or undefined when there is none or it is not whole. */
export async function readJournal(path: string): Promise<CommitJournal | undefined> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    // Missing, or cut short: it is written to a temp name and renamed, so a partial one means
    // the commit never started.
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const j = raw as Record<string, unknown>;
  return {
    publish: files(j['publish']),
    remove: files(j['remove']),
    robots: Array.isArray(j['robots']) ? j['robots'].filter((r): r is string => typeof r === 'string') : [],
  };
}

/** Whether the file at `path` holds exactly the bytes whose SHA-256 is `sha256` (after gunzip for `.gz`). */
export async function sameBytes(path: string, sha256: string): Promise<boolean> {
  try {
    let data: Uint8Array = await readFile(path);
    if (path.endsWith('.gz')) data = gunzipSync(data);
    return createHash('sha256').update(data).digest('hex') === sha256;
  } catch {
    // Gone already, unreadable, or not gzip: not the file the journal speaks of.
    return false;
  }
}
