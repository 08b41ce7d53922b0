import { Command, CommanderError, Help } from 'commander';
import { formatDiagnostic } from '../core/diagnostics.js';
import { isSitemapkitError } from '../core/errors.js';
import { type FsContext, fsError, isSystemError, type SystemError } from '../core/fs-errors.js';
import type { CliContext } from './context.js';
import { EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from './exit.js';
import { unswallow } from './flags.js';
import { flush, OutputClosed, outputError } from './io.js';
import { packageVersion } from './version.js';
import { cliWords } from './words.js';

type Register = (program: Command, ctx: CliContext) => void;

/**
 * Every command, loaded on demand: a run imports only the module of the command it runs (loading
 * them all costs about a quarter of a second, much of a short crawl or a test's run time).
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  generate: async () => (await import('./commands/generate.js')).registerGenerate,
  parse: async () => (await import('./commands/parse.js')).registerParse,
  crawl: async () => (await import('./commands/crawl.js')).registerCrawl,
  validate: async () => (await import('./commands/validate.js')).registerValidate,
  robots: async () => (await import('./commands/robots.js')).registerRobots,
  submit: async () => (await import('./commands/submit.js')).registerSubmit,
  status: async () => (await import('./commands/status.js')).registerStatus,
  store: async () => (await import('./commands/store.js')).registerStore,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  audit: async () => (await import('./commands/audit.js')).registerAudit,
  next: async () => (await import('./commands/next.js')).registerNext,
};

/**
 * Builds the command tree for `argv`: the named command alone, or every command when none is named
 * (top-level help, a typo). Each command lives in `commands/NAME.ts` and registers itself.
 */
export async function buildProgram(ctx: CliContext, argv: readonly string[] = []): Promise<Command> {
  const program = new Command('sitemapkit')
    .description('Generate, crawl, parse and validate XML sitemaps; robots.txt and IndexNow.')
    .version(packageVersion())
    // Options belong to the command they follow (`submit key --json` is key's --json, not submit's).
    .enablePositionalOptions()
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    .configureHelp({
      // A repeatable option starts from [], which is no default a user needs to be told about.
      optionDescription(option) {
        const text = Help.prototype.optionDescription.call(this, option);
        if (!Array.isArray(option.defaultValue) || option.defaultValue.length > 0) return text;
        return text.replace(/ \(default: \[\]\)$/, '').replace(/, default: \[\]\)$/, ')');
      },
    })
    .exitOverride();
  const named = argv.find((a) => !a.startsWith('-'));
  // `--version` alone needs no command: loading them all would triple its time (scripts call it).
  const versionOnly = argv.length > 0 && argv.every((a) => a === '--version' || a === '-V');
  const wanted = versionOnly
    ? []
    : named !== undefined && Object.hasOwn(COMMANDS, named)
      ? [named]
      : Object.keys(COMMANDS);
  for (const name of wanted) (await COMMANDS[name]!())(program, ctx);
  const inherit = (cmd: Command): void => {
    for (const c of cmd.commands) {
      c.exitOverride().configureOutput(program.configureOutput());
      inherit(c);
    }
  };
  inherit(program);
  return program;
}

