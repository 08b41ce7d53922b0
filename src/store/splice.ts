/**
 * Writing one child of a store build (build.ts), in one of two ways:
 *
 * - in full: every entry of the file read from the store and serialised;
 * - spliced: the bytes of the entries that did not change since the published build are copied
 *   from the previous file (where its layout, store/layout.ts, says they are), and only the rows
 *   changed since (added, changed, moved in by a change) are read and serialised, in their place.
 *
 * Both give the same bytes (the property test compares them with a build into an empty folder).
 * A splice needs: an uncompressed set (a gzip stream cannot be cut at entry boundaries), the
 * file's layout as the published build left it (moves drop it, see backend.ts), no news entry in
 * the file (the news window may rewrite any of them without a change of its row), a previous file
 * that is still the recorded one (stamp, else size and SHA-256), and counts that add up. Anything
 * else writes the file in full.
 */
import { open } from 'node:fs/promises';
import { SitemapkitError } from '../core/errors.js';
import { FileWriter } from '../writer/file-writer.js';
import type { FolderSink } from '../writer/folder-sink.js';
import type { Gzipper } from '../writer/gzip.js';
import { stripLastmods } from '../writer/lastmod-policy.js';
import { URLSET_CLOSE } from '../writer/serialize.js';
import type { FileRow, FragmentRow, LayoutRow, PublishedRow, StoreBackend } from './backend.js';
import { measured, trusted } from './build-files.js';
import { type Layout, LayoutWriter, readLayout } from './layout.js';
import type { StoreNewsWindow } from './news.js';
import type { BuildSpool } from './spool.js';

const PAGE = 5000;
/** A rebuild with more changes than this writes every touched file in full (they are held in memory). */
export const SPLICE_LIMIT = 100_000;
/** Bytes copied from a previous file per read. */
const COPY = 1 << 20;

/** The rows changed since the published build: every id, and the live ones by the file they are in. */
export interface Pending {
  /** Ascending (a file's layout is too: the two are walked side by side). */
  ids: number[];
  byFile: Map<number, FragmentRow[]>;
}

/** The changes since generation `since`; undefined when there are too many to splice with. */
export async function loadPending(backend: StoreBackend, since: number): Promise<Pending | undefined> {
  const rows = await backend.layouts.pendingEntries(since, SPLICE_LIMIT + 1);
  if (rows.length > SPLICE_LIMIT) return undefined;
  const ids: number[] = [];
  const byFile = new Map<number, FragmentRow[]>();
  for (const { file, ...r } of rows) {
    ids.push(r.id);
    if (file === null) continue;
    const list = byFile.get(file);
    if (list === undefined) byFile.set(file, [r]);
    else list.push(r);
  }
  // By id: the file's order. (Read by generation, then id: the order of the index that finds them.)
  ids.sort((a, b) => a - b);
  for (const list of byFile.values()) list.sort((a, b) => a.id - b.id);
  return { ids, byFile };
}

/** What the children of one build share. */
export interface ChildWriting {
  backend: StoreBackend;
  sink: FolderSink;
  xml: boolean;
  head: string;
  headBytes: number;
  gzipper: Gzipper | undefined;
  window: StoreNewsWindow;
  noLastmods: boolean;
  /** A plain entry's text (loc and lastmod alone), as the import measured it. */
  plain: (loc: string, lastmod: string | null) => string;
  /** Undefined: no file of this build is spliced. */
  pending: Pending | undefined;
  /** A first import's texts (spool.ts), the bytes a read-back would give. */
  spool?: BuildSpool | undefined;
}

/** A previous file a child can be spliced from. */
export interface SpliceSource {
  path: string;
  layout: Layout;
}

/** A child whose bytes are all handed to the sink; `closed` settles once they are on disk. */
export interface WrittenChild {
  /** When its next news block falls out of the window. */
  due: number | undefined;
  spliced: boolean;
  closed: Promise<ClosedChild>;
}

export interface ClosedChild {
  /** Uncompressed bytes and their SHA-256. */
  bytes: number;
  sha256: string;
  /** Bytes on disk and their SHA-256. */
  size: number;
  disk: string;
  /** Its layout; null for a gzipped file. */
  layout: Uint8Array | null;
}

/** The previous file at `path` when the child `f` can be spliced from it, else undefined. */
export async function spliceSource(
  c: ChildWriting,
  f: FileRow,
  path: string,
  prev: PublishedRow | undefined,
  row: LayoutRow | undefined,
): Promise<SpliceSource | undefined> {
  const pending = c.pending;
  if (pending === undefined || prev === undefined || row?.data == null || row.file !== f.id || f.news > 0)
    return undefined;
  const layout = readLayout(row.data, prev.urls);
  if (layout === undefined) return undefined;
  let kept = 0;
  let k = 0;
  let bytes = c.headBytes + (c.xml ? URLSET_CLOSE.length : 0);
  for (let i = 0; i < layout.ids.length; i++) {
    bytes += layout.lens[i]!;
    const id = layout.ids[i]!;
    while (k < pending.ids.length && pending.ids[k]! < id) k++;
    if (pending.ids[k] !== id) kept++;
  }
  // The file it describes, and the rows the store now has in the file: else written in full.
  if (bytes !== prev.bytes || bytes !== prev.size) return undefined;
  if (kept + (pending.byFile.get(f.id)?.length ?? 0) !== f.urls) return undefined;
  return (await trusted(path, prev, row)) ? { path, layout } : undefined;
}

