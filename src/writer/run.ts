/**
 * One run of the writer: the engine's file events turned into sink files (through gzip and the
 * UTF-8 encoder), and beside each written entry its manifest line, its hreflang group and its
 * HTML link. Everything here stays synchronous per entry unless a sink asks to wait: at millions
 * of URLs a promise per record costs more than the serialising does.
 */
import type { SitemapEntry } from '../core/entry.js';
import { inScope } from '../core/url.js';
import { changeHash } from './change-hash.js';
import { Dedupe } from './dedupe.js';
import type { ClosedFile, EngineEvents, EngineFile } from './engine.js';
import { SitemapEngine } from './engine.js';
import { NewestItems } from './feed.js';
import { FileWriter } from './file-writer.js';
import { Findings } from './findings.js';
import type { Gzipper } from './gzip.js';
import { type BuildMembership, HreflangGroups, type ReciprocityProblem } from './hreflang.js';
import { buildHtmlSitemap } from './html-pages.js';
import { type Held, originFor } from './intake.js';
import { LastmodWatch, withBareHash } from './lastmod-policy.js';
import { MANIFEST_NAME, MANIFEST_OPEN, manifestEntryLine } from './manifest.js';
import { NewsWindow } from './news-window.js';
import type { ResolvedWriterOptions } from './options.js';
import type { Extension } from './serialize.js';
import { PendingFile, type Sink, type SinkFile } from './sink.js';

/** A child file once closed: what the engine counted and what the bytes hashed to. */
export interface Child extends ClosedFile {
  sha256: string;
  /** The name it was created under, when it was written again before the commit (lastmod dropped). */
  created?: string;
}

/** Closed files that may still be finishing while the next is written. */
const CLOSING = 2;

interface HeldInGroup extends Held {
  /** The signature of its hreflang group. */
  group: string;
}

export class Run implements EngineEvents<FileWriter> {
  readonly o: ResolvedWriterOptions;
  readonly sink: Sink;
  readonly ext: 'xml' | 'txt';
  /** '' or '.gz'. */
  readonly gz: string;
  readonly engine: SitemapEngine<FileWriter>;
  readonly findings: Findings;
  readonly dedupe: Dedupe | undefined;
  readonly hreflang: HreflangGroups = new HreflangGroups();
  readonly html: ReturnType<typeof buildHtmlSitemap> | undefined;
  /** News blocks older than the news window come off here. */
  readonly news: NewsWindow;
  /** The set's lastmods, judged at the end (XML only: text sitemaps carry none). */
  readonly lastmods: LastmodWatch | undefined;
  /** The newest entries for the delta feed (unless the caller hands its own items). */
  readonly feed: NewestItems | undefined;
  /** The manifest, written as entries go by (undefined when none is asked for). */
  readonly manifest: FileWriter | undefined;
  /** Closed children by name. */
  readonly children: Map<string, Child> = new Map();
  records = 0;
  readonly checkedLane = true;
  urls = 0;
  /** The first child, held back while it may still become the entry point (sinks that cannot rename). */
  first: { file: PendingFile; name: string } | undefined;
  /** The gzip layer, when the set is gzipped. */
  readonly gzipper: Gzipper | undefined;
  readonly #writers = new Set<FileWriter>();
  /** Pages with alternates, held until every record is in (not under fail). */
  #held: HeldInGroup[] = [];
  #opened = 0;
  #waits: Array<Promise<void>> = [];
  /** Files closed but not yet finished (their tail, the compressor's last block, the fsync). */
  #closing: Array<Promise<void>> = [];