/** Runs the CLI and returns the exit code; the only caller of `process.exit` is `bin.ts`. */
export async function runCli(argv: readonly string[], io: Partial<CliContext> = {}): Promise<number> {
  const controller = new AbortController();
  const ctx: CliContext = {
    stdout: io.stdout ?? process.stdout,
    stderr: io.stderr ?? process.stderr,
    stdin: io.stdin ?? process.stdin,
    signal: io.signal ?? controller.signal,
    exitCode: EXIT_OK,
  };
  const onSigint = (): void => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    controller.abort(new Error('interrupted'));
  };
  if (io.signal === undefined) process.on('SIGINT', onSigint);
  // A write that fails after write() returned (no one awaits it), or an error no await sees (an
  // 'error' event without a listener deep in a library), would reach Node's default handler, which
  // prints a stack: the reader going away ends the run quietly; anything else is one line.
  const end = (why: unknown): never =>
    process.exit(why instanceof OutputClosed ? EXIT_OK : reportFailure(why, ctx));
  if (io.stdout === undefined) {
    process.stdout.on('error', (e) => end(outputError(e)));
    process.on('uncaughtException', (e) => end(outputOrAny(e)));
    process.on('unhandledRejection', (e) => end(outputOrAny(e)));
  }
  try {
    const { argv: args, notes } = unswallow(argv);
    for (const note of notes) ctx.stderr.write(`sitemapkit: note: ${note}\n`);
    await (await buildProgram(ctx, args)).parseAsync(args, { from: 'user' });
  } catch (error) {
    if (error instanceof OutputClosed) {
      ctx.exitCode = EXIT_OK;
    } else if (error instanceof CommanderError) {
      // --help and --version end in a CommanderError with exit code 0.
      ctx.exitCode = error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    } else if (ctx.signal.aborted) {
      ctx.stderr.write('sitemapkit: interrupted\n');
      ctx.exitCode = EXIT_INTERRUPTED;
    } else if (error instanceof UsageError) {
      ctx.stderr.write(`sitemapkit: ${oneLine(cliWords(error.message))}\n(run with --help for usage)\n`);
      ctx.exitCode = EXIT_USAGE;
    } else {
      ctx.exitCode = reportFailure(error, ctx);
    }
  } finally {
    if (io.signal === undefined) process.off('SIGINT', onSigint);
  }
  if (ctx.signal.aborted && ctx.exitCode === EXIT_OK) ctx.exitCode = EXIT_INTERRUPTED;
  await flush(ctx.stdout as import('node:stream').Writable);
  return ctx.exitCode;
}

/**
 * Prints a failure as one sentence (and the advice on the next line) and returns its exit code.
 * Every failure a user can cause arrives as a `SitemapkitError`; a stray system error is worded
 * like one; anything else is a bug, still one line, with its stack only under SITEMAPKIT_DEBUG=1.
 */
export function reportFailure(error: unknown, ctx: Pick<CliContext, 'stderr'>): number {
  const e = isSystemError(error) ? fsError(error, systemContext(error)) : error;
  if (isSitemapkitError(e)) {
    const where = e.where ? `${e.where}: ` : '';
    const hint = e.hint ? `\n  ${oneLine(cliWords(e.hint))}` : '';
    ctx.stderr.write(`sitemapkit: ${oneLine(`${where}${cliWords(e.message)}`)} [${e.code}]${hint}\n`);
    debugStack(e, ctx);
    if (e.code === 'ERR_ABORTED') return EXIT_INTERRUPTED;
    return e.code === 'ERR_PARTIAL' ? EXIT_FINDINGS : EXIT_USAGE;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.stderr.write(
    `sitemapkit: internal error: ${oneLine(message)} (please report it with the command you ran; SITEMAPKIT_DEBUG=1 shows where it happened)\n`,
  );
  debugStack(error, ctx);
  return EXIT_USAGE;
}

/** What a system error that no edge translated was doing, from its system call. */
function systemContext(error: SystemError): FsContext {
  const verbs: Record<string, string> = {
    open: 'open',
    read: 'read',
    write: 'write',
    mkdir: 'create the folder',
    rename: 'move a file into',
    scandir: 'list the folder',
    stat: 'look at',
    lstat: 'look at',
    unlink: 'remove',
    rmdir: 'remove the folder',
  };
  const writing = ['write', 'mkdir', 'rename', 'unlink', 'rmdir'].includes(error.syscall ?? '');
  const doing = verbs[error.syscall ?? ''] ?? 'use it';
  // Without a path (a read on an open file), the sentence still says what failed.
  if (error.path === undefined)
    return { path: '', doing: `${doing} a file`, mode: writing ? 'write' : 'read' };
  return { path: error.path, doing, mode: writing ? 'write' : 'read' };
}

/** An EPIPE of a stray error is the reader going away; anything else stays as it is. */
function outputOrAny(e: unknown): unknown {
  return isSystemError(e) && e.code === 'EPIPE' ? new OutputClosed('the output was closed') : e;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

function debugStack(error: unknown, ctx: Pick<CliContext, 'stderr'>): void {
  if (process.env['SITEMAPKIT_DEBUG'] !== '1') return;
  ctx.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
}

export { formatDiagnostic };
