import type { DocumentReporter, Where } from './reporter.js';
import type { SitemapFormat, SitemapItem } from './types.js';

/** What the format handlers (XML, text) need from the parser core. */
export interface DocumentSink {
  readonly rep: DocumentReporter;
  /** The format, once the handler knows it. */
  setFormat(format: SitemapFormat): void;
  /** Delivers an item; the core applies the location rule and the per-file counts. */
  emit(item: SitemapItem, where: Where): void;
}
