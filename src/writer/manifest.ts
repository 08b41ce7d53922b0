/**
 * `OUT/.sitemapkit-manifest.json`: what the writer wrote, so that the next run touches only its own
 * files, carries child lastmods over, and `submit --since` can tell what changed.
 *
 * Layout (one JSON document, laid out for streaming and written in one pass, never copied):
 *   line 1:      {"format":"sitemapkit-manifest","version":1,"entries":[
 *   then:        one entry object a line, every one but the first led by a comma
 *   last line:   ],"generatedAt":…,"baseUrl":…,"roots":[…],"files":[…],"entryCount":N}
 * A reader that needs only the files reads the first and the last line.
 */
import { join } from 'node:path';

// File access is loaded on first use: the writer's module graph stays free of node:fs, so that
// writing into memory or streams works where there is no file system.
let fileAccess:
  | Promise<{
      createReadStream: typeof import('node:fs').createReadStream;
      open: typeof import('node:fs/promises').open;
      readFile: typeof import('node:fs/promises').readFile;
      createInterface: typeof import('node:readline').createInterface;
    }>
  | undefined;

function io(): NonNullable<typeof fileAccess> {
  fileAccess ??= Promise.all([import('node:fs'), import('node:fs/promises'), import('node:readline')]).then(
    ([fs, fsp, readline]) => ({
      createReadStream: fs.createReadStream,
      open: fsp.open,
      readFile: fsp.readFile,
      createInterface: readline.createInterface,
    }),
  );
  return fileAccess;
}

export const MANIFEST_NAME = '.sitemapkit-manifest.json';

/** One file the writer owns. */
export interface ManifestFile {
  /** Relative to the output folder, `/`-separated. */
  path: string;
  /** Public URL, or undefined for files nobody links to by URL. */
  url?: string;
  /** What the file is: a urlset, an index, a text sitemap, an HTML page, the stylesheet, the delta feed. */
  kind: 'urlset' | 'index' | 'text' | 'html' | 'xsl' | 'feed';
  /** URLs (or index children) it lists. */
  urls?: number;
  /** Uncompressed bytes. */
  bytes: number;
  sha256: string;
  /** The lastmod the index gives it (build time, or carried over when its bytes did not change). */
  lastmod?: string;
}

export interface ManifestHeader {
  format: 'sitemapkit-manifest';
  version: 1;
  generatedAt: string;
  baseUrl: string;
  /** The entry point(s), relative paths: `sitemap.xml` first, then any extra indexes. */
  roots: string[];
  files: ManifestFile[];
  entryCount: number;
}

export interface ManifestEntry {
  loc: string;
  lastmod?: string;
  /** 16 hex digits: a hash of the entry's full XML, so any field change shows. */
  hash: string;
}

export const MANIFEST_OPEN = '{"format":"sitemapkit-manifest","version":1,"entries":[\n';

export function manifestEntryLine(e: ManifestEntry, first: boolean): string {
  // Built by hand (it runs once per URL): loc needs JSON escaping; lastmod and hash never do.
  const lastmod = e.lastmod === undefined ? '' : `,"lastmod":"${e.lastmod}"`;
  // A serialised URI holds no `"` or control character; only a backslash (legal in a query) needs JSON escaping.
  const loc = e.loc.includes('\\') ? JSON.stringify(e.loc) : `"${e.loc}"`;
  return `${first ? '' : ','}{"loc":${loc}${lastmod},"hash":"${e.hash}"}\n`;
}

/** The last line: closes the entries and carries every other field. */
export function manifestTailLine(h: ManifestHeader): string {
  const { format: _f, version: _v, ...rest } = h;
  return `],${JSON.stringify(rest).slice(1)}\n`;
}

async function firstLine(path: string): Promise<string | undefined> {
  const { createReadStream, createInterface } = await io();
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) return line;
    return undefined;
  } finally {
    lines.close();
    stream.destroy();
  }
}

/** The last non-empty line of a file, read backwards from its end (manifests can be huge). */
async function lastLine(path: string): Promise<string> {
  const { open } = await io();
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    let end = size;
    let tail = Buffer.alloc(0);
    while (end > 0) {
      const len = Math.min(64 * 1024, end);
      const buf = Buffer.alloc(len);
      await fh.read(buf, 0, len, end - len);
      end -= len;
      tail = Buffer.concat([buf, tail]);
      const text = tail.toString('utf8').replace(/\s+$/, '');
      const nl = text.lastIndexOf('\n');
      if (nl !== -1) return text.slice(nl + 1);
    }
    return tail.toString('utf8').trim();
  } finally {
    await fh.close();
  }
}

function manifestPath(pathOrDir: string): string {
  return pathOrDir.endsWith('.json') ? pathOrDir : join(pathOrDir, MANIFEST_NAME);
}

/**
 * Reads every field of a manifest but its entries (a file, or a folder holding one), from its
 * first and last lines. Undefined when there is none; throws when there is one that is not a
 * sitemapkit manifest.
 */
export async function readManifestHeader(pathOrDir: string): Promise<ManifestHeader | undefined> {
  const path = manifestPath(pathOrDir);
  let first: string | undefined;
  try {
    first = await firstLine(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (first === undefined) return undefined;
  let header: Partial<ManifestHeader> | undefined;
  try {
    if (first.trim() === MANIFEST_OPEN.trim()) {
      const last = await lastLine(path);
      if (last.startsWith('],'))
        header = { format: 'sitemapkit-manifest', version: 1, ...JSON.parse(`{${last.slice(2)}`) };
    }
    // Anything else (a hand-edited or pretty-printed manifest): read it whole.
    header ??= JSON.parse(await (await io()).readFile(path, 'utf8')) as Partial<ManifestHeader>;
  } catch (cause) {
    throw new Error(`${path} is not a readable sitemapkit manifest (${(cause as Error).message})`);
  }
  if (header.format !== 'sitemapkit-manifest' || header.version !== 1 || !Array.isArray(header.files)) {
    throw new Error(
      `${path} is not a sitemapkit manifest (format "sitemapkit-manifest", version 1 expected)`,
    );
  }
  const { entries: _e, ...rest } = header as ManifestHeader & { entries?: unknown };
  return rest;
}

/** Streams the entries of a manifest, one at a time (memory stays flat for millions). */
export async function* readManifestEntries(pathOrDir: string): AsyncGenerator<ManifestEntry> {
  const path = manifestPath(pathOrDir);
  const { createReadStream, createInterface, readFile } = await io();
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  try {
    for await (const raw of lines) {
      n++;
      if (n === 1) {
        if (raw.trim() !== MANIFEST_OPEN.trim()) {
          // Not our streaming layout: fall back to parsing it whole.
          lines.close();
          const whole = JSON.parse(await readFile(path, 'utf8')) as { entries?: ManifestEntry[] };
          yield* whole.entries ?? [];
          return;
        }
        continue;
      }
      if (raw.startsWith('],') || raw === '') continue;
      yield JSON.parse(raw.startsWith(',') ? raw.slice(1) : raw) as ManifestEntry;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