  constructor(o: ResolvedWriterOptions, sink: Sink, gzip: Gzipper | undefined) {
    this.o = o;
    this.sink = sink;
    this.gzipper = gzip;
    this.ext = o.format === 'txt' ? 'txt' : 'xml';
    this.gz = o.gzip === false ? '' : '.gz';
    this.findings = new Findings(o.onInvalid, o.onDiagnostic);
    this.dedupe = o.dedupe ? new Dedupe() : undefined;
    this.engine = new SitemapEngine(this, {
      format: this.ext,
      maxUrlsPerFile: o.maxUrlsPerFile,
      maxBytesPerFile: o.maxBytesPerFile,
      xslHref: this.xslHref,
      suffix: this.gz,
      childName: o.childName,
      reservedNames: o.childName === undefined && o.indexName === 'sitemap' ? [] : [o.indexName],
    });
    if (o.manifest) {
      this.manifest = new FileWriter(sink.create(MANIFEST_NAME), { hash: false });
      this.#writers.add(this.manifest);
      this.manifest.write(MANIFEST_OPEN, MANIFEST_OPEN.length);
    }
    if (o.html !== false) this.html = buildHtmlSitemap(sink, o.baseUrl, o.html);
    this.news = new NewsWindow(o.buildTime, o.newsWindowMs);
    this.lastmods =
      o.lastmodPolicy !== 'keep' && this.ext === 'xml' ? new LastmodWatch(o.buildTime) : undefined;
    this.feed = o.feed !== undefined && o.feed.items === undefined ? new NewestItems(o.feed.size) : undefined;
  }

  get xslHref(): string | undefined {
    if (this.o.xsl === false) return undefined;
    return 'href' in this.o.xsl ? this.o.xsl.href : 'sitemap.xsl';
  }

  declare(extensions: Iterable<Extension>): void {
    this.engine.declare(extensions);
  }

  prepare(e: SitemapEntry): SitemapEntry {
    return this.news.apply(e);
  }

  /** Writes one entry (see the module comment for when it returns a promise). */
  emit(
    e: SitemapEntry,
    record: number,
    item: unknown,
    file: string | undefined,
    line: number | undefined,
  ): Promise<void> | undefined {
    if (e.alternates !== undefined && this.o.onInvalid !== 'fail') {
      // Whether a group is one-sided is known only once every record is in; under skip its
      // pages must then be written without their alternates, so they wait (see release()).
      const problem = this.engine.check(e);
      if (problem !== undefined) {
        this.findings.invalidRecord([problem], record, originFor(item, file, line), e.loc);
        return undefined;
      }
      this.#held.push({ e, record, item, file, line, group: this.hreflang.add(e.loc, e.alternates) });
      return undefined;
    }
    return this.#write(e, record, item, file, line);
  }

