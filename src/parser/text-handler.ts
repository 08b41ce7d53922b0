/**
 * Plain-text sitemaps: one URL a line. Blank lines, `#` comments, CRLF and junk lines are
 * tolerated with a diagnostic; a document without a single URL line is not a sitemap.
 */
import { clip, urlValue } from './field-values.js';
import type { DocumentSink } from './sink.js';

/** Longest line kept, in characters; URLs are at most 2,047. */
const MAX_LINE = 65_536;

export class TextSitemapHandler {
  readonly #sink: DocumentSink;
  #partial = '';
  /** The current line is over {@link MAX_LINE}: drop it up to its end. */
  #skipping = false;
  #line = 0;
  /** Characters skipped before the first line's content. */
  #column = 0;
  #urls = 0;
  #junk = 0;

  /** `line` and `column` (0-based offset) are where the first character written sits. */
  constructor(sink: DocumentSink, line = 1, column = 0) {
    this.#sink = sink;
    this.#line = line - 1;
    this.#column = column;
    sink.setFormat('text');
    if (line > 1) sink.rep.once('text-blank-line', 'blank lines are present', { line: 1 });
  }

  write(text: string): void {
    let from = 0;
    for (;;) {
      const nl = text.indexOf('\n', from);
      if (nl === -1) break;
      if (this.#skipping) {
        this.#skipping = false;
        this.#partial = '';
      } else {
        this.#handleLine(this.#partial === '' ? text.slice(from, nl) : this.#partial + text.slice(from, nl));
        this.#partial = '';
      }
      from = nl + 1;
    }
    if (from < text.length && !this.#skipping) {
      this.#partial += text.slice(from);
      if (this.#partial.length > MAX_LINE) {
        this.#line++;
        this.#junk++;
        this.#sink.rep.report('text-junk-line', `a line longer than ${MAX_LINE} characters; skipped`, {
          line: this.#line,
          column: 1,
        });
        this.#partial = '';
        this.#skipping = true;
      }
    }
  }

  /** `complete` is false when the input was cut (size cap): the last partial line is not read. */
  end(complete: boolean): void {
    if (complete && !this.#skipping && this.#partial !== '') this.#handleLine(this.#partial);
    this.#partial = '';
    if (this.#urls === 0 && this.#junk > 0) {
      this.#sink.rep.report('format-unknown', 'no line of this document is a URL: it is not a text sitemap');
    }
  }

  #handleLine(raw: string): void {
    this.#line++;
    const rep = this.#sink.rep;
    let line = raw;
    // Skipped leading blanks belong to the first line only.
    const skipped = this.#column;
    this.#column = 0;
    if (line.endsWith('\r')) {
      line = line.slice(0, -1);
      rep.once('text-crlf', 'lines end with CRLF', { line: this.#line });
    }
    const value = line.trim();
    if (value === '') {
      rep.once('text-blank-line', 'blank lines are present', { line: this.#line });
      return;
    }
    if (value.startsWith('#')) {
      rep.once('text-comment', '# comment lines are present; skipped', { line: this.#line, column: 1 });
      return;
    }
    const where = { line: this.#line, column: line.indexOf(value) + 1 + skipped };
    // A broken http(s) URL (`http:/host`) is a URL finding, not junk: it names the URL.
    if (!/^(?:[a-z][a-z0-9+.-]*:\/\/|https?:)/i.test(value) || /\s/.test(value)) {
      this.#junk++;
      rep.report('text-junk-line', `"${clip(value)}" is not a URL; skipped`, where);
      return;
    }
    const url = urlValue(value, rep, () => where);
    if (url === undefined) return;
    this.#urls++;
    this.#sink.emit({ loc: url }, url === value ? where : { ...where, written: value });
  }
}
