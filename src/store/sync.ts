/**
 * Imports into the store: records read and normalised exactly as `generate` reads them (the
 * writer's intake: same normalisation, `onInvalid`, diagnostics and duplicate detection), then
 * compared with what the store holds, a thousand at a time. New URLs are placed in a file, changed
 * ones rewritten (moved when they outgrow their file), and, for a full-set sync, URLs the input no
 * longer lists are removed. Honest lastmod: a lastmod from the input always wins; without one, a
 * URL gets the time an import first observed a change of its content, never the time it was
 * first seen.
 */
import type { SitemapEntry } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { changeHash } from '../writer/change-hash.js';
import { Dedupe } from '../writer/dedupe.js';
import { Findings } from '../writer/findings.js';
import { consume, type IntakeTarget } from '../writer/intake.js';
import { type ResolvedWriterOptions, resolveWriterOptions } from '../writer/options.js';
import { type Extension, textLine, urlXml } from '../writer/serialize.js';
import type { EntrySource } from '../writer/write-sitemaps.js';
import type { CompareRow, KnownRow, LightRow, NewUrlRow, StoreBackend, UrlRow } from './backend.js';
import type { ImportOptions, StoreSettings } from './options.js';
import type { Shards } from './shards.js';
import type { BuildSpool } from './spool.js';

const BATCH = 1000;
const PAGE = 5000;

/** What an import did. */
export interface ImportCounts {
  /** Records read. */
  records: number;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  /** Records left out (invalid or duplicate, under `onInvalid: 'skip'`). */
  skipped: number;
}

export interface ImportContext {
  backend: StoreBackend;
  shards: Shards;
  settings: StoreSettings;
  /** The generation of this write. */
  gen: number;
  /** The generation the published set was built at (URLs born after it were never published). */
  published: number;
  /** The time of this import (UTC, seconds, Z). */
  now: string;
  step: (name: string) => Promise<void>;
  /** Where a first import keeps its texts for the build that follows (`syncAndBuild`). */
  spool?: BuildSpool | undefined;
}

