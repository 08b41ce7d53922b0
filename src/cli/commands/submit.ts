import { access, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Command, Option } from 'commander';
import { type Diagnostic, formatDiagnostic } from '../../core/diagnostics.js';
import { readChangeSet } from '../../submit/change-set-source.js';
import { type ChangeCounts, diffUrls } from '../../submit/changes.js';
import {
  type IndexNowBatchResult,
  type IndexNowReport,
  indexNowEndpoint,
  submitToIndexNow,
} from '../../submit/indexnow.js';
import { openSubmissionJournal } from '../../submit/journal.js';
import { assertValidKey, findKeyFile, generateKey, writeKeyFile } from '../../submit/key.js';
import { PING_NOTE, pingSitemap } from '../../submit/ping.js';
import { readSourceUrls, readUrlList, type SourceUrl, sourceKind } from '../../submit/url-source.js';
import { MANIFEST_NAME } from '../../writer/manifest.js';
import type { CliContext } from '../context.js';
import { EXIT_FINDINGS, EXIT_OK, UsageError } from '../exit.js';
import {
  type AddressFlags,
  ALLOW_PRIVATE_HELP,
  addressPolicyOf,
  collect,
  STRICT_ADDRESSES_HELP,
} from '../flags.js';
import { writeOut } from '../io.js';
import { checkInputFile, namingPath } from '../paths.js';
import { Progress } from '../progress.js';
import { addGoogleOptions, SITE_HELP } from './google-flags.js';
import {
  addBingOptions,
  bingOptionsOf,
  type EngineFlags,
  journalDirOf,
  runBingSubmit,
} from './submit-bing.js';
import { ENGINE_HELP, runEngines } from './submit-engines.js';
import { checkGoogleSubmit, type GoogleSubmitFlags, runGoogleSubmit } from './submit-google.js';

interface SubmitFlags extends AddressFlags, GoogleSubmitFlags, EngineFlags {
  indexnow?: string;
  key: string[];
  keyLocation?: string;
  urls?: string;
  sitemap?: string;
  since?: string;
  changes?: string;
  ping?: string;
  verifyKey: boolean;
  dryRun?: boolean;
  format: 'text' | 'json';
  json?: boolean;
}

interface KeyFlags {
  out: string;
  length: number;
  json?: boolean;
}

/** `--key KEY` for every host, `--key HOST=KEY` for one host. */
function parseKeys(values: string[]): { key?: string; keys: Record<string, string> } {
  const out: { key?: string; keys: Record<string, string> } = { keys: {} };
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq === -1) {
      if (out.key !== undefined)
        throw new UsageError('give one --key KEY for every host, or --key HOST=KEY per host');
      assertValidKey(v, '--key');
      out.key = v;
    } else {
      const host = v.slice(0, eq).toLowerCase();
      const key = v.slice(eq + 1);
      assertValidKey(key, `--key ${host}=…`);
      out.keys[host] = key;
    }
  }
  return out;
}

