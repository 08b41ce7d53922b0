/**
 * `writeSitemaps`: any (async) iterable of entries → a complete, protocol-exact sitemap set,
 * replaced atomically. Memory stays flat (one buffered chunk per open file, the look-ahead of
 * 1,000 entries, and the hashed duplicate set).
 *
 * Crash safety: everything is written into `OUT/.sitemapkit-tmp-<pid>-<id>/` first. Then children
 * are renamed into place, then extra indexes, then the entry point, then the manifest; old files
 * of the previous manifest that are no longer used are removed last. Each rename replaces a
 * complete file by a complete file, so at any moment the entry point and every file it references
 * are whole, valid sitemaps from the previous build or from this one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../core/diagnostics.js';
import type { SitemapEntry } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { HashedStringSet, hashHex } from '../core/hash.js';
import { formatUtc } from '../core/lastmod.js';
import { MAX_NEWS_PER_FILE } from '../core/limits.js';
import { type EntryProblem, normalizeEntry } from '../core/normalize.js';
import { batchesOf, ORIGIN, type RecordOrigin } from './batches.js';

export { ORIGIN, type RecordOrigin };

import { syncDir } from './atomic.js';
import { FileSink } from './file-sink.js';
import { HreflangGroups } from './hreflang.js';
import { buildHtmlSitemap, type HtmlPagesResult } from './html-pages.js';
import {
  MANIFEST_NAME,
  MANIFEST_OPEN,
  type ManifestFile,
  type ManifestHeader,
  manifestEntryLine,
  manifestTailLine,
  readManifestHeader,
} from './manifest.js';
import { type ResolvedWriterOptions, resolveWriterOptions, type WriteSitemapsOptions } from './options.js';
import { updateRobotsFile } from './robots-line.js';
import {
  EXTENSION_NS,
  type Extension,
  extensionsOf,
  hasExtensions,
  INDEX_CLOSE,
  indexItem,
  indexOpen,
  textLine,
  URLSET_CLOSE,
  urlsetOpen,
  urlXml,
} from './serialize.js';

/**
 * What a source yields for a record it could not decode (a line that is not JSON, say): the writer
 * reports it as an invalid record (`record-unreadable`) under the `onInvalid` policy.
 */
export class UnreadableRecord {
  readonly message: string;
  readonly origin: RecordOrigin | undefined;
  constructor(message: string, origin?: RecordOrigin) {
    this.message = message;
    this.origin = origin;
  }
}

/** One file of the written set. */
export interface WrittenFile {
  /** Absolute path. */
  path: string;
  /** Public URL. */
  url: string;
  kind: ManifestFile['kind'];
  /** URLs it lists (children, for an index). */
  urls: number;
  /** Uncompressed bytes. */
  bytes: number;
}

export interface WriteSitemapsResult {
  /** The entry point: `sitemap.xml[.gz]` (or `sitemap.txt[.gz]`). */
  entry: WrittenFile;
  /** Every file that robots.txt should name: the entry point, then any extra indexes. */
  roots: WrittenFile[];
  /** Every sitemap file written (children, indexes and the entry point). */
  files: WrittenFile[];
  /** HTML site map pages, when `html` was asked for. */
  html: WrittenFile[];
  /** URLs written. */
  urls: number;
  /** Records left out (invalid or duplicate, under `onInvalid: 'skip'`). */
  skipped: number;
  /** Findings, by severity. */
  counts: { error: number; warning: number; info: number };
  /** The first 1,000 findings (all of them went to `onDiagnostic`). */
  diagnostics: Diagnostic[];
}

const LOOKAHEAD = 1000;
const TMP_PREFIX = '.sitemapkit-tmp-';
const BUNDLED_XSL = fileURLToPath(new URL('../../assets/sitemap.xsl', import.meta.url));

interface Child {
  tmpPath: string;
  name: string;
  section: string;
  urls: number;
  bytes: number;
  sha256: string;
}

