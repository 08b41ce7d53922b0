import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { formatDiagnostic } from '../core/diagnostics.js';
import { isSitemapkitError } from '../core/errors.js';
import { registerCrawl } from './commands/crawl.js';
import { registerGenerate } from './commands/generate.js';
import { registerParse } from './commands/parse.js';
import { registerRobots } from './commands/robots.js';
import { registerSubmit } from './commands/submit.js';
import { registerValidate } from './commands/validate.js';
import { EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, UsageError } from './exit.js';
import { flush } from './io.js';

export interface CliContext {
  stdout: NodeJS.WritableStream & import('node:stream').Writable;
  stderr: NodeJS.WritableStream & import('node:stream').Writable;
  stdin: NodeJS.ReadableStream;
  /** Aborted on Ctrl-C; long commands stop cleanly and exit 130. */
  signal: AbortSignal;
  /** Set by a command's action; 0 when it never sets it. */
  exitCode: number;
}

/** Builds the command tree. Each command lives in `commands/NAME.ts` and registers itself here. */
export function buildProgram(ctx: CliContext): Command {
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
  registerGenerate(program, ctx);
  registerParse(program, ctx);
  registerRobots(program, ctx);
  registerSubmit(program, ctx);
  registerCrawl(program, ctx);
  registerValidate(program, ctx);
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
    await buildProgram(ctx).parseAsync(argv as string[], { from: 'user' });
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
