import { readFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { type Diagnostic, formatDiagnostic } from '../../core/diagnostics.js';
import { fsError } from '../../core/fs-errors.js';
import { fetchRobotsTxt } from '../../robots/fetch.js';
import { DEFAULT_LINT_AGENTS, findSitemapConflict, lintRobotsTxt } from '../../robots/lint.js';
import { isProductToken } from '../../robots/match.js';
import type { RobotsMode } from '../../robots/parse.js';
import { parseRobotsTxt, type RobotsTxt } from '../../robots/robots-txt.js';
import { readSourceUrls } from '../../submit/url-source.js';
import type { CliContext } from '../context.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import { collect } from '../flags.js';
import { writeOut } from '../io.js';
import { Progress } from '../progress.js';

interface CommonFlags {
  mode: RobotsMode;
  format: 'text' | 'json';
  json?: boolean;
}

interface CheckFlags extends CommonFlags {
  agent: string;
  why?: boolean;
}

interface LintFlags extends CommonFlags {
  sitemap?: string;
  agent: string[];
}

const USER_AGENT = 'sitemapkit (robots.txt check)';

/** Reads ROBOTS: a file, `-` for standard input, or an http(s) URL fetched with RFC 9309 semantics. */
async function loadRobots(
  source: string,
  mode: RobotsMode,
  ctx: CliContext,
): Promise<{ robots: RobotsTxt; where: string }> {
  if (/^https?:\/\//i.test(source)) {
    const r = await fetchRobotsTxt(source, { mode, userAgent: USER_AGENT, signal: ctx.signal });
    if (r.status !== 'ok') ctx.stderr.write(`note: ${r.robots.fixedReason} (RFC 9309 §2.3.1)\n`);
    else if (r.redirects.length > 0) ctx.stderr.write(`note: ${r.url} redirected to ${r.finalUrl}\n`);
    return { robots: r.robots, where: r.url };
  }
  let bytes: Uint8Array;
  try {
    if (source === '-') {
      const chunks: Buffer[] = [];
      for await (const c of ctx.stdin) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
      bytes = Buffer.concat(chunks);
    } else {
      bytes = await readFile(source);
    }
  } catch (cause) {
    throw fsError(cause, {
      path: source,
      doing: 'read robots.txt',
      hint: 'ROBOTS is a robots.txt file, - for standard input, or an http(s) URL of the site',
    });
  }
  return { robots: parseRobotsTxt(bytes, { mode }), where: source === '-' ? '<stdin>' : source };
}

/**
 * Refuses an argument that is not an absolute http(s) URL: robots.txt matches the path of a URL
 * of its own site, and anything else (`not-a-url`, `/private/x`) would be judged as some path.
 */
function checkUrlArgument(url: string, robotsSource: string): void {
  let ok = /^https?:\/\/[^/?#\s\\]/i.test(url) && !/[\s\x00-\x1f\x7f]/.test(url);
  if (ok) {
    try {
      new URL(url);
    } catch {
      ok = false;
    }
  }
  if (ok) return;
  const site = /^https?:\/\//i.test(robotsSource) ? new URL(robotsSource).origin : 'https://www.example.com';
  const example = url.startsWith('/') ? `${site}${url}` : `${site}/…`;
  throw new UsageError(
    `"${url}" is not an http(s) URL: give each URL to check in full, as a crawler requests it, such as ${example}`,
  );
}

/**
 * The form a crawler requests for a URL written with raw non-ASCII characters: those characters
 * percent-encoded as UTF-8 (RFC 3986 §2.5). undefined when the URL has none.
 */
function requestedForm(url: string): string | undefined {
  if (!/[^\x00-\x7f]/.test(url)) return undefined;
  try {
    return url.replace(/[^\x00-\x7f]+/gu, (run) => encodeURI(run));
  } catch {
    return undefined; // a lone surrogate has no UTF-8 form to compare with
  }
}

const modeOption = (): Option =>
  new Option('--mode <mode>', 'google: what Googlebot does (typos, missing colons…); rfc: strict RFC 9309')
    .choices(['google', 'rfc'])
    .default('google');
const formatOption = (): Option =>
  new Option('--format <format>', 'output format').choices(['text', 'json']).default('text');

export function registerRobots(program: Command, ctx: CliContext): void {
  const robots = program
    .command('robots')
    .description('Check URLs against a robots.txt and lint it (RFC 9309; Google mode by default)')
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit robots check robots.txt --agent Googlebot https://example.com/private/a https://example.com/
  sitemapkit robots check https://example.com --agent Bingbot --json https://example.com/search?q=x
  sitemapkit robots lint robots.txt --sitemap dist/`,
    );

  robots
    .command('check')
    .description('Say for each URL whether the agent may fetch it, and which line decided')
    .argument('<robots>', 'robots.txt file, - for standard input, or the http(s) URL of the site')
    .argument(
      '<url...>',
      'absolute http(s) URLs to check, percent-encoded as they will be requested (matched exactly as given)',
    )
    .requiredOption('--agent <token>', 'product token of the crawler, e.g. Googlebot (case-insensitive)')
    .addOption(modeOption())
    .addOption(formatOption())
    .option('--json', 'short for --format json: one JSON object a URL: {url, allowed, line, rule, reason}')
    .option('--why', 'text format: print the reason under each URL')
    .addHelpText(
      'after',
      `
Exit codes: 0 every URL allowed; 1 some URL disallowed; 2 usage error (an argument that is not an
http(s) URL, such as a bare path) or ROBOTS unreadable.
A robots.txt URL answering 4xx allows everything; 5xx, 429 or no answer disallows everything.
A URL with raw non-ASCII characters is matched as written; a warning says when its percent-encoded
form (what crawlers request) would be judged differently.`,
    )
    .action(async (source: string, urls: string[], flags: CheckFlags) => {
      if (flags.agent.trim() === '') throw new UsageError('--agent needs a product token, e.g. Googlebot');
      if (!isProductToken(flags.agent)) {
        ctx.stderr.write(
          `note: --agent "${flags.agent}" is not a product token ([a-zA-Z_-]+); groups name tokens such as Googlebot, so it may match none\n`,
        );
      }
      for (const url of urls) checkUrlArgument(url, source);
      const json = flags.json === true || flags.format === 'json';
      const { robots: rules } = await loadRobots(source, flags.mode, ctx);
      let disallowed = 0;
      const width = Math.min(Math.max(...urls.map((u) => u.length)), 80);
      for (const url of urls) {
        const e = rules.explain(url, flags.agent);
        if (!e.allowed) disallowed++;
        // Matching is octet-exact: a raw non-ASCII path can be judged unlike the encoded one.
        const encoded = requestedForm(url);
        if (encoded !== undefined) {
          const other = rules.explain(encoded, flags.agent);
          if (other.allowed !== e.allowed) {
            const by = other.line === null ? other.reason : `line ${other.line}: ${other.rule}`;
            ctx.stderr.write(
              `warning: ${url} has raw non-ASCII characters and is ${e.allowed ? 'allowed' : 'disallowed'} as written, but ${encoded}, the percent-encoded form crawlers request, is ${other.allowed ? 'allowed' : 'disallowed'} (${by}); check the form your crawler sends\n`,
            );
          }
        }
        if (json) {
          await writeOut(
            ctx.stdout,
            `${JSON.stringify({ url, allowed: e.allowed, line: e.line, rule: e.rule, reason: e.reason })}\n`,
          );
          continue;
        }
        const where = e.line === null ? 'no rule decided' : `line ${e.line}: ${e.rule}`;
        let out = `${(e.allowed ? 'allowed' : 'disallowed').padEnd(10)} ${url.padEnd(width)}  (${where})\n`;
        if (flags.why) out += `           ${e.reason}\n`;
        await writeOut(ctx.stdout, out);
      }
      ctx.exitCode = disallowed > 0 ? EXIT_FINDINGS : EXIT_OK;
    });

  robots
    .command('lint')
    .description('Find mistakes in a robots.txt, and sitemap URLs that it disallows')
    .argument('<robots>', 'robots.txt file, - for standard input, or the http(s) URL of the site')
    .option(
      '--sitemap <source>',
      'check these sitemap URLs against the rules: an output folder of `generate`, its manifest, or a text file of URLs',
    )
    .option(
      '--agent <token>',
      `crawler to check sitemap URLs for (repeatable; default: ${DEFAULT_LINT_AGENTS.join(', ')})`,
      collect,
      [],
    )
    .addOption(modeOption())
    .addOption(formatOption())
    .option('--json', 'short for --format json: one diagnostic a line (JSON Lines)')
    .addHelpText(
      'after',
      `
Codes (see docs/robots.md): robots-rule-outside-group, robots-unknown-directive, robots-invalid-line,
robots-typo, robots-missing-colon, robots-unreachable-rule, robots-agent-token,
robots-crawl-delay-invalid, robots-sitemap-relative, robots-sitemap-invalid, robots-no-sitemap,
robots-sitemap-disallowed, robots-line-too-long, robots-too-large.

Exit codes: 0 no errors or warnings (notes are fine); 1 errors or warnings found; 2 usage error or input unreadable.`,
    )
    .action(async (source: string, flags: LintFlags) => {
      const json = flags.json === true || flags.format === 'json';
      const { robots: rules, where } = await loadRobots(source, flags.mode, ctx);
      const counts = { error: 0, warning: 0, info: 0 };
      const emit = async (d: Diagnostic): Promise<void> => {
        counts[d.severity]++;
        await writeOut(ctx.stdout, `${json ? JSON.stringify(d) : formatDiagnostic(d)}\n`);
      };
      for (const d of lintRobotsTxt(rules, { source: where })) await emit(d);
      let checked = 0;
      let blocked = 0;
      if (flags.sitemap !== undefined) {
        const options = { source: where, agents: flags.agent.length > 0 ? flags.agent : DEFAULT_LINT_AGENTS };
        const progress = new Progress('checking sitemap URLs', { stream: ctx.stderr as NodeJS.WriteStream });
        const sourceOptions = {
          stdin: ctx.stdin,
          signal: ctx.signal,
          // Problems of the sitemap itself are the parser's findings: shown, not counted here.
          onDiagnostic: (d: Diagnostic): void => {
            if (d.severity === 'error') ctx.stderr.write(`${formatDiagnostic(d)}\n`);
          },
        };
        for await (const u of readSourceUrls(flags.sitemap, sourceOptions)) {
          if (ctx.signal.aborted) break;
          checked++;
          const d = findSitemapConflict(rules, u.loc, options);
          if (d !== undefined) {
            blocked++;
            await emit(d);
          }
          progress.update(checked);
        }
        progress.stop();
      }
      const summary = [`${counts.error} error(s)`, `${counts.warning} warning(s)`, `${counts.info} note(s)`];
      const checkedText =
        flags.sitemap === undefined ? '' : `; ${checked} sitemap URL(s) checked, ${blocked} disallowed`;
      if (!json) ctx.stderr.write(`${where}: ${summary.join(', ')}${checkedText}\n`);
      ctx.exitCode = counts.error + counts.warning > 0 ? EXIT_FINDINGS : EXIT_OK;
    });
}
