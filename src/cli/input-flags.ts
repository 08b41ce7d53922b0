/**
 * The flags that say how inputs are read (`generate`: encoding, CSV delimiter and columns) and
 * which page images are listed (`generate --from-dir`, `crawl`), parsed with the library's checks.
 */
import { availableParallelism } from 'node:os';
import { isSitemapkitError } from '../core/errors.js';
import { type ImageFilterOptions, resolveImageFilter } from '../page/image-filter.js';
import { checkEncoding } from '../sources/text-decode.js';
import type { InputOptions } from '../sources/url-lists.js';
import { UsageError } from './exit.js';

/** `--encoding LABEL`: a WHATWG label, checked now so a typo is a usage error before any reading. */
export function encodingArg(raw: string): string {
  try {
    return checkEncoding(raw.trim());
  } catch {
    throw new UsageError(
      `--encoding "${raw}" is not an encoding this tool knows; give one such as utf-8, windows-1252, latin1, utf-16le or utf-16be`,
    );
  }
}

const DELIMITERS: Record<string, string> = { comma: ',', semicolon: ';', tab: '\t', '\\t': '\t', pipe: '|' };

/** `--delimiter ;` (or a word: comma, semicolon, tab, pipe). */
export function delimiterArg(raw: string): string {
  const d = DELIMITERS[raw.toLowerCase()] ?? raw;
  if ([...d].length !== 1 || d === '"' || d === '\n' || d === '\r') {
    throw new UsageError(`--delimiter needs one character (or comma, semicolon, tab, pipe), not "${raw}"`);
  }
  return d;
}

/**
 * `--columns loc=URL,lastmod="Last Modified"` (repeatable): FIELD=HEADER pairs separated by
 * commas, a header in double quotes when it holds a comma.
 */
export function columnsArg(raw: string, previous: Record<string, string> = {}): Record<string, string> {
  const out = { ...previous };
  const re = /\s*([^=,\s]+)\s*=\s*(?:"([^"]*)"|([^,]*))\s*(?:,|$)/y;
  let at = 0;
  while (at < raw.length) {
    re.lastIndex = at;
    const m = re.exec(raw);
    if (m === null || re.lastIndex === at) {
      throw new UsageError(
        `--columns needs FIELD=HEADER pairs separated by commas, such as loc=URL,lastmod="Last Modified"; cannot read "${raw.slice(at)}"`,
      );
    }
    const header = (m[2] ?? m[3] ?? '').trim();
    if (header === '') throw new UsageError(`--columns: give the header of ${m[1]}, as in ${m[1]}="Header"`);
    out[m[1]!] = header;
    at = re.lastIndex;
  }
  return out;
}

/** `--image-max-share 0.5` (or `50%`). */
export function shareArg(raw: string): number {
  const s = raw.trim();
  const n = s.endsWith('%') ? Number(s.slice(0, -1)) / 100 : Number(s);
  try {
    return resolveImageFilter({ maxShare: s === '' ? Number.NaN : n }).maxShare;
  } catch (e) {
    if (!isSitemapkitError(e)) throw e;
    throw new UsageError(
      `--image-max-share needs a share from 0 to 1 (or a percentage such as 50%), not "${raw}"`,
    );
  }
}

export interface InputFlags {
  encoding?: string;
  delimiter?: string;
  columns?: Record<string, string>;
  ignoreColumns?: string[];
  extraColumns: 'fail' | 'ignore';
  /** `--threads 1`: a JSONL file is read and checked on a second thread. */
  threads?: number;
}

/**
 * `generate --threads` when not given: 1 (a JSONL file read and checked on a second thread) where
 * the machine has a second CPU, else 0. On a quiet machine the second thread takes the run from
 * 3.7 to about 2.6 s at a million URLs; on one CPU it only adds work (docs/performance.md, Writing).
 */
export function defaultJsonlThreads(cpus: number = availableParallelism()): number {
  return cpus >= 2 ? 1 : 0;
}

export interface ImageFlags {
  imageMaxShare?: number;
  excludeImages?: string[];
}

/** The readers' options from the flags. */
export function inputOptions(f: InputFlags): InputOptions {
  return {
    ...(f.encoding !== undefined && { encoding: f.encoding }),
    ...(f.delimiter !== undefined && { delimiter: f.delimiter }),
    ...(f.columns !== undefined && { columns: f.columns }),
    ignoreColumns: f.ignoreColumns ?? [],
    extraColumns: f.extraColumns,
    ...(f.threads === 1 && { threads: true }),
  };
}

/** The image filter from the flags. */
export function imageFilterOptions(f: ImageFlags): ImageFilterOptions {
  return {
    ...(f.imageMaxShare !== undefined && { maxShare: f.imageMaxShare }),
    exclude: f.excludeImages ?? [],
  };
}

/** A repeatable flag (no default, so --help shows none). A glob may hold commas (`{a,b}`): not split. */
export function appendArg(raw: string, previous: string[] = []): string[] {
  return [...previous, raw];
}

/** A repeatable list flag whose value may also hold several items separated by commas. */
export function listArg(raw: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  ];
}
