/**
 * `OUT/.sitemapkit-manifest.json`: what the writer wrote, so that the next run touches only its own
 * files, carries child lastmods over, and `submit --since` can tell what changed.
 *
 * Layout (one JSON document, laid out for streaming): line 1 holds every field but the entries and
 * ends with a comma; line 2 is `"entries":[`; then one entry object per line (comma-terminated but
 * the last); then `]}`. A reader that needs only the files reads line 1.
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const MANIFEST_NAME = '.sitemapkit-manifest.json';

/** One file the writer owns. */
export interface ManifestFile {
  /** Relative to the output folder, `/`-separated. */
  path: string;
  /** Public URL, or undefined for files nobody links to by URL. */
  url?: string;
  /** What the file is: a urlset, an index, a text sitemap, an HTML page, the stylesheet. */
  kind: 'urlset' | 'index' | 'text' | 'html' | 'xsl';
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

/** Line 1 of a manifest, for `entries` written after it. */
export function manifestHeaderLine(h: ManifestHeader): string {
  const json = JSON.stringify(h);
  return `${json.slice(0, -1)},\n"entries":[\n`;
}

export function manifestEntryLine(e: ManifestEntry, last: boolean): string {
  return `${JSON.stringify(e)}${last ? '' : ','}\n`;
}

export const MANIFEST_CLOSE = ']}\n';

async function firstLine(path: string): Promise<string | undefined> {
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

/**
 * Reads line 1 of a manifest (a file, or a folder holding one). Undefined when there is none;
 * throws when there is one that is not a sitemapkit manifest.
 */
export async function readManifestHeader(pathOrDir: string): Promise<ManifestHeader | undefined> {
  const path = pathOrDir.endsWith('.json') ? pathOrDir : join(pathOrDir, MANIFEST_NAME);
  let line: string | undefined;
  try {
    line = await firstLine(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (line === undefined) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(line.endsWith(',') ? `${line.slice(0, -1)}}` : line);
  } catch {
    // Not our streaming layout (hand-edited?): fall back to reading it whole.
    header = JSON.parse(await readFile(path, 'utf8'));
  }
  const h = header as Partial<ManifestHeader>;
  if (h.format !== 'sitemapkit-manifest' || h.version !== 1 || !Array.isArray(h.files)) {
    throw new Error(`${path} is not a sitemapkit manifest (format/version 1 expected)`);
  }
  return h as ManifestHeader;
}

/** Streams the entries of a manifest, one at a time (memory stays flat for millions). */
export async function* readManifestEntries(pathOrDir: string): AsyncGenerator<ManifestEntry> {
  const path = pathOrDir.endsWith('.json') ? pathOrDir : join(pathOrDir, MANIFEST_NAME);
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  try {
    for await (const raw of lines) {
      n++;
      if (n <= 2) continue;
      const line = raw.endsWith(',') ? raw.slice(0, -1) : raw;
      if (line === ']}' || line === '') continue;
      yield JSON.parse(line) as ManifestEntry;
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}