interface Stream {
  section: string;
  next: number;
  sink: FileSink | undefined;
  name: string;
  urls: number;
  news: number;
  children: Child[];
}

function pad(n: number): string {
  return String(n).padStart(5, '0');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temp folders left by runs that died (kill -9, power cut); never one whose process still runs. */
async function sweepTemp(outDir: string): Promise<void> {
  const names = await readdir(outDir);
  for (const name of names) {
    if (!name.startsWith(TMP_PREFIX)) continue;
    const pid = Number(name.slice(TMP_PREFIX.length).split('-')[0]);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
    await rm(join(outDir, name), { recursive: true, force: true });
  }
}

class Run {
  readonly o: ResolvedWriterOptions;
  readonly tmp: string;
  readonly ext: string;
  readonly gz: string;
  readonly streams = new Map<string, Stream>();
  readonly seen: HashedStringSet | undefined;
  readonly hreflang = new HreflangGroups();
  readonly diagnostics: Diagnostic[] = [];
  readonly counts = { error: 0, warning: 0, info: 0 };
  declared: ReadonlySet<Extension> = new Set();
  closeBytes: number;
  openBytes = 0;
  records = 0;
  urls = 0;
  skipped = 0;
  invalid = 0;
  firstProblem: string | undefined;
  entries: FileSink;
  html: ReturnType<typeof buildHtmlSitemap> | undefined;

  constructor(o: ResolvedWriterOptions, tmp: string) {
    this.o = o;
    this.tmp = tmp;
    this.ext = o.format === 'txt' ? 'txt' : 'xml';
    this.gz = o.gzip === false ? '' : '.gz';
    this.seen = o.dedupe ? new HashedStringSet() : undefined;
    this.closeBytes = o.format === 'txt' ? 0 : URLSET_CLOSE.length;
    this.entries = new FileSink(join(tmp, MANIFEST_NAME), false, { hash: false });
    this.entries.write(MANIFEST_OPEN, MANIFEST_OPEN.length);
    if (o.html !== false) this.html = buildHtmlSitemap(tmp, o.baseUrl, o.html);
  }

  get xslHref(): string | undefined {
    if (this.o.xsl === false) return undefined;
    return 'href' in this.o.xsl ? this.o.xsl.href : 'sitemap.xsl';
  }

  report(d: Diagnostic): void {
    this.counts[d.severity]++;
    if (this.diagnostics.length < 1000) this.diagnostics.push(d);
    this.o.onDiagnostic?.(d);
  }

  problem(
    p: EntryProblem,
    severity: 'error' | 'warning',
    record: number,
    origin: RecordOrigin | undefined,
    loc?: string,
  ): void {
    const d: Diagnostic = { code: p.code, severity, message: p.message, record, field: p.field };
    if (origin?.file !== undefined) d.sitemap = origin.file;
    if (origin?.line !== undefined) d.line = origin.line;
    if (loc !== undefined && loc !== '') d.url = loc;
    if (severity === 'error' && this.firstProblem === undefined) {
      const where = origin?.file
        ? `${origin.file}${origin.line ? `:${origin.line}` : ''}`
        : `record ${record}`;
      this.firstProblem = `${where} (${p.field || 'record'}): ${p.message}`;
    }
    this.report(d);
  }

  invalidRecord(
    problems: EntryProblem[],
    record: number,
    origin: RecordOrigin | undefined,
    loc?: string,
  ): void {
    for (const p of problems) this.problem(p, 'error', record, origin, loc);
    this.invalid++;
    if (this.o.onInvalid === 'skip') this.skipped++;
  }

  /** After the first invalid record under `fail`, nothing more is written: the rest is only checked. */
  get writing(): boolean {
    return this.o.onInvalid === 'skip' || this.invalid === 0;
  }

  setDeclared(ext: Iterable<Extension>): void {
    this.declared = new Set(ext);
    this.openBytes = Buffer.byteLength(urlsetOpen(this.declared, this.xslHref));
  }

  /**
   * Writes one entry. Synchronous unless a file must be rotated or a stream asks to wait: at
   * millions of URLs a promise per record costs more than the serialising does.
   */
  emit(
    e: SitemapEntry,
    record: number,
    item: unknown,
    file?: string,
    line?: number,
  ): Promise<void> | undefined {
    const xml = this.ext === 'xml';
    const s = xml ? urlXml(e, this.declared) : textLine(e);
    const len = Buffer.byteLength(s);
    const headerBytes = xml ? this.openBytes : 0;
    if (headerBytes + len + this.closeBytes > this.o.maxBytesPerFile) {
      this.invalidRecord(
        [
          {
            code: 'entry-too-large',
            field: '',
            message: `this entry alone needs ${len} bytes, more than a file may hold (${this.o.maxBytesPerFile})`,
          },
        ],
        record,
        originFor(item, file, line),
        e.loc,
      );
      return undefined;
    }
    if (!this.writing) return undefined;
    const section = e.section ?? '';
    let st = this.streams.get(section);
    if (st === undefined) {
      st = { section, next: 1, sink: undefined, name: '', urls: 0, news: 0, children: [] };
      this.streams.set(section, st);
    }
    const news = e.news !== undefined;
    if (
      st.sink !== undefined &&
      (st.urls >= this.o.maxUrlsPerFile ||
        st.sink.bytes + len + this.closeBytes > this.o.maxBytesPerFile ||
        (news && st.news >= MAX_NEWS_PER_FILE))
    ) {
      const stream = st;
      return this.closeStream(stream).then(() => this.#append(stream, e, s, len));
    }
    return this.#append(st, e, s, len);
  }

  #append(st: Stream, e: SitemapEntry, s: string, len: number): Promise<void> | undefined {
    const xml = this.ext === 'xml';
    if (st.sink === undefined) {
      st.name = `sitemap-${st.section === '' ? '' : `${st.section}-`}${pad(st.next++)}.${this.ext}${this.gz}`;
      st.sink = new FileSink(join(this.tmp, st.name), this.o.gzip);
      st.urls = 0;
      st.news = 0;
      if (xml) st.sink.write(urlsetOpen(this.declared, this.xslHref), this.openBytes);
    }
    const w1 = st.sink.write(s, len);
    st.urls++;
    if (e.news !== undefined) st.news++;
    this.urls++;
    const line = manifestEntryLine(
      e.lastmod === undefined
        ? { loc: e.loc, hash: changeHash(e, s, xml) }
        : { loc: e.loc, lastmod: e.lastmod, hash: changeHash(e, s, xml) },
      this.urls === 1,
    );
    const w2 = this.entries.write(line, Buffer.byteLength(line));
    if (e.alternates !== undefined) this.hreflang.add(e.loc, e.alternates);
    const w3 = this.html?.add(e);
    if (w1 === undefined && w2 === undefined && w3 === undefined) return undefined;
    return Promise.all([w1, w2, w3]).then(() => undefined);
  }

  async closeStream(st: Stream): Promise<void> {
    const sink = st.sink;
    if (sink === undefined) return;
    st.sink = undefined;
    if (this.ext === 'xml') sink.write(URLSET_CLOSE, URLSET_CLOSE.length);
    const r = await sink.close();
    st.children.push({
      tmpPath: sink.path,
      name: st.name,
      section: st.section,
      urls: st.urls,
      bytes: r.bytes,
      sha256: r.sha256,
    });
  }

  destroyAll(): void {
    for (const st of this.streams.values()) st.sink?.destroy();
    this.entries.destroy();
  }
}

const ALL_EXTENSIONS: ReadonlySet<Extension> = new Set(Object.keys(EXTENSION_NS) as Extension[]);

// Sites repeat the same few lastmod/changefreq/priority combinations across millions of URLs, so
// the hash of each combination is remembered (a bounded cache: it is dropped when it grows large).
let plainHashes = new Map<string, Map<string, Map<number, string>>>();
let plainHashCount = 0;

function plainHash(lastmod: string, changefreq: string, priority: number): string {
  let byFreq = plainHashes.get(lastmod);
  if (byFreq === undefined) {
    if (plainHashCount > 50_000) {
      plainHashes = new Map();
      plainHashCount = 0;
    }
    byFreq = new Map();
    plainHashes.set(lastmod, byFreq);
  }
  let byPriority = byFreq.get(changefreq);
  if (byPriority === undefined) {
    byPriority = new Map();
    byFreq.set(changefreq, byPriority);
  }
  let h = byPriority.get(priority);
  if (h === undefined) {
    h = hashHex(`${lastmod}|${changefreq}|${priority === -1 ? '' : priority}`);
    byPriority.set(priority, h);
    plainHashCount++;
  }
  return h;
}

/**
 * The manifest's change hash of an entry: everything but its loc (the manifest keys on the loc).
 * A plain entry hashes its three fields; one with extensions hashes its XML as written with every
 * namespace declared up front, so the hash does not depend on which file the entry landed in.
 */
function changeHash(e: SitemapEntry, written: string, xml: boolean): string {
  if (!hasExtensions(e)) return plainHash(e.lastmod ?? '', e.changefreq ?? '', e.priority ?? -1);
  const canonical = xml ? urlXml(e, ALL_EXTENSIONS) : written;
  return hashHex(canonical.slice(canonical.indexOf('</loc>')));
}

/** Where a record came from: its batch's file and line, or its own `ORIGIN`. Made only for a finding. */
function originFor(
  item: unknown,
  file: string | undefined,
  line: number | undefined,
): RecordOrigin | undefined {
  if (file !== undefined) return line === undefined ? { file } : { file, line };
  return originOf(item);
}

function originOf(item: unknown): RecordOrigin | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  if (item instanceof UnreadableRecord) return item.origin;
  return (item as { [ORIGIN]?: RecordOrigin })[ORIGIN];
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new SitemapkitError(
      'ERR_ABORTED',
      'interrupted: nothing was replaced; the previous sitemaps are untouched',
      {
        cause: signal.reason,
      },
    );
  }
}

