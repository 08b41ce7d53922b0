/** The four report formats of a validation, as strings (the CLI writes them; the library never prints). */
import type { ValidationResult } from '../types.js';
import { formatHtml } from './html.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatText } from './text.js';

export { formatHtml, type HtmlReportOptions } from './html.js';
export { formatJson, JSON_REPORT_VERSION } from './json.js';
export { formatJunit } from './junit.js';
export { formatText, type TextReportOptions } from './text.js';

/** `text` for people, `json` for scripts, `junit` for CI test reporters, `html` for a shareable report. */
export type ReportFormat = 'text' | 'json' | 'junit' | 'html';

export const REPORT_FORMATS: readonly ReportFormat[] = ['text', 'json', 'junit', 'html'];

/** A validation result as a report in `format`. `color` applies to `text` only. */
export function formatValidation(
  result: ValidationResult,
  format: ReportFormat,
  options: { color?: boolean } = {},
): string {
  switch (format) {
    case 'json':
      return formatJson(result);
    case 'junit':
      return formatJunit(result);
    case 'html':
      return formatHtml(result);
    default:
      return formatText(result, { color: options.color === true });
  }
}