  /**
   * Writes the pages held for their alternates (under skip and drop-field): a group that is
   * one-sided or disagrees loses its alternates on every page, with a warning naming the page
   * and the member that breaks the group, so that the set passes `validate`.
   */
  async release(): Promise<void> {
    if (this.#held.length === 0) return;
    const broken = this.hreflang.broken(this.#membership());
    const held = this.#held;
    this.#held = [];
    for (const h of held) {
      let e = h.e;
      const p = broken.get(h.group);
      if (p !== undefined) {
        const { alternates: _dropped, ...rest } = e;
        e = rest;
        this.findings.report({
          code: 'hreflang-not-reciprocal',
          severity: 'warning',
          message: `the hreflang alternates of ${e.loc} are left out: ${p.message}`,
          url: e.loc,
          field: 'alternates',
          record: h.record,
        });
      }
      const wait = this.#write(e, h.record, h.item, h.file, h.line);
      if (wait !== undefined) await wait;
    }
  }

  /** What the build holds, for the reciprocity check. */
  #membership(): BuildMembership {
    const scope = { prefix: this.o.prefix, allowHosts: this.o.allowHosts };
    return {
      inBuild: (url) => this.dedupe?.has(url) ?? false,
      inScope: (url) => inScope(url, scope),
    };
  }

  /** The reciprocity problems of the whole build (under fail, where nothing is held). */
  reciprocity(): ReciprocityProblem[] {
    return this.hreflang.check(this.#membership());
  }

  #write(
    e: SitemapEntry,
    record: number,
    item: unknown,
    file: string | undefined,
    line: number | undefined,
  ): Promise<void> | undefined {
    const problem = this.findings.writing ? this.engine.add(e) : this.engine.check(e);
    if (problem !== undefined) {
      this.findings.invalidRecord([problem], record, originFor(item, file, line), e.loc);
      return undefined;
    }
    if (!this.findings.writing) return undefined;
    this.urls++;
    this.lastmods?.observe(e.lastmod);
    this.feed?.offerEntry(e);
    if (this.manifest !== undefined) {
      const hash = changeHash(e, this.ext === 'xml');
      let entryLine = manifestEntryLine(
        e.lastmod === undefined ? { loc: e.loc, hash } : { loc: e.loc, lastmod: e.lastmod, hash },
        this.urls === 1,
      );
      if (this.o.lastmodPolicy === 'drop' && e.lastmod !== undefined)
        entryLine = withBareHash(entryLine, e, this.ext === 'xml');
      // ASCII (a URI, a lastmod, hex hashes): its length is its byte count (the writer checks it).
      const w = this.manifest.write(entryLine, entryLine.length);
      if (w !== undefined) this.#waits.push(w);
    }
    if (e.alternates !== undefined && this.o.onInvalid === 'fail') this.hreflang.add(e.loc, e.alternates);
    if (this.html !== undefined) this.#waits.push(this.html.add(e));
    return this.#waits.length === 0 ? undefined : this.#settleWaits();
  }

  /** Waits for everything the sinks asked to wait for, and for every closed file to be finished. */
  async settle(): Promise<void> {
    await this.#settleWaits();
    while (this.#closing.length > 0) {
      const closing = this.#closing;
      this.#closing = [];
      await Promise.all(closing);
      await this.#settleWaits();
    }
  }

  async #settleWaits(): Promise<void> {
    while (this.#waits.length > 0) {
      const waits = this.#waits;
      this.#waits = [];
      await Promise.all(waits);
    }
  }

  open(f: EngineFile): FileWriter {
    this.#opened++;
    let target: SinkFile;
    if (this.#opened === 1 && !this.sink.renames && !this.o.alwaysIndex) {
      const held = new PendingFile((name) => this.sink.create(name));
      this.first = { file: held, name: f.name };
      target = held;
    } else {
      // A second child: the first one keeps its own name.
      if (this.#opened === 2 && this.first !== undefined)
        this.#waits.push(this.first.file.bind(this.first.name));
      target = this.sink.create(f.name);
    }
    const writer = new FileWriter(this.gzipper === undefined ? target : this.gzipper(target));
    this.#writers.add(writer);
    return writer;
  }

  chunk(writer: FileWriter, text: string, bytes: number): void {
    const w = writer.write(text, bytes);
    if (w !== undefined) this.#waits.push(w);
  }

  close(writer: FileWriter, file: ClosedFile): void {
    const closing = writer.close().then((totals) => {
      this.#writers.delete(writer);
      this.children.set(file.name, { ...file, sha256: totals.sha256 });
    });
    // A closed file finishes (its last chunks, gzip's last block on zlib's thread, the fsync)
    // while the next one is serialised, where waiting for it left the main thread idle for a
    // quarter of a million-URL run. At most CLOSING files finish at once, so memory stays bounded;
    // a failure is held (no unhandled rejection) and raised when the file is waited for.
    closing.catch(() => undefined);
    this.#closing.push(closing);
    if (this.#closing.length > CLOSING) this.#waits.push(this.#closing.shift()!);
  }

  /** Closes every open file and waits; the children in index order. */
  async closeAll(): Promise<Child[]> {
    const closed = this.engine.finish();
    await this.settle();
    return closed.map((f) => this.children.get(f.name)!);
  }

  /** Stops every file still being written (error or abort path). */
  abortAll(reason: unknown): void {
    for (const w of this.#writers) w.abort(reason);
    this.#writers.clear();
    this.first?.file.abort(reason);
  }
}
