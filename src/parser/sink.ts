import type { DocumentReporter } from './reporter.js';
import type { ItemPosition, SitemapFormat, SitemapItem } from './types.js';

/** What the format handlers (XML, text) need from the parser core. */
export interface DocumentSink {
  readonly rep: DocumentReporter;
  /** The format, once the handler knows it. */
  setFormat(format: SitemapFormat): void;
  /**
   * Delivers an item found at `at` (its element's start); the core applies the location rule and
   * the per-file counts, and makes a {@link Where} only when it reports something.
   */
  emit(item: SitemapItem, at: ItemPosition): void;
}
