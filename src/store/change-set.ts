/**
 * The change set of a store build (`--changes`, JSON Lines): every URL added, changed or removed
 * since the published build, then every file of the new set and the deleted ones. Written whole
 * into a temp file beside the target before the folder commit (see build.ts).
 */
import { open } from 'node:fs/promises';
import { fsError } from '../core/fs-errors.js';
import { type ChangeRecord, changeSetLine } from '../writer/change-set.js';
import type { StoreBackend } from './backend.js';

/** What the change set needs of a build: the store and the generation last published. */
interface ChangeSource {
  backend: StoreBackend;
  published: number;
}

/** A file of the new set (a build's `BuiltFile`). */
interface ChangedFile {
  path: string;
  url: string;
  urls: number;
  change: 'added' | 'rewritten' | 'kept';
}

const PAGE = 5000;

export async function countChanges(
  c: ChangeSource,
  counts: { added: number; changed: number; removed: number },
): Promise<void> {
  Object.assign(counts, await c.backend.countPending(c.published));
}

/** The change set, streamed: URL changes by id, then every file of the new set and the deleted ones. */
export async function writeChangeSet(
  path: string,
  target: string,
  c: ChangeSource,
  built: readonly ChangedFile[],
  deleted: readonly string[],
  baseUrl: string,
  counts: { added: number; changed: number; removed: number },
): Promise<void> {
  // Named by the file the user gave, never by the temp name beside it.
  const fh = await open(path, 'w').catch((e: unknown) => {
    throw fsError(e, { path: target, doing: 'write the change set', mode: 'write', code: 'ERR_OUTPUT' });
  });
  try {
    let buf = '';
    const put = async (r: ChangeRecord): Promise<void> => {
      buf += changeSetLine(r);
      if (buf.length > 1 << 20) {
        await fh.write(buf);
        buf = '';
      }
    };
    let after = { gen: 0, id: 0 };
    for (;;) {
      const page = await c.backend.pending(c.published, after, PAGE);
      if (page.length === 0) break;
      for (const p of page) {
        counts[p.change]++;
        await put(
          p.lastmod === null
            ? { kind: 'url', change: p.change, loc: p.loc, at: p.at }
            : { kind: 'url', change: p.change, loc: p.loc, lastmod: p.lastmod, at: p.at },
        );
      }
      after = page.at(-1)!;
    }
    for (const b of built) {
      await put({ kind: 'file', change: b.change, path: b.path, url: b.url, urls: b.urls });
    }
    for (const d of deleted) await put({ kind: 'file', change: 'deleted', path: d, url: baseUrl + d });
    await fh.write(buf);
    await fh.sync();
  } finally {
    await fh.close();
  }
}
