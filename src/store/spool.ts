/**
 * The first build's spool. A first import into an empty store places every new URL in its file as
 * it streams (stable shards fill in order) and serialises it anyway (to measure it), so `syncAndBuild`
 * keeps those texts, file by file, in one scratch file; the build that follows in the same unit
 * writes each child from there instead of reading its million rows back out of the store (0.65 s of
 * a 1,000,000-URL first build). The spool is scratch, never part of a published or stored state: a
 * crash leaves at most a stray file, which the next spool of the same store removes.
 *
 * A file is served from the spool only when the spool holds exactly its rows (same count, same
 * bytes, none moved by a merge) and their texts are the ones the build would write (no news block,
 * whose window is decided at build time; lastmods not dropped).
 */
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { FileWriter } from '../writer/file-writer.js';
import type { FileRow } from './backend.js';
import type { LayoutWriter } from './layout.js';

/**
 * Bytes of a file's texts held before they go to the scratch file together. They are encoded into
 * the file's buffer as they come: strings held until a chunk fills lived long enough to reach V8's
 * old generation, which grew with them (a PostgreSQL first build's peak RSS went from 144 to 189 MB).
 */
const CHUNK = 64 * 1024;

interface Spooled {
  urls: number;
  bytes: number;
  /** Row id and byte length of each entry, in order (the build records them as the file's layout). */
  ids: Float64Array;
  lens: Uint32Array;
  /** Encoded texts not yet written (undefined once the file is read). */
  buf: Buffer | undefined;
  used: number;
  /** Offset and length of each chunk in the scratch file, in order. */
  chunks: number[];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class BuildSpool {
  readonly path: string;
  #fd: number | undefined;
  #end = 0;
  readonly #files = new Map<number, Spooled | null>();
  #disabled = false;

  private constructor(path: string) {
    this.path = path;
  }

  /**
   * A spool for the store at `store`: beside an SQLite file (the disk the store is written to
   * anyway), in the temp folder for a PostgreSQL store. Spools of dead runs go. The spool only
   * saves time: when it cannot be made or written (a full disk), the build reads the store.
   */
  static create(store: string, local: boolean): BuildSpool {
    const dir = local ? dirname(store) : tmpdir();
    const prefix = `.${local ? basename(store) : 'sitemapkit-store'}.spool-`;
    const spool = new BuildSpool(join(dir, `${prefix}${process.pid}-${randomBytes(4).toString('hex')}.tmp`));
    try {
      for (const name of readdirSync(dir)) {
        if (!name.startsWith(prefix)) continue;
        // The store is locked for this process, but the temp folder is shared by every store.
        const pid = Number(name.slice(prefix.length).split('-')[0]);
        if (!isAlive(pid)) rmSync(join(dir, name), { force: true });
      }
      spool.#fd = openSync(spool.path, 'wx+');
    } catch {
      spool.#off();
    }
    return spool;
  }

  /** Stops spooling: every file is read from the store. */
  #off(): void {
    this.#disabled = true;
    this.#files.clear();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Appends the text of a new entry `id` of `file` (its UTF-8 length `len`). */
  add(file: number, id: number, text: string, len: number): void {
    if (this.#disabled) return;
    let f = this.#files.get(file);
    if (f === null) return;
    if (f === undefined) {
      f = {
        urls: 0,
        bytes: 0,
        ids: new Float64Array(1024),
        lens: new Uint32Array(1024),
        buf: undefined,
        used: 0,
        chunks: [],
      };
      this.#files.set(file, f);
    }
    if (f.urls === f.ids.length) {
      const ids = new Float64Array(f.ids.length * 2);
      ids.set(f.ids);
      f.ids = ids;
      const lens = new Uint32Array(f.lens.length * 2);
      lens.set(f.lens);
      f.lens = lens;
    }
    f.ids[f.urls] = id;
    f.lens[f.urls] = len;
    f.urls++;
    f.bytes += len;
    if (len > CHUNK - f.used) this.#flush(f);
    if (len > CHUNK) {
      // Larger than a chunk (a huge entry): written on its own.
      this.#write(f, Buffer.from(text, 'utf8'));
      return;
    }
    f.buf ??= Buffer.allocUnsafe(CHUNK);
    const n = f.buf.write(text, f.used);
    // `len` is the text's UTF-8 length; a text cut short would publish a broken file.
    if (n !== len) this.#off();
    else f.used += n;
  }

  /** Rows of `file` moved (a merge): it is read from the store. */
  forget(file: number): void {
    this.#files.set(file, null);
  }

  #flush(f: Spooled): void {
    if (f.used === 0 || f.buf === undefined) return;
    const used = f.used;
    f.used = 0;
    this.#write(f, f.buf.subarray(0, used));
  }

  #write(f: Spooled, data: Buffer): void {
    if (this.#fd === undefined) return;
    try {
      let done = 0;
      while (done < data.length)
        done += writeSync(this.#fd, data, done, data.length - done, this.#end + done);
    } catch {
      this.#off();
      return;
    }
    f.chunks.push(this.#end, data.length);
    this.#end += data.length;
  }

  /**
   * The entries of `file` in order, a chunk of whole entries at a time, when the spool holds exactly
   * what the store does; else undefined.
   */
  texts(file: Pick<FileRow, 'id' | 'urls' | 'bytes'>): Iterable<string> | undefined {
    const f = this.#files.get(file.id);
    if (f === undefined || f === null || f.urls !== file.urls || f.bytes !== file.bytes) return undefined;
    this.#flush(f);
    f.buf = undefined;
    const fd = this.#fd;
    if (fd === undefined) return undefined;
    const path = this.path;
    return (function* () {
      let buf = Buffer.alloc(0);
      for (let i = 0; i < f.chunks.length; i += 2) {
        const at = f.chunks[i]!;
        const len = f.chunks[i + 1]!;
        if (buf.length < len) buf = Buffer.allocUnsafe(Math.max(len, CHUNK * 2));
        let got = 0;
        while (got < len) {
          const n = readSync(fd, buf, got, len - got, at + got);
          if (n === 0) throw new Error(`the build spool ${path} ended early`);
          got += n;
        }
        // A chunk holds whole entries, so it decodes on its own.
        yield buf.toString('utf8', 0, len);
      }
    })();
  }

  /**
   * Writes the entries of `file` to `w` when the spool holds exactly them and they are the text a
   * build writes: not when the file has news blocks (their window is decided at build time) or the
   * build drops lastmods. Returns whether it did.
   */
  async writeTo(
    w: FileWriter,
    file: Pick<FileRow, 'id' | 'urls' | 'bytes' | 'news'>,
    noLastmods: boolean,
    layout?: LayoutWriter,
  ): Promise<boolean> {
    const texts = noLastmods || file.news > 0 ? undefined : this.texts(file);
    if (texts === undefined) return false;
    const f = this.#files.get(file.id)!;
    for (let i = 0; i < f.urls; i++) layout?.push(f.ids[i]!, f.lens[i]!);
    for (const text of texts) {
      const wait = w.write(text, Buffer.byteLength(text));
      if (wait !== undefined) await wait;
    }
    return true;
  }

  /** Closes and removes the scratch file. */
  dispose(): void {
    if (this.#fd !== undefined) {
      closeSync(this.#fd);
      this.#fd = undefined;
    }
    rmSync(this.path, { force: true });
  }
}