/** The current build: a sitemap file written by `generate` has its manifest beside it. */
async function currentSource(source: string): Promise<string> {
  if (/^https?:\/\//i.test(source) || source === '-') return source;
  if ((await sourceKind(source)) !== 'xml') return source;
  const beside = join(dirname(source), MANIFEST_NAME);
  try {
    await access(beside);
    return beside;
  } catch {
    return source;
  }
}

async function* locs(source: AsyncIterable<SourceUrl>): AsyncGenerator<string> {
  for await (const u of source) yield u.loc;
}

export function registerSubmit(program: Command, ctx: CliContext): void {
  // Every --sitemap given: Google takes several; IndexNow reads one source (the last, as before).
  const sitemaps: string[] = [];
  const submit = program
    .command('submit')
    .description(
      'Tell search engines about new, changed and removed URLs (IndexNow, Bing) and sitemaps (Google, Bing), or generate an IndexNow key',
    )
    .option('--engine <name>', ENGINE_HELP, collect, [])
    .option('--site <property>', SITE_HELP)
    .option(
      '--indexnow <endpoint>',
      'IndexNow endpoint, e.g. https://api.indexnow.org/indexnow (engines share submissions: use one)',
    )
    .option('--key <key>', 'IndexNow key for every host, or HOST=KEY for one host (repeatable)', collect, [])
    .option(
      '--key-location <url>',
      'where the key file is, when not at https://HOST/KEY.txt (URLs must then be in its folder)',
    )
    .option('--urls <file>', 'submit the URLs of this text file (one a line; - for standard input)')
    .option(
      '--sitemap <source>',
      'submit the URLs of a build: the --out folder of `generate`, its manifest, or a sitemap file beside one (Google: its sitemaps; a sitemap URL as given; repeatable)',
      (value: string) => {
        sitemaps.push(value);
        return value;
      },
    )
    .option(
      '--since <previous>',
      'with --sitemap: only what was added, changed or removed since this build (manifest file or folder)',
    )
    .option(
      '--changes <file>',
      'submit the added, changed and removed URLs of a change set (generate --store … --changes FILE; - for standard input)',
    )
    .option('--no-verify-key', 'post without first checking that each host serves its key file')
    .option('--allow-private-addresses', ALLOW_PRIVATE_HELP)
    .option('--strict-addresses', STRICT_ADDRESSES_HELP)
    .option('--dry-run', 'check the key files and print what would be submitted; post nothing')
    .option(
      '--ping <endpoint>',
      'legacy sitemap ping to this endpoint (with --sitemap URL); Google and Bing no longer accept it',
    )
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'json']).default('text'))
    .option('--json', 'short for --format json: print the report as one JSON object')
    .option(
      '--journal-dir <dir>',
      "where the submission journal is kept (default: the build folder, or the input file's folder)",
    )
    .option('--no-journal', 'keep no submission journal: what is not accepted is not sent again');
  addBingOptions(addGoogleOptions(submit))
    .addHelpText(
      'after',
      `
Examples:
  sitemapkit submit key --out DIR      # writes DIR/KEY.txt: publish it at the site root
  sitemapkit submit --indexnow https://api.indexnow.org/indexnow --key KEY --urls changed.txt
  cp dist/${MANIFEST_NAME} previous.json && sitemapkit generate … --out dist/
  sitemapkit submit --indexnow https://api.indexnow.org/indexnow --sitemap dist/ --since previous.json   # the key file in dist/
  sitemapkit submit --ping https://search.example/ping --sitemap https://example.com/sitemap.xml
  sitemapkit submit --indexnow https://api.indexnow.org/indexnow --key KEY --changes changes.jsonl
  sitemapkit submit --engine google --site sc-domain:example.com --credentials key.json --sitemap dist/
  sitemapkit submit --engine bing --site https://www.example.com/ --sitemap https://www.example.com/sitemap.xml
  sitemapkit submit --engine bing --site https://www.example.com/ --changes changes.jsonl   # BING_WEBMASTER_API_KEY

URLs are posted in batches of at most 10,000, one host at a time; 429 and 5xx are retried with
backoff (honouring Retry-After). Removed URLs are submitted too, as IndexNow asks.

Google (--engine google) takes sitemaps: a URL as given; from a build, the entry point and the
children the build changed; --dry-run prints its requests, the assertion and token redacted
(docs/google.md).

What an engine did not accept (a failure, Bing's daily quota, a crash) is kept in a submission
journal beside the build (.sitemapkit-submit-ENGINE.jsonl) and sent first by the next run.

Exit codes: 0 everything submitted (or nothing to submit); 1 some batch failed, URLs were left out
or kept for the next run; 2 usage error or could not run.`,
    )
    .action(async (flags: SubmitFlags) => {
      const several = flags.engine.flatMap((e) => e.split(',')).filter((e) => e.trim() !== '').length > 1;
      if (several && [flags.urls, flags.changes].includes('-'))
        throw new UsageError('several engines read the input once each: give a file, not - (standard input)');
      ctx.exitCode = await runEngines(flags.engine, ctx, {
        indexnow: {
          run: () => runSubmit(flags, ctx),
          flag: flags.indexnow === undefined ? undefined : '--indexnow',
        },
        google: {
          flag:
            flags.credentials !== undefined
              ? '--credentials'
              : flags.googleApiRoot === undefined
                ? undefined
                : '--google-api-root',
          check: () => checkGoogleSubmit({ ...flags, sitemaps }),
          run: () => runGoogleSubmit({ ...flags, sitemaps }, ctx),
        },
        bing: {
          flag:
            flags.apiKey !== undefined
              ? '--api-key'
              : flags.bingApiRoot === undefined
                ? undefined
                : '--bing-api-root',
          check: async () => {
            bingOptionsOf(flags, ctx);
          },
          run: () => runBingSubmit(flags, ctx),
        },
      });
    });

  submit
    .command('key')
    .description('Generate an IndexNow key and write its key file DIR/KEY.txt')
    .requiredOption('--out <dir>', 'folder published at the site root (created if missing)')
    .option(
      '--length <n>',
      'characters, 8 to 128',
      (v) => {
        if (!/^\d+$/.test(v)) throw new UsageError(`--length takes a whole number, got "${v}"`);
        return Number(v);
      },
      32,
    )
    .option('--json', 'print {key, file} as JSON')
    .addHelpText('after', '\nExit codes: 0 written; 2 usage error or the file could not be written.')
    .action(async (flags: KeyFlags) => {
      const key = generateKey(flags.length);
      const file = await writeKeyFile(flags.out, key);
      // The program parses options across subcommands, so `submit key --json` may land on `submit`.
      const parent = submit.opts<Partial<SubmitFlags>>();
      if (flags.json === true || parent.json === true || parent.format === 'json') {
        await writeOut(ctx.stdout, `${JSON.stringify({ key, file })}\n`);
      } else {
        await writeOut(
          ctx.stdout,
          `${key}\n` +
            `wrote ${file}\n` +
            `Publish it so that https://YOUR-HOST/${key}.txt serves it, then for example:\n` +
            `  sitemapkit submit --indexnow https://api.indexnow.org/indexnow --key ${key} --urls urls.txt\n`,
        );
      }
      ctx.exitCode = EXIT_OK;
    });
}

