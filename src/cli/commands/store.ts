/**
 * `sitemapkit store add|remove|import|list|stats --store FILE`: the site store from a shell or a
 * CMS hook. `add` and `remove` change a few URLs (arguments, `--input FILE`, or standard input),
 * `import` synchronises the whole set without building, `list` and `stats` read it. Building and
 * publishing is `generate --store FILE` (src/cli/store-build.ts).
 */
import { createInterface } from 'node:readline';
import { type Command, Option } from 'commander';
import type { Diagnostic } from '../../core/diagnostics.js';
import { isSitemapkitError } from '../../core/errors.js';
import { formatFromName, type InputFormat, readInput } from '../../sources/url-lists.js';
import type { ImportCounts } from '../../store/store.js';
import { openStore, type SiteStore } from '../../store/store.js';
import { chainSources } from '../../writer/batches.js';
import type { CliContext } from '../context.js';
import { DiagnosticReport } from '../diagnostic-report.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import { collect } from '../flags.js';
import {
  appendArg,
  columnsArg,
  delimiterArg,
  encodingArg,
  type InputFlags,
  inputOptions,
  listArg,
} from '../input-flags.js';
import { writeOut } from '../io.js';
import { checkInputFile, namingPath } from '../paths.js';
import { requireStore, storeName } from '../store-build.js';
import { cliWords } from '../words.js';

interface StoreFlags {
  store: string;
  json?: boolean;
}

interface ImportFlags extends StoreFlags, InputFlags {
  baseUrl?: string;
  input: string[];
  inputFormat?: InputFormat;
  onInvalid: 'fail' | 'skip' | 'drop-field';
  allowHost: string[];
  legacy?: boolean;
}

const STORE_FLAG = '--store <file|url>';
const STORE_HELP =
  'the site store: an SQLite file, or postgres://USER:PASSWORD@HOST/DB?schema=NAME (created when missing)';

/** The input flags `generate` has, for `add` and `import`. */
function inputFlags(cmd: Command): Command {
  return cmd
    .option('--base-url <url>', 'public URL of the output folder (needed once, for a new store)')
    .addOption(
      new Option(
        '--input-format <format>',
        'format of the inputs (default: from the file name; txt for standard input)',
      ).choices(['txt', 'csv', 'jsonl']),
    )
    .option(
      '--encoding <label>',
      'encoding of the input files when they have no BOM (default utf-8)',
      encodingArg,
    )
    .option('--delimiter <char>', 'CSV: the column delimiter (default: detected)', delimiterArg)
    .option(
      '--columns <pairs>',
      'CSV: map headers to fields, e.g. loc=URL,lastmod="Last Modified" (repeatable)',
      columnsArg,
    )
    .option('--ignore-columns <names>', 'CSV: leave these columns out (repeatable)', listArg)
    .addOption(
      new Option('--extra-columns <policy>', 'CSV: a column that is no field: fail, or ignore it')
        .choices(['fail', 'ignore'])
        .default('fail'),
    )
    .addOption(
      new Option(
        '--on-invalid <policy>',
        'an invalid or duplicate record: fail (import nothing), skip it, or drop-field',
      )
        .choices(['fail', 'skip', 'drop-field'])
        .default('fail'),
    )
    .option(
      '--allow-host <host>',
      'a host that cross-submits to this sitemap via its robots.txt (repeatable)',
      collect,
      [],
    )
    .option('--legacy', 'keep the image/video/news tags Google dropped in 2022')
    .option('--json', 'print the counts as JSON');
}

/** The record sources of `--input FILE…` (or `-`), read as `generate` reads its inputs. */
async function sourcesOf(
  inputs: readonly string[],
  flags: ImportFlags,
  ctx: CliContext,
): Promise<Array<() => AsyncIterable<unknown>>> {
  const out: Array<() => AsyncIterable<unknown>> = [];
  for (const input of inputs) {
    const format = flags.inputFormat ?? (input === '-' ? 'txt' : formatFromName(input));
    if (format === undefined) {
      throw new UsageError(
        `cannot tell the format of "${input}" from its name: pass --input-format txt|csv|jsonl`,
      );
    }
    if (input !== '-') await checkInputFile(input, 'read the input file', 'give the files inside it');
    out.push(() =>
      namingPath(readInput(input, format, ctx.stdin, inputOptions(flags)), input, 'read the input file'),
    );
  }
  return out;
}

/**
 * Opens the store. A store file that is not there is made only by an import that gives its base
 * URL: a command that could not use a new store (a first `add` without --base-url, `remove`,
 * `list`, `stats`) stops before opening, so it leaves no empty store file behind.
 */
