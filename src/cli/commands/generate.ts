import { isAbsolute, join, relative, resolve } from 'node:path';
import { type Command, Option } from 'commander';
import type { Diagnostic } from '../../core/diagnostics.js';
import { enNumber } from '../../core/en-number.js';
import { isSitemapkitError, SitemapkitError } from '../../core/errors.js';
import { MAX_BYTES, MAX_URLS } from '../../core/limits.js';
import { readNextPages } from '../../next/pages.js';
import { readStaticSite } from '../../sources/static-site.js';
import { formatFromName, type InputFormat, readInput } from '../../sources/url-lists.js';
import { chainSources } from '../../writer/batches.js';
import { readManifestHeader } from '../../writer/manifest.js';
import { checkRobotsFile } from '../../writer/robots-file.js';
import { type WriteSitemapsResult, writeSitemaps } from '../../writer/write-sitemaps.js';
import type { CliContext } from '../context.js';
import { DiagnosticReport } from '../diagnostic-report.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import {
  type ExtrasFlags,
  extrasWriterOptions,
  feedOption,
  feedSizeOption,
  feedTitleOption,
  lastmodPolicyOption,
  newsWindowOption,
} from '../extras-flags.js';
import { collect, wholeNumberArg } from '../flags.js';
import {
  appendArg,
  columnsArg,
  defaultJsonlThreads,
  delimiterArg,
  encodingArg,
  type ImageFlags,
  type InputFlags,
  imageFilterOptions,
  inputOptions,
  listArg,
  shareArg,
} from '../input-flags.js';
import { addNameOptions, type NameFlags, nameWriterOptions } from '../name-flags.js';
import { checkInputFile, checkInputFolder, namingPath } from '../paths.js';
import { Progress } from '../progress.js';
import { addSourceOptions, extraSources, hasSourceFlags, type SourceFlags } from '../source-flags.js';
import { type SqlFlags, sqlSource } from '../sql-flags.js';
import { maxDropArg, runStoreGenerate } from '../store-build.js';

interface GenerateFlags extends InputFlags, ImageFlags, ExtrasFlags, SqlFlags, SourceFlags, NameFlags {
  baseUrl: string;
  out: string;
  fromDir?: string;
  fromNext?: string;
  exclude: string[];
  lastmod: 'mtime' | 'git' | 'none';
  images: boolean;
  gzip?: boolean;
  format: 'xml' | 'txt';
  inputFormat?: InputFormat;
  maxUrls?: number;
  maxBytes?: number;
  allowHost: string[];
  xsl?: boolean | string;
  html?: boolean;
  siteName?: string;
  linksPerPage?: number;
  updateRobots?: string;
  onInvalid: 'fail' | 'skip' | 'drop-field';
  legacy?: boolean;
  dedupe: boolean;
  json?: boolean;
  store?: string;
  changes?: string;
  maxDrop?: string;
  force?: boolean;
}

