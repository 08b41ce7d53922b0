import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { runBin } from '../support/cli.js';
import { SAMPLES_DIR } from '../support/xmllint.js';

export { SAMPLES_DIR };

/** A fixed clock: the samples' news and lastmods are judged as of this day. */
export const NOW = Date.parse('2024-08-16T12:00:00Z');

/** The files of one samples folder, as `folder/name`. */
export function samples(folder: string): string[] {
  return readdirSync(join(SAMPLES_DIR, folder))
    .filter((f) => !f.startsWith('.'))
    .sort()
    .map((f) => `${folder}/${f}`);
}

/** Distinct codes of one severity, sorted. */
export function codesOf(diagnostics: readonly Diagnostic[], severity?: Diagnostic['severity']): string[] {
  return [
    ...new Set(
      diagnostics.filter((d) => severity === undefined || d.severity === severity).map((d) => d.code),
    ),
  ].sort();
}

/** `sitemapkit validate ARGS` through the built CLI. */
export function validateCli(args: string[], options: { cwd?: string; input?: string } = {}) {
  return runBin(['validate', ...args], options);
}

/** A small urlset document. */
export function urlset(body: string, ns = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${ns}>\n${body}\n</urlset>\n`;
}

/** `<url>` elements for locs (with optional extra children). */
export function urls(locs: readonly string[], extra = ''): string {
  return locs.map((l) => `  <url><loc>${l}</loc>${extra}</url>`).join('\n');
}

/** An HTML page with the given head. */
export function page(head: string, body = '<p>content</p>'): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title>${head}</head><body>${body}</body></html>`;
}
