/**
 * Honest lastmod (issue 12): search engines stop trusting `lastmod` values that change when the
 * page did not. Two patterns give such values away, and the writer watches for both while entries
 * stream by (a few fields, whatever the size of the set):
 *
 * - **one value**: every lastmod of the set is the same text (a CMS that sends one
 *   `Last-Modified` for all pages, an export that stamps the export time);
 * - **the build time**: every lastmod lies within {@link LASTMOD_NEAR_MS} of the build time (the
 *   file times of a fresh checkout or of a site generated just before, read by `--lastmod mtime`).
 *
 * A set with fewer than {@link LASTMOD_MIN_URLS} lastmods never counts: a small site published in
 * one go honestly has one date. Entries without a lastmod do not count either way.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import type { SitemapEntry } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { changeHash } from './change-hash.js';
import type { Sink } from './sink.js';

/** `warn` (default): a warning; `drop`: the warning, and the set is written without lastmod; `keep`: nothing. */
export type LastmodPolicy = 'keep' | 'warn' | 'drop';

/** Fewest lastmods a set needs before its values are judged. */
export const LASTMOD_MIN_URLS = 20;
/** How close to the build time (either side) every lastmod must lie to look like file times of the build. */
export const LASTMOD_NEAR_MS: number = 15 * 60_000;

/** Checks `lastmodPolicy` once; `drop` needs a sink it can read back before the commit. */
export function resolveLastmodPolicy(
  value: unknown,
  output: { kind: 'folder' | 'memory' | 'streams' } | { kind: 'sink'; sink: Sink },
): LastmodPolicy {
  const policy = value ?? 'warn';
  if (policy !== 'keep' && policy !== 'warn' && policy !== 'drop') {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `lastmodPolicy must be keep, warn or drop, not ${String(value)}`,
    );
  }
  if (policy === 'drop') {
    const readable =
      output.kind === 'folder' ||
      output.kind === 'memory' ||
      (output.kind === 'sink' && output.sink.renames && typeof output.sink.read === 'function');
    if (!readable) {
      throw new SitemapkitError(
        'ERR_OPTIONS',
        "lastmodPolicy 'drop' rewrites the set before it is published, so it needs a folder, memory, or a Sink that renames and has read(); web streams cannot be read back",
      );
    }
  }
  return policy;
}

/** What the watch found: why the set's lastmods look untrustworthy. */
export interface LastmodVerdict {
  kind: 'same' | 'near';
  /** Lastmods in the set. */
  count: number;
  /** The one value (`same`), or the first value seen (`near`). */
  example: string;
}

/** Watches the lastmods of a set as they are written. */
export class LastmodWatch {
  readonly #build: number;
  count = 0;
  #first: string | undefined;
  #same = true;
  #near = true;

  constructor(buildTime: Date) {
    this.#build = buildTime.getTime();
  }

  observe(lastmod: string | undefined): void {
    if (lastmod === undefined) return;
    this.count++;
    if (this.#first === undefined) {
      this.#first = lastmod;
      this.#near = this.#isNear(lastmod);
      return;
    }
    // Once both patterns are ruled out, nothing more is looked at (the common, honest case).
    if (lastmod === this.#first || !(this.#same || this.#near)) return;
    this.#same = false;
    if (this.#near && !this.#isNear(lastmod)) this.#near = false;
  }

  #isNear(lastmod: string): boolean {
    return Math.abs(Date.parse(lastmod) - this.#build) <= LASTMOD_NEAR_MS;
  }

  /** The verdict once every entry is in, or undefined when the lastmods look honest. */
  verdict(): LastmodVerdict | undefined {
    if (this.count < LASTMOD_MIN_URLS || this.#first === undefined) return undefined;
    if (this.#same) return { kind: 'same', count: this.count, example: this.#first };
    if (this.#near) return { kind: 'near', count: this.count, example: this.#first };
    return undefined;
  }
}

/** The warning for a verdict; `dropped` says the set was written without them. */
export function lastmodFinding(v: LastmodVerdict, buildTime: Date, dropped: boolean): Diagnostic {
  const n = v.count.toLocaleString('en-US');
  const what =
    v.kind === 'same'
      ? `all ${n} lastmod values are the same (${v.example})`
      : `all ${n} lastmod values lie within ${LASTMOD_NEAR_MS / 60_000} minutes of the build time (${buildTime.toISOString().slice(0, 19)}Z), like file times of a fresh checkout`;
  const then = dropped
    ? 'so the sitemaps were written without lastmod'
    : 'give real modification times, or pass --lastmod-policy drop (lastmodPolicy: "drop") to leave them out';
  return {
    code: 'lastmod-untrustworthy',
    severity: 'warning',
    message: `${what}: search engines stop trusting lastmod that does not follow real changes, ${then}`,
    field: 'lastmod',
  };
}

/**
 * A manifest entry line with a second hash: the entry's change hash without its lastmod, which
 * replaces the first when the lastmods are dropped (so that `submit --since` sees what changed in
 * the set as published). Only under `drop`, and taken out again at the end either way.
 */
export function withBareHash(line: string, e: SitemapEntry, xml: boolean): string {
  const { lastmod: _dropped, ...bare } = e;
  const end = line.lastIndexOf('}');
  return `${line.slice(0, end)},"h0":"${changeHash(bare, xml)}"${line.slice(end)}`;
}

/** A manifest entry line as published: `dropped` keeps the bare hash and no lastmod; else as written. */
export function finalManifestLine(line: string, dropped: boolean): string {
  if (line.startsWith('],')) return line;
  if (!dropped) return line.replace(/,"h0":"[0-9a-f]+"/, '');
  return line
    .replace(/,"lastmod":"[^"]*"/, '')
    .replace(/"hash":"[0-9a-f]+","h0":"([0-9a-f]+)"/, '"hash":"$1"');
}

/** The `<url>` lines of a urlset without their `<lastmod>` (only `<url>` has an unprefixed lastmod). */
export function stripLastmods(text: string): string {
  return text.includes('<lastmod>') ? text.replace(/<lastmod>[^<]*<\/lastmod>/g, '') : text;
}
