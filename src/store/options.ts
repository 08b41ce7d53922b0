/**
 * The options of a site store, resolved once. Settings that decide a file's bytes or its budget
 * (base URL, format, declared namespaces, budgets) belong to the store: given when it is created,
 * kept in it, and refused when a later call gives other values (files would change under a URL
 * search engines know).
 */
import { duration, wholeNumber } from '../core/checks.js';
import type { DiagnosticHandler } from '../core/diagnostics.js';
import { SitemapkitError } from '../core/errors.js';
import { MAX_BYTES, MAX_NEWS_PER_FILE, MAX_URLS } from '../core/limits.js';
import { locationPrefix } from '../core/url.js';
import type { OnInvalid } from '../writer/options.js';
import type { Extension } from '../writer/serialize.js';

/** Options of {@link openStore}. */
export interface StoreOptions {
  /** Public URL of the output folder; kept in the store on first use. Required for a new store's first import. */
  baseUrl?: string;
  /** `xml` or `txt`; kept in the store. @default 'xml' */
  format?: 'xml' | 'txt';
  /**
   * Extension namespaces every urlset declares, fixed for the store so that a file's bytes depend
   * only on its own entries. @default ['image', 'video', 'news', 'xhtml']
   */
  extensions?: readonly Extension[];
  /** URLs per file, 1 to 50,000; kept in the store. @default 50000 */
  maxUrlsPerFile?: number;
  /** Uncompressed bytes per file, 4,096 to 52,428,800; kept in the store. @default 52428800 */
  maxBytesPerFile?: number;
  /** News entries per file, 1 to 1,000; kept in the store. @default 1000 */
  maxNewsPerFile?: number;
  /** How long removed URLs are kept as tombstones (a duration: `30d`, `12h`, or seconds). @default 30 days */
  keepRemoved?: number | string;
  /** The clock: the time of an observed change; `SOURCE_DATE_EPOCH` (seconds) wins when set. */
  now?: () => Date;
  /**
   * Open for reading only (serving from an app while a cron job or a CMS hook writes): no lock is
   * taken, writes are refused, and a read that meets a writer holding an SQLite store fails with
   * `ERR_BUSY` (retryable). The store must exist. @default false
   */
  readOnly?: boolean;
  /**
   * SQLite: run the store's connection in a worker thread, so that SQLite's work overlaps reading
   * and writing the files on a second core (see docs/store.md, "Speed"). @default true for a new
   * or empty store (its first build) on a machine with more than one core, else false
   */
  worker?: boolean;
  /** Fault injection for tests: called at each step of an import and a build. */
  onStep?: (step: string) => void | Promise<void>;
}

/** How records are read by `add` and `sync` (as `generate` reads them). */
export interface ImportOptions {
  /** @default 'fail' */
  onInvalid?: OnInvalid;
  allowHosts?: readonly string[];
  legacy?: boolean;
  onDiagnostic?: DiagnosticHandler;
  onProgress?: (records: number) => void;
  signal?: AbortSignal;
}

export interface StoreSettings {
  baseUrl: string | undefined;
  format: 'xml' | 'txt';
  extensions: Extension[];
  maxUrlsPerFile: number;
  maxBytesPerFile: number;
  maxNewsPerFile: number;
}

/** Bytes of every file kept for its header and footer (the declaration, the stylesheet line, the urlset tags). */
export const HEADER_RESERVE = 2048;

const DEFAULT_EXTENSIONS: Extension[] = ['image', 'video', 'news', 'xhtml'];
const EXTENSIONS: ReadonlySet<string> = new Set(['image', 'video', 'news', 'xhtml', 'mobile']);

function bad(message: string, hint?: string): SitemapkitError {
  return new SitemapkitError('ERR_OPTIONS', message, hint === undefined ? {} : { hint });
}

export function normalBaseUrl(value: string): string {
  try {
    return locationPrefix(value, 'dir');
  } catch {
    throw bad(`baseUrl "${value}" must be an absolute http(s) URL such as https://example.com/`);
  }
}