/**
 * Writes sitemaps for every entry of `source` into `options.outDir`, atomically.
 * Throws `ERR_INVALID_ENTRY` (under `onInvalid: 'fail'`, writing nothing) and `ERR_NO_URLS` (zero
 * entries: the previous set stays); both leave the previous output as it was.
 */
export async function writeSitemaps(
  source: Iterable<unknown> | AsyncIterable<unknown>,
  options: WriteSitemapsOptions,
): Promise<WriteSitemapsResult> {
  const o = resolveWriterOptions(options);
  checkAbort(o.signal);
  try {
    await mkdir(o.outDir, { recursive: true });
  } catch (cause) {
    throw new SitemapkitError('ERR_OUTPUT', `cannot create the output folder: ${(cause as Error).message}`, {
      cause,
      where: o.outDir,
    });
  }
  await sweepTemp(o.outDir);
  let previous: ManifestHeader | undefined;
  try {
    previous = await readManifestHeader(o.outDir);
  } catch (cause) {
    throw new SitemapkitError(
      'ERR_OUTPUT',
      `${(cause as Error).message}; move it away or delete it to start afresh`,
      {
        cause,
        where: join(o.outDir, MANIFEST_NAME),
      },
    );
  }
  const tmp = join(o.outDir, `${TMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp);
  const run = new Run(o, tmp);
  try {
    await consume(run, source);
    return await finish(run, previous);
  } catch (error) {
    run.destroyAll();
    await rm(tmp, { recursive: true, force: true });
    throw error;
  }
}

async function consume(run: Run, source: Iterable<unknown> | AsyncIterable<unknown>): Promise<void> {
  const o = run.o;
  const scope = { prefix: o.prefix, allowHosts: o.allowHosts };
  const norm = { scope, legacy: o.legacy };
  const buffer: Array<{
    e: SitemapEntry;
    record: number;
    item: unknown;
    file: string | undefined;
    line: number | undefined;
  }> = [];
  let buffering = o.format === 'xml' && o.extensions === undefined;
  if (!buffering) run.setDeclared(o.extensions ?? []);
  const release = async (): Promise<void> => {
    const used = new Set<Extension>();
    for (const b of buffer) for (const x of extensionsOf(b.e)) used.add(x);
    run.setDeclared(used);
    buffering = false;
    for (const b of buffer) await run.emit(b.e, b.record, b.item, b.file, b.line);
    buffer.length = 0;
  };
  const handle = (item: unknown, file?: string, line?: number): Promise<void> | undefined => {
    const record = ++run.records;
    if ((record & 1023) === 0) {
      checkAbort(o.signal);
      o.onProgress?.(record);
    }
    if (item instanceof UnreadableRecord) {
      run.invalidRecord(
        [{ code: 'record-unreadable', field: '', message: item.message }],
        record,
        originFor(item, file, line),
      );
      return undefined;
    }
    const r = normalizeEntry(item, norm);
    for (const w of r.warnings)
      run.problem(w, 'warning', record, originFor(item, file, line), r.ok ? r.entry.loc : undefined);
    if (!r.ok) {
      const loc =
        typeof (item as { loc?: unknown })?.loc === 'string' ? (item as { loc: string }).loc : undefined;
      run.invalidRecord(r.errors, record, originFor(item, file, line), loc);
      return undefined;
    }
    if (run.seen !== undefined && !run.seen.add(r.entry.loc)) {
      const message = `${r.entry.loc} is listed more than once; each URL belongs in a sitemap once`;
      run.invalidRecord(
        [{ code: 'url-duplicate', field: 'loc', message }],
        record,
        originFor(item, file, line),
        r.entry.loc,
      );
      return undefined;
    }
    if (buffering) {
      buffer.push({ e: r.entry, record, item, file, line });
      return buffer.length >= LOOKAHEAD ? release() : undefined;
    }
    return run.emit(r.entry, record, item, file, line);
  };
  const batches = batchesOf(source);
  if (batches !== undefined) {
    for await (const batch of batches) {
      const { items, file, lines } = batch;
      for (let i = 0; i < items.length; i++) {
        const wait = handle(items[i], file, lines?.[i]);
        if (wait !== undefined) await wait;
      }
    }
  } else if (Symbol.asyncIterator in source) {
    for await (const item of source) {
      const wait = handle(item);
      if (wait !== undefined) await wait;
    }
  } else {
    for (const item of source) {
      const wait = handle(item);
      if (wait !== undefined) await wait;
    }
  }
  checkAbort(o.signal);
  o.onProgress?.(run.records);
  if (buffering) await release();
  for (const st of run.streams.values()) await run.closeStream(st);
}

function orderedChildren(run: Run): Child[] {
  const plain = run.streams.get('')?.children ?? [];
  const sections = [...run.streams.keys()].filter((k) => k !== '').sort();
  return [...plain, ...sections.flatMap((k) => run.streams.get(k)!.children)];
}

async function finish(run: Run, previous: ManifestHeader | undefined): Promise<WriteSitemapsResult> {
  const o = run.o;
  if (run.hreflang.size > 0 && run.writing) {
    // Reciprocity spans records, so it is judged once all are in. Under `skip` the records are
    // already written: the finding is a warning then, since nothing can be left out any more.
    const severity = o.onInvalid === 'fail' ? 'error' : 'warning';
    for (const p of run.hreflang.check((url) => run.seen?.has(url) ?? false)) {
      run.report({
        code: 'hreflang-not-reciprocal',
        severity,
        message: p.message,
        url: p.url,
        field: 'alternates',
      });
      if (severity === 'error') {
        run.invalid++;
        run.firstProblem ??= `${p.url} (alternates): ${p.message}`;
      }
    }
  }
  if (o.onInvalid === 'fail' && run.invalid > 0) {
    throw new SitemapkitError(
      'ERR_INVALID_ENTRY',
      `${run.invalid.toLocaleString('en-US')} record${run.invalid === 1 ? ' is' : 's are'} invalid, so nothing was written (the previous sitemaps are untouched). First: ${run.firstProblem}`,
      { hint: 'Fix the records, or pass --on-invalid skip to leave them out.' },
    );
  }
  if (run.urls === 0) {
    throw new SitemapkitError(
      'ERR_NO_URLS',
      `no URLs to write (${run.records} record${run.records === 1 ? '' : 's'} read, ${run.skipped} skipped): an empty urlset is invalid, so the previous sitemaps stay in place`,
    );
  }
  const children = orderedChildren(run);
  const buildTime = formatUtc(o.buildTime);
  const prevFiles = new Map((previous?.files ?? []).map((f) => [f.path, f]));
  const files: ManifestFile[] = [];
  const moves: Array<{ from: string; to: string }> = [];
  const entryName = `sitemap.${children.length === 1 ? run.ext : 'xml'}${run.gz}`;
  const roots: string[] = [];
  const kindOf = (): ManifestFile['kind'] => (run.ext === 'txt' ? 'text' : 'urlset');

  if (children.length === 1) {
    const c = children[0]!;
    files.push({
      path: entryName,
      url: o.baseUrl + entryName,
      kind: kindOf(),
      urls: c.urls,
      bytes: c.bytes,
      sha256: c.sha256,
    });
    roots.push(entryName);
    moves.push({ from: c.tmpPath, to: entryName });
  } else {
    const entries: Array<{ name: string; lastmod: string }> = [];
    for (const c of children) {
      const old = prevFiles.get(c.name);
      const lastmod =
        old !== undefined && old.sha256 === c.sha256 && old.lastmod !== undefined ? old.lastmod : buildTime;
      files.push({
        path: c.name,
        url: o.baseUrl + c.name,
        kind: kindOf(),
        urls: c.urls,
        bytes: c.bytes,
        sha256: c.sha256,
        lastmod,
      });
      moves.push({ from: c.tmpPath, to: c.name });
      entries.push({ name: c.name, lastmod });
    }
    // Indexes: the entry point holds the first children; more than one index's worth goes into
    // sitemap-index-2.xml, … (an index never lists an index; robots.txt names each root).
    const groups: Array<typeof entries> = [];
    let group: typeof entries = [];
    let bytes = 0;
    const head = indexOpen(run.xslHref);
    for (const e of entries) {
      const item = indexItem(o.baseUrl + e.name, e.lastmod);
      const len = Buffer.byteLength(item);
      if (
        group.length > 0 &&
        (group.length >= o.maxSitemapsPerIndex || bytes + len + INDEX_CLOSE.length > o.maxBytesPerFile)
      ) {
        groups.push(group);
        group = [];
      }
      if (group.length === 0) bytes = Buffer.byteLength(head);
      group.push(e);
      bytes += len;
    }
    groups.push(group);
    for (let g = 0; g < groups.length; g++) {
      const name = g === 0 ? entryName : `sitemap-index-${g + 1}.xml${run.gz}`;
      const sink = new FileSink(join(run.tmp, `index-${g}-${name}`), o.gzip);
      sink.write(head, Buffer.byteLength(head));
      for (const e of groups[g]!) {
        const item = indexItem(o.baseUrl + e.name, e.lastmod);
        const w = sink.write(item, Buffer.byteLength(item));
        if (w !== undefined) await w;
      }
      sink.write(INDEX_CLOSE, INDEX_CLOSE.length);
      const r = await sink.close();
      files.push({
        path: name,
        url: o.baseUrl + name,
        kind: 'index',
        urls: groups[g]!.length,
        bytes: r.bytes,
        sha256: r.sha256,
      });
      roots.push(name);
      // Extra indexes go in before the entry point, which is always renamed last.
      if (g > 0) moves.push({ from: sink.path, to: name });
    }
    moves.push({ from: join(run.tmp, `index-0-${entryName}`), to: entryName });
  }

  const extra: Array<{ from: string; to: string }> = [];
  const extraFiles: ManifestFile[] = [];
  if (o.xsl !== false && 'bundled' in o.xsl) {
    // The stylesheet is small: read once, hashed, written into the temp folder like the rest.
    const xsl = await readFile(BUNDLED_XSL);
    await writeFile(join(run.tmp, 'sitemap.xsl'), xsl);
    extraFiles.push({
      path: 'sitemap.xsl',
      url: `${o.baseUrl}sitemap.xsl`,
      kind: 'xsl',
      bytes: xsl.length,
      sha256: createHash('sha256').update(xsl).digest('hex'),
    });
    extra.push({ from: join(run.tmp, 'sitemap.xsl'), to: 'sitemap.xsl' });
  }
  let htmlResult: HtmlPagesResult = [];
  if (run.html !== undefined) {
    htmlResult = await run.html.finish();
    for (const f of htmlResult) {
      extraFiles.push({
        path: f.path,
        url: f.url,
        kind: 'html',
        urls: f.links,
        bytes: f.bytes,
        sha256: f.sha256,
      });
      extra.push({ from: join(run.tmp, f.path), to: f.path });
    }
  }

  // The manifest: the entry lines were written during the run; the last line carries the rest.
  const header: ManifestHeader = {
    format: 'sitemapkit-manifest',
    version: 1,
    generatedAt: buildTime,
    baseUrl: o.baseUrl,
    roots,
    files: [...files, ...extraFiles],
    entryCount: run.urls,
  };
  const tail = manifestTailLine(header);
  run.entries.write(tail, Buffer.byteLength(tail));
  await run.entries.close();
  const manifestTmp = run.entries.path;

  // Commit: supporting files and children first, the entry point last, then the manifest.
  const entryMove = moves.pop()!;
  for (const m of [...extra, ...moves]) await rename(m.from, join(o.outDir, m.to));
  await rename(entryMove.from, join(o.outDir, entryMove.to));
  await rename(manifestTmp, join(o.outDir, MANIFEST_NAME));
  await syncDir(o.outDir);

  const keep = new Set(header.files.map((f) => f.path));
  for (const f of previous?.files ?? []) {
    if (!keep.has(f.path) && !f.path.includes('/') && !f.path.includes('\\') && !f.path.startsWith('.')) {
      await rm(join(o.outDir, f.path), { force: true });
    }
  }
  await rm(run.tmp, { recursive: true, force: true });

  if (o.updateRobots !== undefined) {
    const oldRoots = (previous?.roots ?? []).map((r) => (previous?.baseUrl ?? o.baseUrl) + r);
    await updateRobotsFile(
      o.updateRobots,
      roots.map((r) => o.baseUrl + r),
      oldRoots,
    );
  }

  const toWritten = (f: ManifestFile): WrittenFile => ({
    path: join(o.outDir, f.path),
    url: f.url ?? o.baseUrl + f.path,
    kind: f.kind,
    urls: f.urls ?? 0,
    bytes: f.bytes,
  });
  const written = files.map(toWritten);
  const rootFiles = roots.map((r) => written.find((w) => w.path === join(o.outDir, r))!);
  return {
    entry: rootFiles[0]!,
    roots: rootFiles,
    files: written,
    html: extraFiles.filter((f) => f.kind === 'html').map(toWritten),
    urls: run.urls,
    skipped: run.skipped,
    counts: { ...run.counts },
    diagnostics: run.diagnostics,
  };
}