async function runSubmit(flags: SubmitFlags, ctx: CliContext): Promise<number> {
  const json = flags.json === true || flags.format === 'json';
  if (flags.ping !== undefined) {
    if (flags.indexnow !== undefined)
      throw new UsageError('--ping and --indexnow are separate: run them one at a time');
    if (flags.sitemap === undefined || !/^https?:\/\//i.test(flags.sitemap)) {
      throw new UsageError('--ping needs --sitemap with the public URL of the sitemap');
    }
    ctx.stderr.write(`${PING_NOTE}\n`);
    const r = await pingSitemap(flags.ping, flags.sitemap);
    await writeOut(ctx.stdout, json ? `${JSON.stringify(r)}\n` : `ping ${r.url}: HTTP ${r.httpStatus}\n`);
    return r.ok ? EXIT_OK : EXIT_FINDINGS;
  }
  if (flags.indexnow === undefined)
    throw new UsageError('give --indexnow ENDPOINT (or use `submit key --out DIR` to make a key)');
  if ([flags.urls, flags.sitemap, flags.changes].filter((f) => f !== undefined).length !== 1)
    throw new UsageError('give one of --urls FILE, --sitemap SOURCE or --changes FILE');
  if (flags.key.length === 0) {
    // A build folder holding the key file `submit key --out DIR` wrote submits with that key.
    const at = flags.sitemap;
    const local = at !== undefined && !/^https?:\/\//i.test(at);
    const dir = !local
      ? undefined
      : (await stat(at).catch(() => undefined))?.isDirectory()
        ? at
        : dirname(at);
    const found = dir === undefined ? undefined : await findKeyFile(dir);
    if (found === undefined) {
      throw new UsageError(
        `--indexnow needs --key KEY${dir === undefined ? '' : `: ${dir} holds no key file`} (make one with \`sitemapkit submit key --out DIR\`)`,
      );
    }
    ctx.stderr.write(`using the IndexNow key of ${found.file}\n`);
    flags.key = [found.key];
  }
  if (flags.since !== undefined && flags.sitemap === undefined)
    throw new UsageError('--since compares builds: it needs --sitemap SOURCE');
  const { key, keys } = parseKeys(flags.key);

  const addressPolicy = addressPolicyOf(flags);
  const sourceOptions = {
    ...(addressPolicy === undefined ? {} : { addressPolicy }),
    stdin: ctx.stdin,
    signal: ctx.signal,
    onDiagnostic: (d: Diagnostic): void => {
      if (d.severity === 'error') ctx.stderr.write(`${formatDiagnostic(d)}\n`);
    },
  };
  let counts: ChangeCounts | undefined;
  let urls: AsyncIterable<string>;
  const dryLines = flags.dryRun === true && !json;
  // In a dry run, each URL is printed with its batch once the batch's key check is known, so that
  // a URL whose host failed the check is never shown as one that would be submitted.
  const changeOf = new Map<string, string>();
  const setCounts = { added: 0, changed: 0, removed: 0 };
  if (flags.changes !== undefined) {
    if (flags.changes !== '-')
      await checkInputFile(flags.changes, 'read the change set', 'give the file generate --changes wrote');
    const records = readChangeSet(flags.changes, setCounts, ctx.stdin);
    urls = (async function* () {
      for await (const c of records) {
        if (dryLines) changeOf.set(c.loc, c.change);
        yield c.loc;
      }
    })();
  } else if (flags.urls !== undefined) {
    if (flags.urls !== '-')
      await checkInputFile(flags.urls, 'read the URL list', 'give a text file of URLs, one a line');
    urls = locs(namingPath(readUrlList(flags.urls, { stdin: ctx.stdin }), flags.urls, 'read the URL list'));
  } else {
    const current = await currentSource(flags.sitemap!);
    if (flags.since === undefined) {
      urls = locs(readSourceUrls(current, sourceOptions));
    } else {
      const since = flags.since;
      counts = { added: 0, changed: 0, removed: 0, unchanged: 0, previous: 0 };
      const changes = diffUrls(
        () => readSourceUrls(since, sourceOptions),
        readSourceUrls(current, sourceOptions),
        counts,
      );
      urls = (async function* () {
        for await (const c of changes) {
          if (dryLines) changeOf.set(c.loc, c.change);
          yield c.loc;
        }
      })();
    }
  }
  const printDry = async (list: readonly string[]): Promise<void> => {
    let text = '';
    for (const u of list) {
      const change = changeOf.get(u);
      changeOf.delete(u);
      text += change === undefined ? `${u}\n` : `${change.padEnd(8)} ${u}\n`;
    }
    await writeOut(ctx.stdout, text);
  };

  const progress = new Progress('submitting', { stream: ctx.stderr as NodeJS.WriteStream });
  let done = 0;
  let printing = Promise.resolve();
  const onBatch = (b: IndexNowBatchResult): void => {
    done += b.urls;
    progress.update(done);
    if (json) return;
    if (dryLines && b.status === 'dry-run' && b.urlList !== undefined) {
      const list = b.urlList;
      printing = printing.then(() => printDry(list));
    }
    progress.stop();
    const line =
      b.status === 'failed'
        ? `failed    ${b.urls} URL(s) for ${b.host}: ${b.message}`
        : `${b.status.padEnd(9)} ${b.urls} URL(s) for ${b.host}: ${b.message}`;
    ctx.stderr.write(`${line}\n${b.error?.hint === undefined ? '' : `  ${b.error.hint}\n`}`);
  };
  const journal =
    flags.journal === false
      ? undefined
      : await openSubmissionJournal({
          dir: await journalDirOf(flags),
          channel: 'indexnow',
          target: indexNowEndpoint(flags.indexnow),
        });
  const options = {
    ...(journal === undefined ? {} : { journal }),
    endpoint: flags.indexnow,
    keys,
    verifyKey: flags.verifyKey,
    dryRun: flags.dryRun === true,
    ...(addressPolicy === undefined ? {} : { addressPolicy }),
    signal: ctx.signal,
    onBatch,
    ...(key === undefined ? {} : { key }),
    ...(flags.keyLocation === undefined ? {} : { keyLocation: flags.keyLocation }),
  };
  const report: IndexNowReport = await submitToIndexNow(urls, options);
  await printing;
  progress.stop();
  if (json) {
    const batches = report.batches.map(({ urlList: _list, ...b }) => ({
      ...b,
      error:
        b.error === undefined
          ? undefined
          : { code: b.error.code, message: b.error.message, hint: b.error.hint },
    }));
    await writeOut(
      ctx.stdout,
      `${JSON.stringify({ ...report, batches, dryRun: flags.dryRun === true, changes: counts ?? (flags.changes === undefined ? undefined : setCounts) })}\n`,
    );
  } else {
    if (flags.changes !== undefined) {
      ctx.stderr.write(
        `change set ${flags.changes}: ${setCounts.added} added, ${setCounts.changed} changed, ${setCounts.removed} removed\n`,
      );
    }
    if (counts !== undefined) {
      ctx.stderr.write(
        `since ${flags.since}: ${counts.added} added, ${counts.changed} changed, ${counts.removed} removed (${counts.unchanged} unchanged)\n`,
      );
    }
    for (const i of report.invalid) ctx.stderr.write(`left out  ${i.url}: ${i.reason}\n`);
    if (report.invalidCount > report.invalid.length)
      ctx.stderr.write(`left out  … and ${report.invalidCount - report.invalid.length} more\n`);
    const total = report.submitted + report.failed;
    const verb = flags.dryRun === true ? 'would be submitted' : 'submitted';
    ctx.stderr.write(
      total === 0 && report.invalidCount === 0
        ? 'nothing to submit\n'
        : `${report.submitted} URL(s) ${verb} to ${report.endpoint}, ${report.failed} failed, ${report.invalidCount} left out\n`,
    );
    const j = report.journal;
    if (j !== undefined && j.fromEarlier > 0)
      ctx.stderr.write(`(${j.fromEarlier} URL(s) kept by earlier runs were sent first)\n`);
    if (j?.kept !== undefined && j.kept > 0)
      ctx.stderr.write(`${j.kept} URL(s) kept for the next run in ${j.path}\n`);
  }
  return report.failed > 0 || report.invalidCount > 0 ? EXIT_FINDINGS : EXIT_OK;
}
