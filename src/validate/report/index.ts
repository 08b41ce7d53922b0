/** The four report formats of a validation, as strings (the CLI writes them; the library never prints). */
import type { ValidationResult } from '../types.js';
import { formatHtml, type HtmlReportOptions } from './html.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatText, type TextReportOptions } from './text.js';

export { JSON_REPORT_VERSION } from './json.js';

/** Options of {@link formatValidation}: `color` and `examples` shape text, `maxRows` the HTML table. */
export type ReportOptions = TextReportOptions & HtmlReportOptions;

/** `text` for people, `json` for scripts, `junit` for CI test reporters, `html` for a shareable report. */
export type ReportFormat = 'text' | 'json' | 'junit' | 'html';

export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'junit', 'html'];

/** A validation result as a report in `format` (a string; the caller writes it). */
export function formatValidation(
  result: ValidationResult,
  format: ReportFormat,
  options: ReportOptions = {},
): string {
  switch (format) {
    case 'json':
      return formatJson(result);
    case 'junit':
      return formatJunit(result);
    case 'html':
      return formatHtml(result, options);
    default:
      return formatText(result, options);
  }
}
