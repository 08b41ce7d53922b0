import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { Severity } from '../../core/diagnostics.js';
import { fsError } from '../../core/fs-errors.js';
import { SITEMAP_TIMEOUT_MS } from '../../parser/options.js';
import type { SitemapSource } from '../../parser/types.js';
import { CONFIG_FILE_NAME, readValidateConfig, type ValidateConfig } from '../../validate/config.js';
import { checkRuleCode, LIVE_DEFAULTS } from '../../validate/options.js';
import { formatValidation, REPORT_FORMATS, type ReportFormat } from '../../validate/report/index.js';
import { countsLine } from '../../validate/report/text.js';
import type { LiveOptions, RuleSetting, ValidateOptions } from '../../validate/types.js';
import { validateSitemap } from '../../validate/validate.js';
import { writeFileAtomic } from '../../writer/atomic.js';
import type { CliContext } from '../context.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import {
  type AddressFlags,
  ALLOW_PRIVATE_HELP,
  addressPolicyOf,
  collect,
  durationFlag,
  parseHeaders,
  STRICT_ADDRESSES_HELP,
  seconds,
  wholeNumber,
} from '../flags.js';
import { useColor, writeOut } from '../io.js';
import { checkSitemapFile, isLocalPath } from '../paths.js';
import { Progress } from '../progress.js';

interface ValidateFlags extends AddressFlags {
  recursive?: boolean;
  discover?: boolean;
  sitemapUrl?: string;
  robots?: string | false;
  agent?: string;
  allowHost: string[];
  live?: boolean;
  concurrency?: string;
  perHost?: string;
  liveTimeout?: string;
  liveLimit?: string;
  liveMethod?: 'auto' | 'get';
  ignoreRobots?: boolean;
  format?: ReportFormat;
  json?: boolean;
  out?: string;
  maxWarnings?: string;
  disable: string[];
  rule: string[];
  config?: string | false;
  header: string[];
  userAgent?: string;
  timeout?: string;
}

/** `--disable a,b --disable c` → [a, b, c], each checked. */
function disabled(raw: readonly string[]): string[] {
  const out = raw.flatMap((r) => r.split(',').map((s) => s.trim())).filter((s) => s !== '');
  for (const code of out) checkRuleCode(code, '--disable');
  return out;
}

/** `--rule CODE=SEVERITY` (repeatable). */
function ruleFlags(raw: readonly string[]): Record<string, RuleSetting> {
  const out: Record<string, RuleSetting> = {};
  for (const r of raw) {
    const m = /^([a-z0-9-]+)=(error|warning|info|off)$/.exec(r.trim());
    if (m === null) throw new UsageError(`--rule needs CODE=error|warning|info|off, not "${r}"`);
    checkRuleCode(m[1]!, '--rule');
    out[m[1]!] = m[2] as Severity | 'off';
  }
  return out;
}

async function loadConfig(flags: ValidateFlags): Promise<ValidateConfig> {
  if (flags.config === false) return {};
  if (flags.config !== undefined) return readValidateConfig(flags.config);
  const found = resolve(CONFIG_FILE_NAME);
  return existsSync(found) ? readValidateConfig(found) : {};
}

function liveOptions(flags: ValidateFlags, config: ValidateConfig): ValidateOptions['live'] {
  const base: LiveOptions = typeof config.live === 'object' ? { ...config.live } : {};
  const on = flags.live === true || config.live === true || typeof config.live === 'object';
  const concurrency = wholeNumber('--concurrency', flags.concurrency);
  const perHost = wholeNumber('--per-host', flags.perHost);
  const timeoutMs = durationFlag('--live-timeout', flags.liveTimeout, 'ms', 1);
  const limit = wholeNumber('--live-limit', flags.liveLimit, 0);
  if (concurrency !== undefined) base.concurrency = concurrency;
  if (perHost !== undefined) base.perHost = perHost;
  if (timeoutMs !== undefined) base.timeoutMs = timeoutMs;
  if (limit !== undefined) base.limit = limit;
  if (flags.liveMethod !== undefined) base.method = flags.liveMethod;
  if (flags.ignoreRobots === true) base.ignoreRobots = true;
  const tuned = concurrency ?? perHost ?? timeoutMs ?? limit ?? flags.liveMethod ?? flags.ignoreRobots;
  if (!on && tuned !== undefined)
    throw new UsageError('--concurrency, --per-host, --ignore-robots and --live-* need --live');
  return on ? base : false;
}

