/**
 * The crawl state's file watched while its crawl runs. SQLite keeps writing to a state file that
 * was deleted, or replaced by another one at its path (a second crawl started into the same
 * folder, a clean-up): in WAL and exclusive locking every write goes on silently into the
 * unlinked file, and only the output's hand-over to a rollback journal (`shareDb`) failed, with
 * SQLite's `SQLITE_READONLY_DBMOVED` ("attempt to write a readonly database") after every page
 * had been crawled into a file nobody can open again. Worse, SQLite opens the journal files by
 * name: the hand-over would have worked on the WAL of the crawl that now owns the path.
 *
 * The file's identity (device and inode) is recorded when the state is opened and compared with
 * what is at its path: at commits, at most once a {@link POLL_MS} (a `stat`, a few microseconds,
 * so a million-page crawl pays nothing measurable), and at once before the output starts and
 * before the crawl records its output as published. While the state is open its inode cannot be
 * reused (the open file holds it), so another file at the path always has another identity.
 */
import { type BigIntStats, statSync } from 'node:fs';
import { SitemapkitError } from '../core/errors.js';

/** Time between two looks at the state's path from the crawl loop's commits, in milliseconds. */
const POLL_MS = 1000;

/** What became of the state file: nothing at its path any more, or another file there. */
export type StateLoss = 'deleted' | 'replaced';

/** A file's identity: its device and inode, as `stat` with `bigint` gives them. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
}

/**
 * What is at `path` now against the file of `identity`: undefined while it is that file, else
 * what became of it. A path that cannot be looked at (no right to) is no evidence of a loss.
 */
export function lookAt(path: string, identity: FileIdentity): StateLoss | undefined {
  let s: BigIntStats | undefined;
  try {
    s = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    // A folder on the path replaced by a file: gone.
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? 'deleted' : undefined;
  }
  if (s === undefined) return 'deleted';
  return s.ino !== identity.ino || s.dev !== identity.dev ? 'replaced' : undefined;
}

/**
 * Whether `error` is SQLite saying the file it writes was deleted, moved or replaced under it. Its
 * kin (`SQLITE_IOERR_FSTAT` on the next write, once the journal change failed) name no cause of
 * their own: they are worded only when the file is seen gone ({@link StateGuard.look}).
 */
export function isStateMovedError(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_READONLY_DBMOVED';
}

export class StateGuard {
  readonly #path: string;
  readonly #dev: bigint;
  readonly #ino: bigint;
  #next: number;
  #lost: StateLoss | undefined;

  /** Watches the file at `path` that `db` has just opened (closed when that fails); none in memory. */
  static watch(path: string, db: { memory: boolean; close(): unknown }): StateGuard | undefined {
    if (db.memory) return undefined;
    try {
      return new StateGuard(path);
    } catch (cause) {
      db.close();
      throw cause;
    }
  }

  /** Records the identity of the file at `path` (just opened by the crawl). */
  constructor(path: string) {
    const s = statSync(path, { bigint: true });
    this.#path = path;
    this.#dev = s.dev;
    this.#ino = s.ino;
    this.#next = Date.now() + POLL_MS;
  }

  /** The identity of the file the crawl opened (for a second connection to check what it opens). */
  get identity(): FileIdentity {
    return { dev: this.#dev, ino: this.#ino };
  }

  /** {@link check}, at most once a {@link POLL_MS}: for every commit of the crawl loop. */
  poll(): void {
    const now = Date.now();
    if (now < this.#next) return;
    this.#next = now + POLL_MS;
    this.check();
  }

  /** Throws {@link stateLostError} when the file at the path is no longer the one opened. */
  check(): void {
    const lost = this.look();
    if (lost !== undefined) throw stateLostError(this.#path, lost, false);
  }

  /**
   * `error` as the crawl's one sentence (`ERR_STATE`) when the state file was deleted or replaced
   * (looked at now, or as SQLite says it), else unchanged. `written`: the sitemaps were published.
   */
  explain(error: unknown, written: boolean): unknown {
    const lost = this.look() ?? (isStateMovedError(error) ? 'moved' : undefined);
    return lost === undefined ? error : stateLostError(this.#path, lost, written, error);
  }

  /**
   * Looks at the path now: what became of the file, or undefined while it is the one opened. What
   * was found stays found (a file put back under the name is not the crawl's any more to trust).
   */
  look(): StateLoss | undefined {
    this.#lost ??= lookAt(this.#path, this.identity);
    return this.#lost;
  }
}

/**
 * The crawl's one sentence for a state file deleted or replaced under it (`ERR_STATE`). `written`:
 * the sitemaps were published (from the state as the crawl saw it) before the loss was noticed.
 */
export function stateLostError(
  path: string,
  lost: StateLoss | 'moved',
  written: boolean,
  cause?: unknown,
): SitemapkitError {
  const what =
    lost === 'deleted'
      ? 'was deleted (or moved away)'
      : lost === 'replaced'
        ? 'was replaced by another file'
        : 'was deleted or replaced';
  const output = written
    ? 'the sitemaps were written before this was noticed, but the state is lost'
    : 'the pages this crawl recorded are lost with it, and no output was written';
  return new SitemapkitError(
    'ERR_STATE',
    `the crawl state ${what} while this crawl ran (another crawl into the same folder?): ${output}`,
    {
      ...(cause === undefined ? {} : { cause }),
      where: path,
      hint: `run the crawl again (--resume cannot help: the state it would continue is gone), and give each crawl its own --state${lost === 'deleted' ? '' : '; the file now at this path was left alone'}`,
    },
  );
}
