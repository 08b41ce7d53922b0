import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { formatDiagnostic } from '../core/diagnostics.js';
import { isSitemapkitError } from '../core/errors.js';
import type { CliContext } from './context.js';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from './exit.js';
import { flush } from './io.js';

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
    .exitOverride();
  const named = argv.find((a) => !a.startsWith('-'));
  const wanted = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
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

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
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
  try {
    await (await buildProgram(ctx, argv)).parseAsync(argv as string[], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end in a CommanderError with exit code 0.
      ctx.exitCode = error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    } else if (ctx.signal.aborted) {
      ctx.stderr.write('sitemapkit: interrupted\n');
      ctx.exitCode = EXIT_INTERRUPTED;
    } else if (error instanceof UsageError) {
      ctx.stderr.write(`sitemapkit: ${error.message}\n(run with --help for usage)\n`);
      ctx.exitCode = EXIT_USAGE;
    } else if (isSitemapkitError(error)) {
      const where = error.where ? `${error.where}: ` : '';
      const hint = error.hint ? `\n  ${error.hint}` : '';
      ctx.stderr.write(`sitemapkit: ${where}${error.message} [${error.code}]${hint}\n`);
      ctx.exitCode = error.code === 'ERR_ABORTED' ? EXIT_INTERRUPTED : EXIT_USAGE;
    } else {
      const e = error as Error;
      ctx.stderr.write(`sitemapkit: ${e?.stack ?? String(error)}\n`);
      ctx.exitCode = EXIT_USAGE;
    }
  } finally {
    if (io.signal === undefined) process.off('SIGINT', onSigint);
  }
  if (ctx.signal.aborted && ctx.exitCode === EXIT_OK) ctx.exitCode = EXIT_INTERRUPTED;
  await flush(ctx.stdout as import('node:stream').Writable);
  return ctx.exitCode;
}

export { formatDiagnostic };
