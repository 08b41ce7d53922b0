/**
 * Where the files of a sitemap set go. The writer hands a sink finished bytes (compressed already
 * when the set is gzipped), file by file, then asks it to publish the set in a safe order. Three
 * sinks ship: a folder (atomic), memory, and web streams; any object of this shape works.
 */
import type { ManifestHeader } from './manifest.js';

/** One file being written. */
export interface SinkFile {
  /**
   * Takes the next bytes of the file; the chunk is the sink's to keep. A returned promise asks the
   * writer to wait before the next write (backpressure). A sink may call `release` once it holds
   * the chunk no more (written out): the writer then fills the same memory again (see
   * file-writer.ts); a sink that never calls it keeps the chunk.
   */
  write(chunk: Uint8Array, release?: () => void): Promise<void> | undefined;
  /** The file is complete. */
  close(): Promise<void>;
  /** Abandons the file (an error or an abort); no more calls follow. */
  abort(reason: unknown): void;
}

/** A robots.txt whose `Sitemap:` lines are brought up to date as part of a commit. */
export interface RobotsUpdate {
  path: string;
  /** Entry point URLs of the new set. */
  add: string[];
  /** Entry point URLs of earlier sets, to be replaced. */
  replace: string[];
}

/** One file to publish. */
export interface CommitFile {
  /** The name it was created under. */
  name: string;
  /** Its public name (differs when the only child becomes the entry point). */
  as: string;
  /** SHA-256 of its uncompressed bytes ('' for the manifest). */
  sha256: string;
}

export interface CommitPlan {
  /**
   * Every file in publishing order: supporting files (stylesheet, HTML pages), children and extra
   * indexes, the entry point, then the manifest, when there is one. Publishing in this order means
   * that whatever is visible at any moment references only whole files.
   */
  files: CommitFile[];
  robots?: RobotsUpdate;
}

/** What a sink knows of the set it holds before a run. */
export interface SinkStart {
  /** The manifest of the set published now, if any (its children's lastmods carry over). */
  previous: ManifestHeader | undefined;
  /** Entry point URLs that an interrupted earlier commit left in robots.txt. */
  staleRoots: string[];
  /**
   * Names an interrupted earlier commit published before its manifest: sitemapkit's own files,
   * though the manifest in place does not list them yet.
   */
  inherited?: string[];
  /** The folder the set is published into, when it is one (its foreign files are never replaced). */
  folder?: string;
}

export interface Sink {
  /**
   * Whether {@link CommitPlan} may publish a file under another name than it was created with.
   * When false, the writer holds back the first child until its public name is known.
   */
  readonly renames: boolean;
  /** Called once, before any file is created. */
  start(): Promise<SinkStart>;
  create(name: string): SinkFile;
  /** Writes a small file whole (HTML pages, the stylesheet). */
  put(name: string, data: Uint8Array): Promise<void>;
  /**
   * Reads back a file this run created and closed, as stored (compressed when the set is). Optional:
   * `lastmodPolicy: 'drop'` needs it to rewrite the set before the commit.
   */
  read?(name: string): AsyncIterable<Uint8Array>;
  /** Publishes the set; called once every file is closed. */
  commit(plan: CommitPlan): Promise<void>;
  /** Drops everything this run wrote; the set published before stays. */
  abort(reason: unknown): Promise<void>;
  /** Where a published file can be found: an absolute path for a folder, its name otherwise. */
  locate(name: string): string;
}

/**
 * A file whose name is not known yet (the first child: it becomes the entry point when it stays
 * the only one). Its bytes wait in memory until {@link PendingFile.bind} names it.
 */
export class PendingFile implements SinkFile {
  readonly #create: (name: string) => SinkFile;
  #chunks: Uint8Array[] = [];
  #closed = false;
  #target: SinkFile | undefined;
  #aborted = false;

  constructor(create: (name: string) => SinkFile) {
    this.#create = create;
  }

  write(chunk: Uint8Array): Promise<void> | undefined {
    if (this.#target !== undefined) return this.#target.write(chunk);
    this.#chunks.push(chunk);
    return undefined;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#target !== undefined) await this.#target.close();
  }

  /**
   * Creates the real file and hands it what was held back, in one go so that no later write can
   * overtake it (and the close, when it came).
   */
  bind(name: string): Promise<void> {
    if (this.#target !== undefined || this.#aborted) return Promise.resolve();
    const target = this.#create(name);
    const waits: Array<Promise<void>> = [];
    for (const c of this.#chunks) {
      const wait = target.write(c);
      if (wait !== undefined) waits.push(wait);
    }
    this.#chunks = [];
    this.#target = target;
    const written = Promise.all(waits).then(() => undefined);
    return this.#closed ? written.then(() => target.close()) : written;
  }

  abort(reason: unknown): void {
    this.#aborted = true;
    this.#chunks = [];
    this.#target?.abort(reason);
  }
}