async function withStore<T>(
  flags: StoreFlags & { baseUrl?: string },
  fn: (s: SiteStore) => Promise<T>,
  creates = false,
): Promise<T> {
  if (!creates || flags.baseUrl === undefined)
    await requireStore(
      flags.store,
      creates
        ? 'give --base-url URL to make it with this first import'
        : 'make one first with sitemapkit store import (or store add) --base-url URL',
    );
  const store = await openStore(flags.store, flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

function countsLine(verb: string, c: ImportCounts, store: string): string {
  const skipped = c.skipped > 0 ? `, ${c.skipped.toLocaleString('en-US')} skipped (see above)` : '';
  return `${verb} ${c.records.toLocaleString('en-US')} record${c.records === 1 ? '' : 's'} into ${store}: ${c.added} added, ${c.changed} changed, ${c.removed} removed, ${c.unchanged} unchanged${skipped}; publish with: sitemapkit generate --store ${store} --base-url URL --out DIR`;
}

/** Runs an import and reports it; invalid records under fail exit 1 with nothing imported. */
async function runImport(
  flags: ImportFlags,
  ctx: CliContext,
  sources: Array<() => AsyncIterable<unknown>>,
  mode: 'add' | 'sync',
): Promise<number> {
  const report = new DiagnosticReport(flags.json === true, ctx);
  let counts: ImportCounts;
  try {
    counts = await withStore(
      flags,
      (s) => {
        const options = {
          onInvalid: flags.onInvalid,
          allowHosts: flags.allowHost,
          legacy: flags.legacy === true,
          onDiagnostic: (d: Diagnostic) => report.add(d),
          signal: ctx.signal,
        };
        const source = chainSources(sources.map((f) => f()));
        return mode === 'add' ? s.add(source, options) : s.sync(source, options);
      },
      true,
    );
  } catch (error) {
    report.finish();
    if (isSitemapkitError(error, 'ERR_INVALID_ENTRY')) {
      if (flags.json)
        ctx.stdout.write(
          `${JSON.stringify({ ok: false, code: error.code, message: error.message, ...report.json() }, null, 2)}\n`,
        );
      else
        ctx.stderr.write(
          `sitemapkit: ${cliWords(error.message)}${error.hint ? `\n  ${cliWords(error.hint)}` : ''}\n`,
        );
      return EXIT_FINDINGS;
    }
    throw error;
  }
  report.finish();
  if (flags.json)
    ctx.stdout.write(
      `${JSON.stringify({ ok: counts.skipped === 0, ...counts, ...report.json() }, null, 2)}\n`,
    );
  else
    ctx.stdout.write(
      `${countsLine(mode === 'add' ? 'Added' : 'Synchronised', counts, storeName(flags.store))}\n`,
    );
  return counts.skipped > 0 ? EXIT_FINDINGS : EXIT_OK;
}

/** URLs from standard input, one a line (blank lines and # comments left out). */
async function* stdinLines(ctx: CliContext): AsyncGenerator<string> {
  for await (const line of createInterface({ input: ctx.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
    const t = line.trim();
    if (t !== '' && !t.startsWith('#')) yield t;
  }
}

export function registerStore(program: Command, ctx: CliContext): void {
  const store = program
    .command('store')
    .description(
      'Keep a site store: add, remove or import URLs, list them, and see its files (build with generate --store)',
    )
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit store import urls.txt --store site.db --base-url https://example.com/
  sitemapkit store add https://example.com/new-page --store site.db
  sitemapkit store remove https://example.com/old-page --store site.db
  sitemapkit generate --store site.db --base-url https://example.com/ --out dist/ --changes changes.jsonl
  sitemapkit store stats --store site.db

Exit codes: 0 done; 1 invalid records (nothing imported with --on-invalid fail) or records skipped;
2 usage error or could not run (the store is as it was); 130 interrupted.`,
    );

  inputFlags(
    store
      .command('add')
      .description(
        'Add or update a few URLs (arguments, --input FILE, or standard input); nothing is removed',
      )
      .argument('[url...]', 'URLs to add')
      .requiredOption(STORE_FLAG, STORE_HELP)
      .option(
        '--input <file>',
        'read records from this file (txt, CSV, JSONL; - for standard input; repeatable)',
        appendArg,
      ),
  ).action(async (urls: string[], flags: ImportFlags) => {
    const inputs = flags.input ?? [];
    const sources = await sourcesOf(inputs, flags, ctx);
    if (urls.length > 0) sources.push(() => toAsync(urls.map((loc) => ({ loc }))));
    if (sources.length === 0) sources.push(...(await sourcesOf(['-'], flags, ctx)));
    ctx.exitCode = await runImport(flags, ctx, sources, 'add');
  });

  inputFlags(
    store
      .command('import')
      .description(
        'Synchronise the store with the whole set (new, changed and removed URLs) without building',
      )
      .argument('<input...>', 'input files: .txt, .csv, .jsonl, or - for standard input')
      .requiredOption(STORE_FLAG, STORE_HELP),
  ).action(async (inputs: string[], flags: ImportFlags) => {
    ctx.exitCode = await runImport(flags, ctx, await sourcesOf(inputs, flags, ctx), 'sync');
  });

  store
    .command('remove')
    .description('Remove URLs (arguments, --input FILE with one URL a line, or standard input)')
    .argument('[url...]', 'URLs to remove')
    .requiredOption(STORE_FLAG, STORE_HELP)
    .option('--input <file>', 'a file of URLs, one a line (- for standard input)')
    .option('--json', 'print the counts as JSON')
    .action(async (urls: string[], flags: StoreFlags & { input?: string }) => {
      let locs: AsyncIterable<string>;
      if (urls.length > 0) locs = toAsync(urls);
      else if (flags.input !== undefined && flags.input !== '-') {
        await checkInputFile(flags.input, 'read the input file', 'give a file of URLs');
        const path = flags.input;
        locs = (async function* () {
          for await (const r of readInput(path, 'txt')) yield (r as { loc: string }).loc;
        })();
      } else locs = stdinLines(ctx);
      const r = await withStore(flags, (s) => s.remove(locs));
      if (flags.json) ctx.stdout.write(`${JSON.stringify(r)}\n`);
      else
        ctx.stdout.write(
          `Removed ${r.removed.toLocaleString('en-US')} URL${r.removed === 1 ? '' : 's'} from ${storeName(flags.store)}${r.unknown > 0 ? ` (${r.unknown} not in the store)` : ''}\n`,
        );
      ctx.exitCode = EXIT_OK;
    });

  store
    .command('list')
    .description('Print the live URLs, one a line (or the removed ones kept as tombstones)')
    .requiredOption(STORE_FLAG, STORE_HELP)
    .option('--removed', 'the removed URLs (tombstones) instead')
    .option('--json', 'one JSON object a line: loc, lastmod, section, file, firstSeen, removedAt')
    .action(async (flags: StoreFlags & { removed?: boolean }) => {
      await withStore(flags, async (s) => {
        let buf = '';
        for await (const u of s.list({ removed: flags.removed === true })) {
          buf += flags.json ? `${JSON.stringify(u)}\n` : `${u.loc}\n`;
          if (buf.length > 65536) {
            await writeOut(ctx.stdout, buf);
            buf = '';
          }
        }
        await writeOut(ctx.stdout, buf);
      });
      ctx.exitCode = EXIT_OK;
    });

  store
    .command('stats')
    .description('Counts per section and per file, pending changes and the last build')
    .requiredOption(STORE_FLAG, STORE_HELP)
    .option('--json', 'print the statistics as JSON')
    .action(async (flags: StoreFlags) => {
      const st = await withStore(flags, (s) => s.stats());
      if (flags.json) {
        ctx.stdout.write(`${JSON.stringify(st, null, 2)}\n`);
      } else {
        const lines = [
          `${storeName(flags.store)}: ${st.live.toLocaleString('en-US')} live URLs in ${st.files.length} files, ${st.removed.toLocaleString('en-US')} removed (tombstones)`,
          `  not yet published: ${st.pending.added} added, ${st.pending.changed} changed, ${st.pending.removed} removed`,
        ];
        for (const sec of st.sections)
          lines.push(
            `  section ${sec.section === '' ? '(none)' : sec.section}: ${sec.urls.toLocaleString('en-US')} URLs in ${sec.files} files`,
          );
        for (const f of st.files)
          lines.push(
            `    ${f.path}: ${f.urls.toLocaleString('en-US')} URLs, ${f.bytes.toLocaleString('en-US')} bytes${f.news > 0 ? `, ${f.news} news` : ''}`,
          );
        const b = st.lastBuild;
        lines.push(
          b === undefined
            ? '  last build: none yet'
            : `  last build: ${b.at} to ${b.outDir}: ${b.urls.toLocaleString('en-US')} URLs, ${b.added} added, ${b.changed} changed, ${b.removed} removed; ${b.rewritten} of ${b.files} files written, ${b.deleted} deleted`,
        );
        ctx.stdout.write(`${lines.join('\n')}\n`);
      }
      ctx.exitCode = EXIT_OK;
    });
}

async function* toAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}