export function registerGenerate(program: Command, ctx: CliContext): void {
  const command = program
    .command('generate')
    .description(
      'Write sitemaps from URL lists (txt, CSV, JSONL), standard input, a static site folder, server logs or existing sitemaps',
    )
    .argument(
      '[input...]',
      'input files: .txt (a URL a line), .csv (header row), .jsonl (entries), or - for stdin',
    )
    .requiredOption('--base-url <url>', 'public URL of the output folder, e.g. https://example.com/')
    .requiredOption('--out <dir>', 'output folder (only files of its own manifest are ever replaced)')
    .option('--from-dir <dir>', 'list the HTML pages of a static site folder')
    .option(
      '--from-next <dir>',
      'list the pages of a finished next build (the project folder or its static export); --base-url is the site URL (see also sitemapkit next)',
    )
    .option('--exclude <glob>', 'with --from-dir: leave out matching files (repeatable)', collect, [])
    .addOption(
      new Option('--lastmod <source>', 'with --from-dir: where lastmod comes from')
        .choices(['mtime', 'git', 'none'])
        .default('mtime'),
    )
    .option('--no-images', "with --from-dir: leave the pages' images out")
    .option(
      '--from-sql <query>',
      'the rows of a SELECT, columns named like CSV (loc, lastmod, …); needs --db',
    )
    .option(
      '--db <url>',
      'with --from-sql: postgres://USER:PASSWORD@HOST:PORT/DB (PG* variables fill gaps) or sqlite:PATH',
    )
    // How inputs are read (src/cli/input-flags.ts; docs/inputs.md).
    .option(
      '--encoding <label>',
      'encoding of the input files when they have no BOM (default utf-8), e.g. windows-1252',
      encodingArg,
    )
    .option(
      '--threads <n>',
      'worker threads that read and check a JSONL file while this one writes: 0 or 1 (default: 1 with two or more CPUs, else 0; see docs/inputs.md)',
      wholeNumberArg('--threads', 0, 1),
    )
    .option(
      '--delimiter <char>',
      'CSV: the column delimiter (default: detected from the header row: , ; or tab)',
      delimiterArg,
    )
    .option(
      '--columns <pairs>',
      'CSV: map headers to fields, e.g. loc=URL,lastmod="Last Modified" (repeatable)',
      columnsArg,
    )
    .option(
      '--ignore-columns <names>',
      'CSV: leave these columns out, e.g. Price,Stock (repeatable)',
      listArg,
    )
    .addOption(
      new Option('--extra-columns <policy>', 'CSV: a column that is no field: fail, or ignore it')
        .choices(['fail', 'ignore'])
        .default('fail'),
    )
    .option(
      '--image-max-share <share>',
      'with --from-dir: leave out images on more than this share of the pages, e.g. a logo (default 0.5; 1 keeps all)',
      shareArg,
    )
    .option(
      '--exclude-images <glob>',
      'with --from-dir: leave out images whose URL or path matches (repeatable)',
      appendArg,
    )
    .option('--gzip', 'compress the files (.gz)')
    .addOption(new Option('--format <format>', 'output format').choices(['xml', 'txt']).default('xml'))
    .addOption(
      new Option('--input-format <format>', 'format of the inputs (default: from the file name)').choices([
        'txt',
        'csv',
        'jsonl',
      ]),
    )
    .option(
      '--max-urls <n>',
      `URLs per file (at most ${MAX_URLS})`,
      wholeNumberArg('--max-urls', 1, MAX_URLS),
    )
    .option(
      '--max-bytes <n>',
      `uncompressed bytes per file (at most ${MAX_BYTES})`,
      wholeNumberArg('--max-bytes', 1, MAX_BYTES),
    )
    .option(
      '--allow-host <host>',
      'a host that cross-submits to this sitemap via its robots.txt (repeatable)',
      collect,
      [],
    )
    .option(
      '--xsl [url]',
      'reference an XSL stylesheet: the bundled one (copied into --out) or URL (ending in .xsl, or --xsl=URL)',
    )
    .option('--html', 'also write an HTML site map for people (sitemap.html)')
    .option('--site-name <name>', 'with --html: the site name in its headings (default: the host)')
    .option(
      '--links-per-page <n>',
      'with --html: links a page (default 100)',
      wholeNumberArg('--links-per-page', 1),
    )
    .option('--update-robots <file>', 'add or replace the Sitemap: lines in this robots.txt')
    .addOption(
      new Option(
        '--on-invalid <policy>',
        'an invalid or duplicate record: fail (write nothing), skip it, or drop-field (keep the URL without its bad lastmod, changefreq, priority, image, video, news or alternates; skip it when its loc is bad)',
      )
        .choices(['fail', 'skip', 'drop-field'])
        .default('fail'),
    )
    .option('--legacy', 'keep the image/video/news tags Google dropped in 2022')
    .option('--no-dedupe', 'skip duplicate detection (it holds about 8 bytes per URL; memory is then flat)')
    .option('--json', 'print a machine-readable summary (JSON) on stdout')
    // News window, delta feed, lastmod policy (src/cli/extras-flags.ts; docs/news-and-feeds.md).
    .addOption(newsWindowOption())
    .addOption(feedOption())
    .addOption(feedSizeOption())
    .addOption(feedTitleOption())
    .addOption(lastmodPolicyOption())
    // The site store (src/cli/store-build.ts; docs/store.md).
    .option(
      '--store <file|url>',
      'site store (an SQLite file, or postgres://…?schema=NAME; created when missing): the inputs are the whole set; only changed files are rewritten; without inputs, build from the store',
    )
    .option('--changes <file>', 'with --store: write what the build changed (URLs and files) as JSON Lines')
    .option(
      '--max-drop <limit>',
      'with --store: refuse to publish a build that removes more than this of the published URLs, a share or a count (default 10%)',
      maxDropArg,
    )
    .option('--force', 'with --store: publish even past --max-drop')
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit generate urls.txt --base-url https://example.com/ --out dist/
  sitemapkit generate pages.jsonl --base-url https://example.com/ --out dist/ --gzip --xsl --html
  sitemapkit generate --from-dir public/ --exclude "drafts/**" --base-url https://example.com/ --out public/ --update-robots public/robots.txt
  cat urls.txt | sitemapkit generate - --input-format txt --base-url https://example.com/ --out dist/
  sitemapkit generate news.jsonl --base-url https://example.com/ --out dist/ --feed atom --news-window 36h
  sitemapkit generate --from-sql "SELECT url AS loc, updated_at AS lastmod FROM pages" --db postgres://app@db/shop --base-url https://example.com/ --out dist/
  sitemapkit generate --from-log /var/log/nginx/access.log* --site https://example.com/ --base-url https://example.com/ --out dist/
  sitemapkit generate --from-sitemap https://example.com/sitemap_index.xml --base-url https://example.com/ --out dist/
  sitemapkit generate urls.txt --base-url https://example.com/ --out dist/ --store site.db --changes changes.jsonl

Exit codes: 0 written; 1 invalid records (nothing written with --on-invalid fail), records skipped, no URLs,
or the sitemaps were written but robots.txt could not be updated; 2 usage error or could not run (nothing
written); 130 interrupted.`,
    )
    .action(async (inputs: string[], flags: GenerateFlags) => {
      ctx.exitCode = await runGenerate(inputs, flags, ctx);
    });
  addSourceOptions(command);
  addNameOptions(command);
}

async function runGenerate(inputs: string[], flags: GenerateFlags, ctx: CliContext): Promise<number> {
  const fromSql = sqlSource(flags, ctx.signal);
  if (
    inputs.length === 0 &&
    flags.fromDir === undefined &&
    flags.fromNext === undefined &&
    fromSql === undefined &&
    !hasSourceFlags(flags) &&
    flags.store === undefined
  ) {
    throw new UsageError(
      'give input files (or - for standard input), --from-dir DIR, --from-next DIR, --from-sql QUERY --db URL, --from-log FILE or --from-sitemap SOURCE (or --store FILE alone, to build from the store)',
    );
  }
  if (flags.store === undefined) {
    for (const [set, name] of [
      [flags.changes, '--changes'],
      [flags.maxDrop, '--max-drop'],
      [flags.force, '--force'],
    ] as const)
      if (set !== undefined) throw new UsageError(`${name} needs --store FILE`);
  }
  const names = nameWriterOptions(flags, flags.store);
  const sources: Array<() => AsyncIterable<unknown>> = [];
  for (const input of inputs) {
    const format = flags.inputFormat ?? (input === '-' ? undefined : formatFromName(input));
    if (format === undefined) {
      throw new UsageError(
        input === '-'
          ? 'reading standard input needs --input-format txt|csv|jsonl'
          : `cannot tell the format of "${input}" from its name: pass --input-format txt|csv|jsonl`,
      );
    }
    if (input !== '-') {
      await checkInputFile(
        input,
        'read the input file',
        'give the files inside it, or --from-dir DIR for the HTML pages of a static site',
      );
    }
    sources.push(() =>
      namingPath(
        readInput(
          input,
          format,
          ctx.stdin,
          inputOptions({ ...flags, threads: flags.threads ?? defaultJsonlThreads() }),
        ),
        input,
        'read the input file',
      ),
    );
  }
  if (flags.fromDir !== undefined) {
    await checkInputFolder(
      flags.fromDir,
      'list the pages of the site folder',
      'give the folder of the site (--from-dir), or the file itself as an input',
    );
  }
  if (fromSql !== undefined) sources.push(fromSql);
  if (flags.fromNext !== undefined && flags.lastmod === 'git')
    throw new UsageError(
      "--lastmod git does not apply to --from-next: the build's files are not in git; use --lastmod mtime or none",
    );
  // Checked before the run, so a wrong path fails before any input is read; the writer checks
  // again just before it publishes.
  if (flags.updateRobots !== undefined) await checkRobotsFile(flags.updateRobots);
  if (typeof flags.xsl === 'string') warnCrossOriginXsl(flags.xsl, flags.baseUrl, ctx);
  const report = new DiagnosticReport(flags.json === true, ctx);
  const onDiagnostic = (d: Diagnostic): void => report.add(d);
  const extra = await extraSources(flags, ctx, onDiagnostic, inputs);
  if (flags.fromDir !== undefined) {
    const dir = flags.fromDir;
    // Our own HTML site map pages must not be listed as pages when --out is the site folder.
    const skip = new Set<string>();
    const previous = await readManifestHeader(flags.out).catch(() => undefined);
    for (const f of previous?.files ?? []) if (f.kind === 'html') skip.add(resolve(flags.out, f.path));
    // --base-url is the public URL of --out. When --out lies inside the site folder, the site's
    // own URL is that many folders up; otherwise --out is taken to be published at the site root.
    const rel = relative(resolve(dir), resolve(flags.out)).split('\\').join('/');
    const outInside = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
    const siteBase = outInside
      ? new URL(
          `${rel
            .split('/')
            .map(() => '..')
            .join('/')}/`,
          flags.baseUrl,
        ).href
      : flags.baseUrl;
    sources.push(() =>
      namingPath(
        readStaticSite({
          dir,
          baseUrl: siteBase,
          exclude: flags.exclude,
          skip,
          lastmod: flags.lastmod,
          images: flags.images,
          imageFilter: imageFilterOptions(flags),
          onDiagnostic,
        }),
        dir,
        'read the site folder',
      ),
    );
  }
  if (flags.fromNext !== undefined) {
    const dir = flags.fromNext;
    sources.push(() =>
      namingPath(
        readNextPages({
          dir,
          siteUrl: flags.baseUrl,
          lastmod: flags.lastmod === 'mtime' ? 'mtime' : 'none',
          images: flags.images,
          imageFilter: imageFilterOptions(flags),
          onDiagnostic,
        }),
        dir,
        'read the Next.js build',
      ),
    );
  }
  const progress = new Progress('generate: records', { stream: ctx.stderr as NodeJS.WriteStream });
  if (flags.store !== undefined) {
    // A store takes its input as the whole set: a sitemap that could not be read would remove
    // its URLs. Checked after every record is in, inside the sync, so the store rolls back.
    const whole = async function* (): AsyncGenerator<never> {
      if (extra.partial())
        throw new SitemapkitError(
          'ERR_INPUT',
          'a sitemap given with --from-sitemap could not be read (see above), and --store takes the input as the whole set, so nothing was published: the store and the sitemaps are as they were',
          { hint: 'fix or leave out that sitemap, then run again' },
        );
      yield* [];
    };
    const given = extra.after(sources);
    return runStoreGenerate(
      // Without inputs the build is from the store alone (no sync, nothing to guard).
      given.length === 0 ? given : [...given, whole],
      { ...flags, store: flags.store },
      ctx,
      report,
      progress,
    );
  }
  const started = Date.now();
  let result: WriteSitemapsResult;
  try {
    result = await writeSitemaps(chainSources(extra.after(sources).map((s) => s())), {
      outDir: flags.out,
      baseUrl: flags.baseUrl,
      gzip: flags.gzip === true,
      format: flags.format,
      ...(flags.maxUrls !== undefined && { maxUrlsPerFile: flags.maxUrls }),
      ...(flags.maxBytes !== undefined && { maxBytesPerFile: flags.maxBytes }),
      onInvalid: flags.onInvalid,
      allowHosts: flags.allowHost,
      legacy: flags.legacy === true,
      dedupe: flags.dedupe,
      ...(flags.xsl !== undefined && { xsl: flags.xsl }),
      html:
        flags.html === true
          ? {
              ...(flags.siteName !== undefined && { siteName: flags.siteName }),
              ...(flags.linksPerPage !== undefined && { linksPerPage: flags.linksPerPage }),
            }
          : false,
      ...(flags.updateRobots !== undefined && { updateRobots: flags.updateRobots }),
      ...extrasWriterOptions(flags),
      ...names,
      onDiagnostic,
      onProgress: (n) => progress.update(n),
      signal: ctx.signal,
    });
  } catch (error) {
    progress.stop();
    report.finish();
    const findings =
      isSitemapkitError(error) && (error.code === 'ERR_INVALID_ENTRY' || error.code === 'ERR_NO_URLS');
    if (flags.json && isSitemapkitError(error)) {
      const { code, message, where, hint } = error;
      ctx.stdout.write(
        `${JSON.stringify({ ok: false, code, message, where, hint, ...extra.json(), ...report.json() }, null, 2)}\n`,
      );
      // The JSON says it all; the exit code (and, for a failure to run, one line on stderr) follows.
      if (findings) return EXIT_FINDINGS;
    } else if (findings) {
      ctx.stderr.write(`sitemapkit: ${error.message}${error.hint ? `\n  ${error.hint}` : ''}\n`);
      // What the logs held, so that "no URLs" says where the lines went (another host, assets…).
      for (const line of extra.lines()) ctx.stderr.write(`${line}\n`);
      return EXIT_FINDINGS;
    }
    throw error;
  }
  progress.stop();
  report.finish();
  const secs = (Date.now() - started) / 1000;
  if (flags.json) {
    ctx.stdout.write(
      `${JSON.stringify({ ok: result.skipped === 0 && !extra.partial(), seconds: secs, ...result, ...extra.json(), ...report.json() }, null, 2)}\n`,
    );
  } else {
    const files = result.files.length;
    const lines = [
      `Wrote ${enNumber(result.urls)} URL${result.urls === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} to ${flags.out} in ${secs.toFixed(1)} s`,
      `  entry point: ${result.entry.path} (${result.entry.url})`,
    ];
    for (const r of result.roots.slice(1)) lines.push(`  extra index: ${r.path} (${r.url})`);
    if (result.html.length > 0)
      lines.push(
        `  HTML site map: ${join(flags.out, 'sitemap.html')} (${result.html.length} page${result.html.length === 1 ? '' : 's'})`,
      );
    if (result.feed !== undefined)
      lines.push(
        `  delta feed: ${result.feed.path} (${result.feed.urls} URL${result.feed.urls === 1 ? '' : 's'})`,
      );
    if (flags.updateRobots !== undefined) lines.push(`  robots.txt updated: ${flags.updateRobots}`);
    lines.push(...extra.lines());
    if (result.skipped > 0)
      lines.push(
        `  ${enNumber(result.skipped)} invalid or duplicate record${result.skipped === 1 ? '' : 's'} skipped (see above)`,
      );
    ctx.stdout.write(`${lines.join('\n')}\n`);
  }
  return result.skipped > 0 || extra.partial() ? EXIT_FINDINGS : EXIT_OK;
}

/** Browsers apply an XSL stylesheet only from the sitemap's own origin. */
function warnCrossOriginXsl(xsl: string, baseUrl: string, ctx: CliContext): void {
  let sheet: URL;
  let base: URL;
  try {
    base = new URL(baseUrl);
    sheet = new URL(xsl, base);
  } catch {
    return; // --base-url is checked by the writer, with its own message
  }
  if (sheet.origin === base.origin) return;
  ctx.stderr.write(
    `sitemapkit: warning: --xsl ${xsl} is on another origin than --base-url (${base.origin}): browsers refuse a cross-origin XSL stylesheet, so the sitemap will show unstyled; copy the stylesheet onto your site and give its path, such as --xsl /sitemap.xsl (or --xsl for the bundled one)\n`,
  );
}