/** The settings the options ask for, each undefined when not given. */
export function askedSettings(o: StoreOptions): Partial<StoreSettings> {
  const out: Partial<StoreSettings> = {};
  if (o.baseUrl !== undefined) out.baseUrl = normalBaseUrl(o.baseUrl);
  if (o.format !== undefined) {
    if (o.format !== 'xml' && o.format !== 'txt')
      throw bad(`format must be xml or txt, got ${String(o.format)}`);
    out.format = o.format;
  }
  if (o.extensions !== undefined) {
    for (const x of o.extensions)
      if (!EXTENSIONS.has(x))
        throw bad(`extensions: "${String(x)}" is not one of image, video, news, xhtml, mobile`);
    out.extensions = [...new Set(o.extensions)].sort();
  }
  if (o.maxUrlsPerFile !== undefined)
    out.maxUrlsPerFile = wholeNumber('maxUrlsPerFile', o.maxUrlsPerFile, MAX_URLS, { min: 1, max: MAX_URLS });
  if (o.maxBytesPerFile !== undefined)
    out.maxBytesPerFile = wholeNumber('maxBytesPerFile', o.maxBytesPerFile, MAX_BYTES, {
      min: 4096,
      max: MAX_BYTES,
    });
  if (o.maxNewsPerFile !== undefined)
    out.maxNewsPerFile = wholeNumber('maxNewsPerFile', o.maxNewsPerFile, MAX_NEWS_PER_FILE, {
      min: 1,
      max: MAX_NEWS_PER_FILE,
    });
  return out;
}

/**
 * The store's settings: those it holds (`stored`, from meta), completed by what was asked for; a
 * value asked for that differs from the stored one is refused.
 */
export function mergeSettings(
  stored: Partial<StoreSettings>,
  asked: Partial<StoreSettings>,
  where: string,
): StoreSettings {
  for (const key of Object.keys(asked) as Array<keyof StoreSettings>) {
    const a = JSON.stringify(asked[key]);
    const s = stored[key];
    if (s !== undefined && JSON.stringify(s) !== a) {
      throw new SitemapkitError(
        'ERR_OPTIONS',
        `this store was made with ${key} ${JSON.stringify(s)}, not ${a}: a store keeps its files' settings so that URLs keep their files`,
        { where, hint: `leave the option out (the store's value is used), or use a new store for ${a}` },
      );
    }
  }
  return {
    baseUrl: stored.baseUrl ?? asked.baseUrl,
    format: stored.format ?? asked.format ?? 'xml',
    extensions: stored.extensions ?? asked.extensions ?? [...DEFAULT_EXTENSIONS],
    maxUrlsPerFile: stored.maxUrlsPerFile ?? asked.maxUrlsPerFile ?? MAX_URLS,
    maxBytesPerFile: stored.maxBytesPerFile ?? asked.maxBytesPerFile ?? MAX_BYTES,
    maxNewsPerFile: stored.maxNewsPerFile ?? asked.maxNewsPerFile ?? MAX_NEWS_PER_FILE,
  };
}

export const DAY_MS = 86_400_000;

export function keepRemovedMs(v: number | string | undefined): number {
  if (typeof v === 'string' && /^\d+(?:\.\d+)?d$/.test(v.trim()))
    return Number(v.trim().slice(0, -1)) * DAY_MS;
  return duration('keepRemoved', v, 30 * DAY_MS, { unit: 's' });
}

/** The publish gate: `0.1` is a share of the published URLs, `{ count: 500 }` a number of them. */
export type MaxDrop = number | { count: number };

export function resolveMaxDrop(v: MaxDrop | string | undefined): { share: number } | { count: number } {
  if (v === undefined) return { share: 0.1 };
  if (typeof v === 'object' && v !== null && typeof v.count === 'number') {
    return { count: wholeNumber('maxDrop.count', v.count, 0, { min: 0 }) };
  }
  if (typeof v === 'string') {
    const s = v.trim();
    if (s.endsWith('%')) {
      const n = Number(s.slice(0, -1));
      if (s.length > 1 && Number.isFinite(n) && n >= 0 && n <= 100) return { share: n / 100 };
    } else if (/^\d+$/.test(s)) return { count: Number(s) };
  } else if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1) return { share: v };
  throw bad(
    `maxDrop must be a share from 0 to 1 (or a percentage such as 10%) or a count such as 500, not ${JSON.stringify(v)}`,
  );
}
