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
    const r = await validateSitemap(f.path, { sitemapUrl: f.url, robots: false });
    found.push(...r.diagnostics);
  }
  if (found.length === 0) logger.info(`validated ${result.files.length} sitemap files: no findings`);
  else logDiagnostics(logger, found, root);
}