/** One entry's text as this build publishes it (the news window, the lastmod policy). */
function entryText(c: ChildWriting, r: FragmentRow): { text: string; len: number } {
  if (r.fragment === null && c.noLastmods) {
    // A plain entry without its lastmod: the stored length counts the lastmod.
    const text = c.plain(r.loc, null);
    return { text, len: Buffer.byteLength(text) };
  }
  const out = c.window.text(r, r.fragment ?? c.plain(r.loc, r.lastmod));
  if (c.noLastmods && out.text.includes('<lastmod>')) {
    const bare = stripLastmods(out.text);
    return { text: bare, len: Buffer.byteLength(bare) };
  }
  return out;
}

/**
 * Writes the child `f` as `name` into the build's sink, spliced from `source` when given. Returns
 * once every byte is handed on, without waiting for the file to reach the disk (`closed`): the
 * caller writes the next file meanwhile (flushing a file to disk is most of its cost).
 */
export async function writeChild(
  c: ChildWriting,
  f: FileRow,
  name: string,
  source: SpliceSource | undefined,
): Promise<WrittenChild> {
  const disk = measured(c.sink.create(name), c.gzipper !== undefined);
  const w = new FileWriter(c.gzipper === undefined ? disk : c.gzipper(disk));
  const layout = c.gzipper === undefined ? new LayoutWriter() : undefined;
  const put = async (r: FragmentRow): Promise<void> => {
    const { text, len } = entryText(c, r);
    layout?.push(r.id, len);
    const wait = w.write(text, len);
    if (wait !== undefined) await wait;
  };
  let wait = w.write(c.head, c.headBytes);
  if (wait !== undefined) await wait;
  c.window.begin();
  if (source === undefined) {
    const spooled = (await c.spool?.writeTo(w, f, c.noLastmods, layout)) === true;
    let after = 0;
    for (;;) {
      const page = spooled ? [] : await c.backend.fragments(f.id, after, PAGE);
      if (page.length === 0) break;
      for (const r of page) await put(r);
      after = page.at(-1)!.id;
    }
  } else await splice(c, w, source, c.pending!, c.pending!.byFile.get(f.id) ?? [], put, layout!);
  if (c.xml) {
    wait = w.write(URLSET_CLOSE, URLSET_CLOSE.length);
    if (wait !== undefined) await wait;
  }
  const closed = w.close().then((totals): ClosedChild => {
    const done = disk.done();
    return {
      bytes: totals.bytes,
      sha256: totals.sha256,
      size: done.size,
      disk: done.disk ?? totals.sha256,
      layout: layout?.finish() ?? null,
    };
  });
  // Awaited by the caller later; a failure meanwhile must not count as unhandled.
  closed.catch(() => undefined);
  return { due: c.window.end(), spliced: source !== undefined, closed };
}

/** The entries of the previous file in order, runs of unchanged ones copied, changed rows put in their place. */
async function splice(
  c: ChildWriting,
  w: FileWriter,
  source: SpliceSource,
  pending: Pending,
  here: readonly FragmentRow[],
  put: (r: FragmentRow) => Promise<void>,
  layout: LayoutWriter,
): Promise<void> {
  const fh = await open(source.path, 'r');
  try {
    // The previous file is read once, in order, a megabyte at a time (one read, not one per run of
    // unchanged entries); each read into a fresh buffer, since the sink keeps the slices it gets.
    let buf = Buffer.alloc(0);
    let bufStart = 0;
    let runStart = c.headBytes;
    let runEnd = runStart;
    const flush = async (): Promise<void> => {
      while (runStart < runEnd) {
        if (runStart >= bufStart + buf.length) {
          bufStart = runStart;
          buf = Buffer.allocUnsafe(COPY);
          let got = 0;
          while (got < COPY) {
            const { bytesRead } = await fh.read(buf, got, COPY - got, bufStart + got);
            if (bytesRead === 0) break;
            got += bytesRead;
          }
          buf = buf.subarray(0, got);
          if (runStart >= bufStart + got) {
            throw new SitemapkitError('ERR_OUTPUT', 'a sitemap file changed while this build read it', {
              where: source.path,
              hint: 'run the build again (one process at a time writes an output folder)',
            });
          }
        }
        const to = Math.min(runEnd, bufStart + buf.length);
        const wait = w.writeBytes(buf.subarray(runStart - bufStart, to - bufStart));
        if (wait !== undefined) await wait;
        runStart = to;
      }
    };
    const { ids, lens } = source.layout;
    let j = 0;
    let k = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const len = lens[i]!;
      if (j < here.length && here[j]!.id <= id) {
        await flush();
        while (j < here.length && here[j]!.id <= id) await put(here[j++]!);
      }
      while (k < pending.ids.length && pending.ids[k]! < id) k++;
      if (pending.ids[k] === id) {
        // Changed, moved out or removed: its bytes are skipped (a changed one was put above).
        await flush();
        runStart = runEnd + len;
      } else layout.push(id, len);
      runEnd += len;
    }
    await flush();
    while (j < here.length) await put(here[j++]!);
  } finally {
    await fh.close();
  }
}
