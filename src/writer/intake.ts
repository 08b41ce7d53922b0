/**
 * Records in, normalised entries out: decoding failures, normalisation, duplicate detection, the
 * look-ahead that picks the namespaces every urlset declares, and the iteration over any kind of
 * source (sitemapkit's batched readers, async and sync iterables) with backpressure.
 */
import type { SitemapEntry } from '../core/entry.js';
import { SitemapkitError } from '../core/errors.js';
import { normalizeEntry } from '../core/normalize.js';
import { batchesOf, ORIGIN, type RecordOrigin } from './batches.js';
import { CheckedReader, checkedOf, emptyChecked } from './checked.js';
import type { Dedupe } from './dedupe.js';
import type { Findings } from './findings.js';
import type { ResolvedWriterOptions } from './options.js';
import { type Extension, extensionsOf } from './serialize.js';

const LOOKAHEAD = 1000;

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

/** Where a record came from: its batch's file and line, or its own `ORIGIN`. Made only for a finding. */
export function originFor(
  item: unknown,
  file: string | undefined,
  line: number | undefined,
): RecordOrigin | undefined {
  if (file !== undefined) return line === undefined ? { file } : { file, line };
  if (typeof item !== 'object' || item === null) return undefined;
  if (item instanceof UnreadableRecord) return item.origin;
  return (item as { [ORIGIN]?: RecordOrigin })[ORIGIN];
}

export function checkAbort(signal: AbortSignal | undefined): void {
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

/** What the intake feeds. */
export interface IntakeTarget {
  readonly o: ResolvedWriterOptions;
  readonly findings: Findings;
  readonly dedupe: Dedupe | undefined;
  /** Records read so far. */
  records: number;
  /**
   * Whether a source may check the records on another thread (`checked.ts`): the target then
   * sees only the checked entries, and `dedupe` gets the filled set at the end.
   */
  readonly checkedLane?: boolean;
  declare(extensions: Iterable<Extension>): void;
  /** What the build changes in a checked entry before it is written (the news window). */
  prepare(e: SitemapEntry): SitemapEntry;
  /** Writes one entry; a promise when the caller must wait before the next. */
  emit(
    e: SitemapEntry,
    record: number,
    item: unknown,
    file: string | undefined,
    line: number | undefined,
  ): Promise<void> | undefined;
}

/** An entry read and checked, held with where it came from until it can be written. */
export interface Held {
  e: SitemapEntry;
  record: number;
  item: unknown;
  file: string | undefined;
  line: number | undefined;
}

export async function consume(
  run: IntakeTarget,
  source: Iterable<unknown> | AsyncIterable<unknown>,
): Promise<void> {
  const o = run.o;
  const findings = run.findings;
  const norm = {
    scope: { prefix: o.prefix, allowHosts: o.allowHosts },
    legacy: o.legacy,
    dropFields: o.onInvalid === 'drop-field',
  };
  const held: Held[] = [];
  let holding = o.format === 'xml' && o.extensions === undefined;
  if (!holding) run.declare(o.extensions ?? []);
  const release = async (): Promise<void> => {
    const used = new Set<Extension>();
    for (const h of held) for (const x of extensionsOf(h.e)) used.add(x);
    run.declare(used);
    holding = false;
    for (const h of held) await run.emit(h.e, h.record, h.item, h.file, h.line);
    held.length = 0;
  };
  const handle = (item: unknown, file?: string, line?: number): Promise<void> | undefined => {
    const record = ++run.records;
    if ((record & 1023) === 0) {
      checkAbort(o.signal);
      o.onProgress?.(record);
    }
    if (item instanceof UnreadableRecord) {
      findings.invalidRecord(
        [{ code: 'record-unreadable', field: '', message: item.message }],
        record,
        originFor(item, file, line),
      );
      return undefined;
    }
    const r = normalizeEntry(item, norm);
    for (const w of r.warnings)
      findings.problem(w, 'warning', record, originFor(item, file, line), r.ok ? r.entry.loc : undefined);
    if (!r.ok) {
      const loc =
        typeof (item as { loc?: unknown })?.loc === 'string' ? (item as { loc: string }).loc : undefined;
      findings.invalidRecord(r.errors, record, originFor(item, file, line), loc);
      return undefined;
    }
    const duplicate = run.dedupe?.add(r.entry.loc);
    if (duplicate !== undefined) {
      findings.invalidRecord([duplicate], record, originFor(item, file, line), r.entry.loc);
      return undefined;
    }
    return use(r.entry, record, item, file, line);
  };
  /** A checked entry on its way out: the build's changes, the look-ahead, the target. */
  const use = (
    entry: SitemapEntry,
    record: number,
    item: unknown,
    file: string | undefined,
    line: number | undefined,
  ): Promise<void> | undefined => {
    // Before the look-ahead, so that a namespace only dropped blocks used is not declared.
    const e = run.prepare(entry);
    if (holding) {
      held.push({ e, record, item, file, line });
      return held.length >= LOOKAHEAD ? release() : undefined;
    }
    return run.emit(e, record, item, file, line);
  };
  const checked =
    run.checkedLane === true
      ? checkedOf(source, { ...norm, scope: norm.scope, dedupe: run.dedupe !== undefined })
      : undefined;
  const batches = checked === undefined ? batchesOf(source) : undefined;
  if (checked !== undefined) {
    // Read and checked on another thread: the same findings, reported here in the same order.
    const r = emptyChecked();
    for await (const { file, bytes } of checked) {
      for (const reader = new CheckedReader(bytes); reader.next(r); ) {
        const record = ++run.records;
        if ((record & 1023) === 0) {
          checkAbort(o.signal);
          o.onProgress?.(record);
        }
        const line = r.line;
        if (r.warnings !== undefined) {
          for (const w of r.warnings) findings.problem(w, 'warning', record, { file, line }, r.warningLoc);
        }
        if (r.entry === undefined) {
          findings.invalidRecord(r.errors!, record, { file, line }, r.errorLoc);
          continue;
        }
        const wait = use(r.entry, record, undefined, file, line);
        if (wait !== undefined) await wait;
      }
    }
    const seen = checked.seen();
    if (seen !== undefined) run.dedupe?.adopt(seen);
  } else if (batches !== undefined) {
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
  if (holding) await release();
}