export function registerValidate(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('Validate sitemaps: protocol, quality, robots.txt and (with --live) every listed page')
    .argument('<source...>', 'sitemap files, http(s) URLs, or - for standard input')
    .option(
      '-r, --recursive',
      'follow sitemap indexes and validate the whole tree (the default, except for a local file without --sitemap-url, whose children would be fetched from the live site)',
    )
    .option('--no-recursive', 'validate each SOURCE alone, without the sitemaps an index lists')
    .option(
      '--discover',
      'SOURCE is a site: validate the sitemaps its robots.txt names (else /sitemap.xml…), as trees',
    )
    .option(
      '--sitemap-url <url>',
      'public URL of a local sitemap: the location rule, robots.txt, and children read from beside it',
    )
    .option('--robots <url|file>', "robots.txt to check against (default: the site's, for an http(s) SOURCE)")
    .option('--no-robots', 'do not check the sitemap against robots.txt (--live still obeys it)')
    .option('--agent <name>', 'crawler for robots.txt rules and robots meta tags (default Googlebot)')
    .option('--allow-host <host>', 'a host that cross-submits to this sitemap (repeatable)', collect, [])
    .option('--live', 'fetch every listed page: status, redirects, noindex, canonical, Last-Modified, type')
    .option('--concurrency <n>', `live requests at once (default ${LIVE_DEFAULTS.concurrency})`)
    .option('--per-host <n>', `live requests at once per host (default ${LIVE_DEFAULTS.perHost})`)
    .option(
      '--live-timeout <duration>',
      `time allowed per page, such as 15s; a bare number is milliseconds (default ${seconds(LIVE_DEFAULTS.timeoutMs)})`,
    )
    .option('--live-limit <n>', 'fetch at most N pages (the first listed)')
    .option(
      '--ignore-robots',
      'with --live: also fetch pages robots.txt disallows (only for a site you own, such as a staging build)',
    )
    .addOption(
      new Option('--live-method <method>', 'auto: HEAD, then GET for HTML pages; get: GET only').choices([
        'auto',
        'get',
      ]),
    )
    .addOption(new Option('--format <format>', 'report format (default text)').choices([...REPORT_FORMATS]))
    .option('--json', 'short for --format json')
    .option('--out <file>', 'write the report to FILE (atomically) instead of standard output')
    .option('--max-warnings <n>', 'fail (exit 1) when there are more warnings than N')
    .option('--disable <code>', 'turn a rule off (repeatable, or comma-separated)', collect, [])
    .option(
      '--rule <code=severity>',
      'give a rule another severity: error, warning, info or off (repeatable)',
      collect,
      [],
    )
    .option('--config <file>', `settings file (default ./${CONFIG_FILE_NAME} when present)`)
    .option('--no-config', `ignore ./${CONFIG_FILE_NAME}`)
    .option('--header <name:value>', 'extra request header (repeatable)', collect, [])
    .option('--user-agent <ua>', 'User-Agent of every request')
    .option('--allow-private-addresses', ALLOW_PRIVATE_HELP)
    .option('--strict-addresses', STRICT_ADDRESSES_HELP)
    .option(
      '--timeout <duration>',
      `time allowed per sitemap request, such as 30s; a bare number is milliseconds (default ${seconds(SITEMAP_TIMEOUT_MS)})`,
    )
    .addHelpText(
      'after',
      `
Rules: every code, its severity and its fix are in docs/rules.md. Errors break the protocol (what
the XSDs check and more, without xmllint); warnings hurt quality (duplicates, mixed hosts, session
IDs, assets as pages, lastmods search engines distrust, robots.txt); notes are advice. --live adds
one error per page that should not be listed (4xx, 5xx, redirects, noindex, canonical elsewhere,
stale lastmod, not HTML), politely: bounded concurrency, a per-host limit, Retry-After honoured,
and robots.txt obeyed as the crawler obeys it (a disallowed URL is reported, never fetched; on
your own site, --ignore-robots fetches it anyway).

Examples:
  sitemapkit validate https://www.example.com --discover --live
  sitemapkit validate https://www.example.com/sitemap_index.xml --live      (the index and its sitemaps)
  sitemapkit validate https://www.example.com/sitemap_index.xml --no-recursive   (the index alone)
  sitemapkit validate dist/sitemap.xml --sitemap-url https://www.example.com/sitemap.xml --robots dist/robots.txt
  sitemapkit validate https://www.example.com/sitemap.xml --live --format html --out report.html
  sitemapkit validate sitemap.xml --format junit --out validate.xml --max-warnings 0
  sitemapkit validate sitemap.xml --disable priority-ignored --rule url-duplicate=error

Exit codes: 0 no errors (and no more warnings than --max-warnings); 1 errors found, or too many
warnings; 2 usage error, or SOURCE could not be read at all; 130 interrupted.`,
    )
    .action(async (sources: string[], flags: ValidateFlags) => {
      const config = await loadConfig(flags);
      const format: ReportFormat = flags.json === true ? 'json' : (flags.format ?? config.format ?? 'text');
      if (flags.json === true && flags.format !== undefined && flags.format !== 'json')
        throw new UsageError('--json and --format disagree; give one of them');
      const maxWarnings = wholeNumber('--max-warnings', flags.maxWarnings, 0) ?? config.maxWarnings;
      const sitemapUrl = flags.sitemapUrl ?? config.sitemapUrl;
      // An index's children are what a person means to check, wherever they can be read as they
      // are: fetched (URLs), or beside a local index whose public URL is known (--sitemap-url).
      const followable =
        sources.every((s) => /^https?:\/\//i.test(s)) || (sitemapUrl !== undefined && !sources.includes('-'));
      const recursive = flags.recursive ?? config.recursive ?? followable;
      if (flags.discover === true && (sources.length !== 1 || !/^https?:\/\//i.test(sources[0]!)))
        throw new UsageError(
          '--discover needs the http(s) URL of one site, such as https://www.example.com/',
        );
      if (sources.includes('-') && sources.length > 1)
        throw new UsageError('- (standard input) cannot be combined with other sources');
      if (sources.includes('-') && recursive)
        throw new UsageError('--recursive needs a file or URL, not standard input');
      if (sitemapUrl !== undefined) {
        if (!/^https?:\/\/[^/]/i.test(sitemapUrl))
          throw new UsageError(`--sitemap-url needs an http(s) URL, not "${sitemapUrl}"`);
        if (sources.length > 1)
          throw new UsageError('--sitemap-url names one local sitemap; give one SOURCE');
        if (/^https?:\/\//i.test(sources[0]!))
          throw new UsageError('--sitemap-url is for a local file; a fetched sitemap has its own URL');
      }
      const rules: Record<string, RuleSetting> = { ...(config.rules ?? {}), ...ruleFlags(flags.rule) };
      const disable = [...(config.disable ?? []), ...disabled(flags.disable)];
      const live = liveOptions(flags, config);

      const progress = new Progress('validating', { stream: ctx.stderr as NodeJS.WriteStream });
      const options: ValidateOptions = {
        recursive,
        discover: flags.discover === true,
        rules,
        disable,
        agent: flags.agent ?? config.agent ?? 'Googlebot',
        allowHosts: [...(config.allowHosts ?? []), ...flags.allowHost],
        headers: parseHeaders(flags.header),
        signal: ctx.signal,
        onProgress: (p) =>
          progress.update(
            p.urls,
            `URLs, ${p.sitemaps} sitemaps${p.checked + p.pending > 0 ? `, ${p.checked} pages fetched` : ''}`,
          ),
      };
      if (live !== undefined && live !== false) options.live = live;
      if (sitemapUrl !== undefined) options.sitemapUrl = sitemapUrl;
      const robots = flags.robots ?? config.robots;
      if (robots !== undefined) options.robots = robots;
      if (flags.userAgent !== undefined) options.userAgent = flags.userAgent;
      const addressPolicy = addressPolicyOf(flags);
      if (addressPolicy !== undefined) options.addressPolicy = addressPolicy;
      const timeoutMs = durationFlag('--timeout', flags.timeout, 'ms', 1);
      if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;

      for (const s of sources) if (isLocalPath(s)) await checkSitemapFile(s);
      const source: SitemapSource | string[] = sources[0] === '-' ? ctx.stdin : sources;
      let result: Awaited<ReturnType<typeof validateSitemap>>;
      try {
        result = await validateSitemap(source, options);
      } catch (error) {
        const one = sources.length === 1 && isLocalPath(sources[0]!) ? sources[0]! : undefined;
        throw one === undefined ? error : fsError(error, { path: one, doing: 'read the sitemap' });
      } finally {
        progress.stop();
      }
      const tooManyWarnings = maxWarnings !== undefined && result.summary.warnings > maxWarnings;
      if (flags.out !== undefined) {
        await writeFileAtomic(flags.out, formatValidation(result, format), { doing: 'write the report' });
        ctx.stderr.write(
          `sitemapkit validate: ${result.summary.valid ? 'valid' : 'invalid'}: ${countsLine(result)}; report in ${flags.out}\n`,
        );
      } else {
        await writeOut(
          ctx.stdout,
          formatValidation(result, format, { color: useColor(ctx.stdout as { isTTY?: boolean }) }),
        );
      }
      if (tooManyWarnings) {
        ctx.stderr.write(
          `sitemapkit validate: ${result.summary.warnings} warnings, more than --max-warnings ${maxWarnings}\n`,
        );
      }
      ctx.exitCode = !result.summary.valid || tooManyWarnings ? EXIT_FINDINGS : EXIT_OK;
    });
}