/** A growable bit set over row ids: which live rows an import saw. */
class IdSet {
  #bits = new Uint8Array(1 << 16);
  add(id: number): void {
    const i = id >>> 3;
    if (i >= this.#bits.length) {
      const next = new Uint8Array(Math.max(i + 1, this.#bits.length * 2));
      next.set(this.#bits);
      this.#bits = next;
    }
    this.#bits[i]! |= 1 << (id & 7);
  }
  has(id: number): boolean {
    const i = id >>> 3;
    return i < this.#bits.length && (this.#bits[i]! & (1 << (id & 7))) !== 0;
  }
}

// The helpers below copy an entry only when they must: a million-URL import calls each once a URL,
// and an entry with no lastmod (or only loc, lastmod and section) needs no copy.
function withoutLastmod(e: SitemapEntry): SitemapEntry {
  if (e.lastmod === undefined) return e;
  const { lastmod: _l, ...rest } = e;
  return rest;
}

/** The entry as JSON when it holds more than the columns already do (loc, lastmod, section). */
function entryJson(e: SitemapEntry): string | null {
  let more = false;
  for (const key in e) {
    if (key !== 'loc' && key !== 'lastmod' && key !== 'section') {
      more = true;
      break;
    }
  }
  if (!more) return null;
  const { loc: _loc, lastmod: _l, section: _s, ...rest } = e;
  return Object.keys(rest).length === 0 ? null : JSON.stringify(rest);
}

export class Importer implements IntakeTarget {
  readonly o: ResolvedWriterOptions;
  readonly findings: Findings;
  readonly dedupe: Dedupe = new Dedupe();
  records = 0;
  readonly counts: ImportCounts = { records: 0, added: 0, changed: 0, removed: 0, unchanged: 0, skipped: 0 };
  readonly #c: ImportContext;
  readonly #declared: ReadonlySet<Extension>;
  readonly #seen = new IdSet();
  #batch: SitemapEntry[] = [];
  /** The store held no row at all: nothing to look up, nothing to remove. */
  #fresh = false;

  constructor(c: ImportContext, options: ImportOptions) {
    this.#c = c;
    const s = c.settings;
    if (s.baseUrl === undefined) {
      throw new SitemapkitError(
        'ERR_OPTIONS',
        'this store has no base URL yet: give baseUrl for its first import',
      );
    }
    this.o = resolveWriterOptions({
      output: 'memory',
      baseUrl: s.baseUrl,
      format: s.format,
      ...(s.format === 'xml' && { extensions: s.extensions }),
      onInvalid: options.onInvalid ?? 'fail',
      allowHosts: options.allowHosts ?? [],
      legacy: options.legacy === true,
      ...(options.onDiagnostic !== undefined && { onDiagnostic: options.onDiagnostic }),
      ...(options.onProgress !== undefined && { onProgress: options.onProgress }),
      ...(options.signal !== undefined && { signal: options.signal }),
    });
    this.findings = new Findings(this.o.onInvalid, this.o.onDiagnostic);
    this.#declared = new Set(s.format === 'xml' ? s.extensions : []);
  }

  declare(): void {
    // The store's namespaces are fixed (see StoreSettings.extensions).
  }

  /** The store keeps an entry as given: what depends on the build's time is decided at build. */
  prepare(e: SitemapEntry): SitemapEntry {
    return e;
  }

  emit(e: SitemapEntry): Promise<void> | undefined {
    if (!this.findings.writing) return undefined;
    this.#batch.push(e);
    return this.#batch.length >= BATCH ? this.#flush() : undefined;
  }

  /** Reads every record of `source` into the store. Throws `ERR_INVALID_ENTRY` under `fail`. */
  async read(source: EntrySource): Promise<void> {
    this.#fresh = (await this.#c.backend.scan(0, 1)).length === 0;
    const run = async (): Promise<void> => {
      await consume(this, source as Iterable<unknown>);
      await this.#flush();
    };
    if (this.#fresh) await this.#c.backend.bulk(run);
    else await run();
    this.counts.records = this.records;
    this.counts.skipped = this.findings.skipped;
    const f = this.findings;
    if (this.o.onInvalid === 'fail' && f.invalid > 0) {
      throw new SitemapkitError(
        'ERR_INVALID_ENTRY',
        `${f.invalid.toLocaleString('en-US')} record${f.invalid === 1 ? ' is' : 's are'} invalid, so nothing was imported (the store and the published sitemaps are untouched). First: ${f.firstProblem}`,
        { hint: 'Fix the records, or pass --on-invalid skip to leave them out.' },
      );
    }
  }

  /** The serialised entry and its length; the text is not kept for a plain entry (see UrlRow.fragment). */
  #fragment(
    e: SitemapEntry,
    lastmod: string | null,
    json: string | null,
  ): { text: string; fragment: string | null; len: number } {
    const withLastmod: SitemapEntry =
      lastmod === null ? withoutLastmod(e) : lastmod === e.lastmod ? e : { ...e, lastmod };
    const text =
      this.#c.settings.format === 'xml' ? urlXml(withLastmod, this.#declared) : textLine(withLastmod);
    return { text, fragment: json === null ? null : text, len: Buffer.byteLength(text) };
  }

  async #flush(): Promise<void> {
    const batch = this.#batch;
    if (batch.length === 0) return;
    this.#batch = [];
    const c = this.#c;
    const xml = c.settings.format === 'xml';
    // Most URLs of a full-set sync are unchanged: they are settled from a few columns, and only
    // the others are read whole.
    const compared = this.#fresh
      ? new Map<string, CompareRow>()
      : await c.backend.compare(batch.map((e) => e.loc));
    const todo: Array<{ e: SitemapEntry; hash: string; id: number | undefined }> = [];
    const wanted: number[] = [];
    for (const e of batch) {
      const hash = changeHash(withoutLastmod(e), xml);
      const r = compared.get(e.loc);
      if (
        r !== undefined &&
        r.file !== null &&
        r.hash === hash &&
        r.inputLastmod === (e.lastmod ?? null) &&
        r.section === (e.section ?? '')
      ) {
        this.#seen.add(r.id);
        this.counts.unchanged++;
        continue;
      }
      if (r !== undefined) wanted.push(r.id);
      todo.push({ e, hash, id: r?.id });
    }
    const found = wanted.length === 0 ? new Map<number, KnownRow>() : await c.backend.rows(wanted);
    const inserts: NewUrlRow[] = [];
    // A first import's texts, by insert, for the build that follows (store/spool.ts).
    const texts: string[] | undefined = this.#fresh && c.spool !== undefined ? [] : undefined;
    const updates: UrlRow[] = [];
    for (const { e, hash, id } of todo) {
      const row = id === undefined ? undefined : found.get(id);
      const inputLastmod = e.lastmod ?? null;
      const section = e.section ?? '';
      const news = e.news === undefined ? 0 : 1;
      if (row === undefined) {
        const json = entryJson(e);
        const { text, fragment, len } = this.#fragment(e, inputLastmod, json);
        const file = c.shards.place(section, len, news).id;
        // A first import: the text as the build would write it (its published lastmod is the input's).
        texts?.push(text);
        // Never the time it was first seen: a first import does not claim every URL changed today.
        inserts.push({
          loc: e.loc,
          section,
          file,
          hash,
          inputLastmod,
          changedAt: null,
          firstSeen: c.now,
          len,
          news,
          entry: json,
          fragment,
          born: c.gen,
          changed: c.gen,
          removedAt: null,
        });
        this.counts.added++;
        continue;
      }
      const contentChanged = row.hash !== hash;
      if (row.file !== null) {
        this.#seen.add(row.id);
        if (!contentChanged && row.inputLastmod === inputLastmod && row.section === section) {
          this.counts.unchanged++;
          continue;
        }
      }
      const changedAt = contentChanged ? c.now : row.changedAt;
      const json = entryJson(e);
      const { fragment, len } = this.#fragment(e, inputLastmod ?? changedAt, json);
      const next: UrlRow = {
        ...row,
        section,
        hash,
        inputLastmod,
        changedAt,
        len,
        news,
        entry: json,
        fragment,
      };
      if (row.file === null) {
        // A removed URL comes back: a new file, and reported as added.
        next.file = c.shards.place(section, len, news).id;
        next.born = c.gen;
        next.changed = c.gen;
        next.removedAt = null;
        this.counts.added++;
      } else {
        const old = c.shards.get(row.file)!;
        if (section !== row.section) {
          c.shards.release(old, row.len, row.news);
          next.file = c.shards.place(section, len, news).id;
        } else if (!c.shards.resize(old, row.len, row.news, len, news)) {
          // It outgrew its file: it moves to one with room.
          c.shards.release(old, row.len, row.news);
          next.file = c.shards.place(section, len, news, new Set([old.id])).id;
        }
        // The fragment is a function of the content and the input's lastmod (a section is not in it).
        if (contentChanged || inputLastmod !== row.inputLastmod) {
          next.changed = c.gen;
          this.counts.changed++;
        } else this.counts.unchanged++;
      }
      updates.push(next);
    }
    const ids = await c.backend.insert(inserts);
    if (texts !== undefined)
      for (let k = 0; k < ids.length; k++)
        c.spool!.add(inserts[k]!.file!, ids[k]!, texts[k]!, inserts[k]!.len);
    for (const id of ids) this.#seen.add(id);
    for (const u of updates) this.#seen.add(u.id);
    await c.backend.update(updates);
    await c.step('import:batch');
  }

  /** Removes every live URL this import did not see (a full-set sync). */
  async removeUnseen(): Promise<void> {
    const c = this.#c;
    // A store that was empty holds nothing the input could have left out.
    if (this.#fresh) return;
    const gone = await c.backend.unseen((id) => this.#seen.has(id));
    this.counts.removed += await removeRows(c, gone);
  }
}

/** Removes live rows: tombstones for published ones, deleted outright when never published. */
export async function removeRows(c: ImportContext, rows: readonly LightRow[]): Promise<number> {
  const deleted: number[] = [];
  const buried: number[] = [];
  for (const r of rows) {
    if (r.file === null) continue;
    const f = c.shards.get(r.file);
    if (f !== undefined) c.shards.release(f, r.len, r.news);
    if (r.born > c.published) deleted.push(r.id);
    else buried.push(r.id);
  }
  await c.backend.deleteIds(deleted);
  await c.backend.bury(buried, c.now, c.gen);
  return deleted.length + buried.length;
}

/**
 * Merges away the emptiest files of every section with more than twice the files it needs, and
 * drops empty files. A merged URL keeps its content; only its file changes.
 */
export async function compact(c: ImportContext): Promise<void> {
  c.shards.dropEmpty();
  for (const section of c.shards.sections()) {
    // Bounded: each round removes a file (a round that had to open one instead ends the loop).
    for (let rounds = c.shards.files(section).length; rounds > 0; rounds--) {
      const victim = c.shards.mergeCandidate(section);
      if (victim === undefined) break;
      const except = new Set([victim.id]);
      c.spool?.forget(victim.id);
      let after = 0;
      for (;;) {
        const page = await c.backend.fragments(victim.id, after, PAGE);
        if (page.length === 0) break;
        const moves = new Map<number, number[]>();
        for (const r of page) {
          const target = c.shards.place(section, r.len, r.news, except);
          c.shards.release(victim, r.len, r.news);
          const ids = moves.get(target.id);
          if (ids === undefined) moves.set(target.id, [r.id]);
          else ids.push(r.id);
        }
        for (const [file, ids] of moves) {
          c.spool?.forget(file);
          await c.backend.move(ids, file);
        }
        after = page.at(-1)!.id;
      }
      c.shards.drop(victim);
    }
  }
}
