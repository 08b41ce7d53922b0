import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { type AuditFormat, auditHtml, formatAudit } from '../../audit/report.js';
import { audit } from '../../audit/run.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import { ensureDir, removeCreated, writeFileAtomic } from '../../writer/atomic.js';
import { type AuditRuleFlags, auditRuleFlags, auditRules } from '../audit-flags.js';
import type { CliContext } from '../context.js';
import { shortPath } from '../crawl-flags.js';
import { diagnosticLine, progressText } from '../crawl-lines.js';
import { EXIT_FINDINGS, EXIT_OK } from '../exit.js';
import { Progress, RateWindow } from '../progress.js';
import { type RenderFlags, renderFlags, renderOptions } from '../render-flags.js';
import { type SiteCrawlFlags, siteCrawlFlags, siteCrawlOptions } from '../site-crawl-flags.js';

/** Diagnostics of the crawl printed per code; the rest are counted. */
const PER_CODE = 20;

interface AuditFlags extends SiteCrawlFlags, AuditRuleFlags, RenderFlags {
  out?: string;
  report?: string;
  format: AuditFormat;
  json?: boolean;
  quiet?: boolean;
}

export function registerAudit(program: Command, ctx: CliContext): void {
  const cmd = siteCrawlFlags(
    program
      .command('audit')
      .description(
        "Hold a site's published sitemaps against the site itself: orphans, missing pages, listed URLs that are not indexable, redirect or fail, wrong lastmods, one-way hreflang, titles, deep pages",
      )
      .argument('<url>', 'the start page of the site, such as https://example.com/'),
  );
  renderFlags(auditRuleFlags(cmd))
    .option('--out <dir>', "also write a corrected sitemap set from the crawl's verdicts into this folder")
    .option('--report <dir>', 'write an HTML report (report.html) into this folder')
    .addOption(
      new Option('--format <format>', 'output: text, json (one object), csv or junit (for CI)')
        .choices(['text', 'json', 'csv', 'junit'])
        .default('text'),
    )
    .option('--json', 'short for --format json')
    .option('--quiet', 'no diagnostics of the crawl and the sitemap reader, only the report')
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit audit https://example.com/
  sitemapkit audit https://example.com/ --sitemap https://example.com/sitemap_index.xml --report audit-report
  sitemapkit audit https://example.com/ --format junit > audit.xml      # for CI
  sitemapkit audit https://example.com/ --json | jq '.findings[] | select(.code == "audit-orphan") | .url'
  sitemapkit audit https://example.com/ --out corrected/
  sitemapkit audit https://app.example.com/ --render        # a site built with JavaScript, as a browser sees it

Exit codes: 0 no error found (warnings and notes may be); 1 an error-severity finding (a listed URL
that is broken, redirected, noindex, canonicalised elsewhere, disallowed or not HTML); 2 usage
error, or the audit could not run (no published sitemap, robots.txt unreachable); 130 interrupted.`,
    )
    .action(async (url: string, flags: AuditFlags) => {
      ctx.exitCode = await runAudit(url, flags, ctx);
    });
}

async function runAudit(url: string, flags: AuditFlags, ctx: CliContext): Promise<number> {
  const format: AuditFormat = flags.json === true ? 'json' : flags.format;
  // A site built with JavaScript is audited as it renders: the links a browser sees reach pages.
  const crawl = { ...siteCrawlOptions(flags), ...renderOptions(flags) };
  crawl.sitemaps = { html: false };
  // On a terminal, the crawl's progress line (as `crawl` draws it); nothing in logs or pipes.
  const stderr = ctx.stderr as NodeJS.WriteStream;
  const progress = new Progress('audit:', {
    stream: stderr,
    enabled: stderr.isTTY === true && flags.quiet !== true,
  });
  const rates = new RateWindow();
  crawl.onProgress = (p) => {
    rates.add({ at: p.elapsedMs, done: p.done });
    progress.show(progressText(p, rates.estimate(p.queued), 'tty'));
  };
  // The crawl's and the sitemap reader's own diagnostics: a few per code, then a count.
  const shown = new Map<string, number>();
  const onDiagnostic = (d: Diagnostic): void => {
    if (flags.quiet === true) return;
    const n = (shown.get(d.code) ?? 0) + 1;
    shown.set(d.code, n);
    if (n > PER_CODE) return;
    progress.stop();
    ctx.stderr.write(`${diagnosticLine(d)}\n`);
  };
  const printHidden = (): void => {
    progress.stop();
    for (const [code, n] of shown) {
      if (n > PER_CODE) ctx.stderr.write(`... and ${(n - PER_CODE).toLocaleString('en-US')} more ${code}\n`);
    }
  };
  const made = flags.report === undefined ? [] : await ensureDir(flags.report, 'create the report folder');
  let result: Awaited<ReturnType<typeof audit>>;
  try {
    result = await audit({
      start: url,
      crawl,
      ...auditRules(flags),
      ...(flags.out === undefined ? {} : { outDir: flags.out }),
      signal: ctx.signal,
      onDiagnostic,
    });
  } catch (error) {
    printHidden();
    // A report folder made above and left empty by an audit that could not run goes again.
    await removeCreated(made);
    throw error;
  }
  printHidden();
  const input = {
    start: url,
    sitemaps: result.sitemaps,
    findings: result.findings,
    counts: result.counts,
    generatedAt: new Date(),
  };
  ctx.stdout.write(formatAudit(input, format));
  if (flags.report !== undefined) {
    const path = join(flags.report, 'report.html');
    await writeFileAtomic(path, auditHtml(input));
    if (format === 'text') ctx.stdout.write(`  report: ${shortPath(path)}\n`);
  }
  if (flags.out !== undefined && format === 'text') {
    ctx.stdout.write(
      result.out === undefined
        ? '  corrected sitemaps: none (no page of the site can be listed)\n'
        : `  corrected sitemaps: ${shortPath(result.out)}\n`,
    );
  }
  return result.counts.error > 0 ? EXIT_FINDINGS : EXIT_OK;
}
