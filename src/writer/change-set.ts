/**
 * The change set: what one build (of the store, or of a recrawl) did, as JSON Lines, one change a
 * line, so that `submit` (IndexNow today, the engines' own APIs later) and a user's scripts can
 * act on exactly what changed. Streamed: a build of ten million URLs writes it line by line.
 *
 *   {"kind":"url","change":"added","loc":"https://example.com/a","lastmod":"2026-11-26T08:00:00Z","at":"…"}
 *   {"kind":"url","change":"removed","loc":"https://example.com/b","at":"…"}
 *   {"kind":"file","change":"rewritten","path":"sitemap-00003.xml","url":"https://example.com/sitemap-00003.xml","urls":50000}
 *
 * Pure: the lines are made and read here; files are opened by the callers.
 */

/** What happened to a URL. `removed` URLs are kept so engines can be told (IndexNow wants them). */
export type UrlChangeKind = 'added' | 'changed' | 'removed';

/** What happened to a file of the published set. */
export type FileChangeKind = 'added' | 'rewritten' | 'kept' | 'deleted';

export interface UrlChangeRecord {
  kind: 'url';
  change: UrlChangeKind;
  loc: string;
  /** The lastmod published for it (none for a removal, or when it has none). */
  lastmod?: string;
  /** When the change was first observed (UTC, seconds, Z). */
  at: string;
}

export interface FileChangeRecord {
  kind: 'file';
  change: FileChangeKind;
  /** Relative to the output folder, `/`-separated. */
  path: string;
  /** Its public URL. */
  url: string;
  /** URLs (or index children) it lists; absent for a deleted file. */
  urls?: number;
}

export type ChangeRecord = UrlChangeRecord | FileChangeRecord;

/** One line of a change set, newline included. */
export function changeSetLine(r: ChangeRecord): string {
  return `${JSON.stringify(r)}\n`;
}

const URL_CHANGES: ReadonlySet<string> = new Set(['added', 'changed', 'removed']);
const FILE_CHANGES: ReadonlySet<string> = new Set(['added', 'rewritten', 'kept', 'deleted']);

/**
 * Reads one line of a change set. Returns undefined for a blank line, the record otherwise, or a
 * sentence saying what is wrong with it (the caller names the file and line).
 */
export function parseChangeSetLine(line: string): ChangeRecord | string | undefined {
  const text = line.trim();
  if (text === '') return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'is not JSON (a change set has one JSON object a line)';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'is not a JSON object';
  const o = v as Record<string, unknown>;
  if (o['kind'] === 'url') {
    if (typeof o['change'] !== 'string' || !URL_CHANGES.has(o['change']))
      return 'has a "change" that is not added, changed or removed';
    if (typeof o['loc'] !== 'string' || o['loc'] === '') return 'has no "loc"';
    if (typeof o['at'] !== 'string') return 'has no "at" time';
    const r: UrlChangeRecord = {
      kind: 'url',
      change: o['change'] as UrlChangeKind,
      loc: o['loc'],
      at: o['at'],
    };
    if (typeof o['lastmod'] === 'string') r.lastmod = o['lastmod'];
    return r;
  }
  if (o['kind'] === 'file') {
    if (typeof o['change'] !== 'string' || !FILE_CHANGES.has(o['change']))
      return 'has a "change" that is not added, rewritten, kept or deleted';
    if (typeof o['path'] !== 'string' || typeof o['url'] !== 'string') return 'has no "path" or "url"';
    const r: FileChangeRecord = {
      kind: 'file',
      change: o['change'] as FileChangeKind,
      path: o['path'],
      url: o['url'],
    };
    if (typeof o['urls'] === 'number') r.urls = o['urls'];
    return r;
  }
  return 'has a "kind" that is neither "url" nor "file" (is this a sitemapkit change set?)';
}
