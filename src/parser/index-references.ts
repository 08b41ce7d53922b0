/**
 * The <sitemap> entries of a sitemap index: a <loc> and a <lastmod> each read once, and the
 * reference emitted when the entry closes. Two slips other readers tolerate are read with a
 * warning: a <sitemap> whose text is its URL (no <loc>), and a second <loc> in one <sitemap>
 * (a child whose `</sitemap><sitemap>` went missing), so that no child sitemap is lost.
 */
import type { SitemapReference } from '../core/entry.js';
import { clip, urlValue } from './field-values.js';
import type { Resolved } from './namespace-scope.js';
import { keepLoc, type Pos, positionOf } from './records.js';
import type { DocumentSink } from './sink.js';
import { C_SKIP, type ElementHost } from './xml-contexts.js';

interface ReferenceDraft {
  at: Pos;
  loc?: string;
  /** The loc as written, when it differs from `loc`. */
  written?: string;
  hadLoc: boolean;
  /** No child element seen yet: the <sitemap>'s own text is being read, in case it is the URL. */
  bare: boolean;
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

  /** A <sitemap> opens at `start`: its own text is read until a child element opens. */
  begin(start: number): void {
    this.#ref = { at: this.#host.pos(start), hadLoc: false, bare: true, seen: 0 };
    this.#host.startField('sitemap', 'loc', start);
  }

  /** Whether the open <sitemap> has had no child element yet: its text, read as a field, may be its URL. */
  get bare(): boolean {
    return this.#ref?.bare === true;
  }

  /** A child of <sitemap>: its context. */
  open(el: Resolved, qname: string, start: number): number {
    const host = this.#host;
    let ref = this.#ref!;
    if (ref.bare) {
      ref.bare = false;
      host.stopText();
    }
    if (!el.core || (el.local !== 'loc' && el.local !== 'lastmod')) {
      host.unknown(el, qname, start);
      return C_SKIP;
    }
    if (el.local === 'loc' && (ref.seen & 1) !== 0) {
      host.rep.report(
        'index-loc-repeated',
        'a second <loc> in one <sitemap>: read as the next child sitemap (its </sitemap><sitemap> is missing)',
        { ...host.pos(start), field: 'loc' },
      );
      this.end();
      ref = { at: host.pos(start), hadLoc: false, bare: false, seen: 0 };
      this.#ref = ref;
    }
    if (!host.firstOf(ref, el.local === 'loc' ? 1 : 2, el, qname, start)) return C_SKIP;
    return host.startField('sitemap', el.local, start);
  }

  /** The value of a <loc> or <lastmod>, or the text of a <sitemap> without children. */
  field(name: string, value: string): void {
    const host = this.#host;
    const ref = this.#ref!;
    if (ref.bare) {
      ref.bare = false;
      if (value === '') return;
      host.rep.report(
        'index-loc-bare',
        `<sitemap> holds "${clip(value)}" as text, without <loc>: read as its <loc>`,
        { ...ref.at, field: 'loc' },
      );
    }
    if (name === 'loc') {
      ref.hadLoc = true;
      if (value === '') {
        host.rep.report('loc-missing', '<loc> is empty; index entry dropped', host.at());
        return;
      }
      keepLoc(ref, value, urlValue(value, host.rep, host.at));
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
    this.#sink.emit(item, positionOf(ref));
  }
}
