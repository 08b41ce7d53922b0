/**
 * The <sitemap> entries of a sitemap index: a <loc> and a <lastmod> each read once, and the
 * reference emitted when the entry closes.
 */
import type { SitemapReference } from '../core/entry.js';
import { urlValue } from './field-values.js';
import type { Resolved } from './namespace-scope.js';
import type { Pos } from './records.js';
import type { DocumentSink } from './sink.js';
import { C_SKIP, type ElementHost } from './xml-contexts.js';

interface ReferenceDraft {
  at: Pos;
  loc?: string;
  hadLoc: boolean;
  lastmod?: string;
  /** Children already read: 1 <loc>, 2 <lastmod>. */
  seen: number;
}

export class IndexReferenceReader {
  readonly #host: ElementHost;
  readonly #sink: DocumentSink;
  #ref: ReferenceDraft | undefined;

  constructor(host: ElementHost, sink: DocumentSink) {
    this.#host = host;
    this.#sink = sink;
  }

  /** A <sitemap> opens at `start`. */
  begin(start: number): void {
    this.#ref = { at: this.#host.pos(start), hadLoc: false, seen: 0 };
  }

  /** A child of <sitemap>: its context. */
  open(el: Resolved, qname: string, start: number): number {
    const host = this.#host;
    if (!el.core || (el.local !== 'loc' && el.local !== 'lastmod')) {
      host.unknown(el, qname, start);
      return C_SKIP;
    }
    if (!host.firstOf(this.#ref!, el.local === 'loc' ? 1 : 2, el, qname, start)) return C_SKIP;
    return host.startField('sitemap', el.local, start);
  }

  /** The value of a <loc> or <lastmod>. */
  field(name: string, value: string): void {
    const host = this.#host;
    const ref = this.#ref!;
    if (name === 'loc') {
      ref.hadLoc = true;
      if (value === '') {
        host.rep.report('loc-missing', '<loc> is empty; index entry dropped', host.at());
        return;
      }
      const url = urlValue(value, host.rep, host.at);
      if (url !== undefined) ref.loc = url;
    } else {
      const v = host.dates.read(value, host.rep, host.at);
      if (v !== undefined) ref.lastmod = v;
    }
  }

  /** The <sitemap> closed: emits its reference if it has a usable <loc>. */
  end(): void {
    const host = this.#host;
    const ref = this.#ref!;
    this.#ref = undefined;
    if (ref.loc === undefined) {
      if (!ref.hadLoc) host.rep.report('loc-missing', '<sitemap> has no <loc>; index entry dropped', ref.at);
      return;
    }
    const item: SitemapReference = { kind: 'sitemap', loc: ref.loc };
    if (ref.lastmod !== undefined) item.lastmod = ref.lastmod;
    this.#sink.emit(item, ref.at);
  }
}
