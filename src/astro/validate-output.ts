/**
 * `validate`: each written sitemap through the validator's protocol and quality rules, read from
 * disk with its public URL (no request is made), the findings to Astro's log.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { validateSitemap } from '../validate/validate.js';
import type { WriteSitemapsResult } from '../writer/write-sitemaps.js';
import { type Logger, logDiagnostics } from './log.js';

export async function validateOutput(
  result: WriteSitemapsResult,
  logger: Logger,
  root: string,
): Promise<void> {
  const found: Diagnostic[] = [];
  for (const f of result.files) {
    // One file at a time, each with its public URL: children are validated on their own, and
    // the listed customSitemaps (elsewhere) are never fetched.
    const r = await validateSitemap(f.path, {
      sitemapUrl: f.url,
      robots: false,
      disable: ['index-not-followed'],
    });
    found.push(...r.diagnostics);
  }
  if (found.length === 0) logger.info(`validated ${result.files.length} sitemap files: no findings`);
  else logDiagnostics(logger, found, root);
}
