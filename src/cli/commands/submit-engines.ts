/**
 * `submit --engine NAME` (repeatable): the channels of one run. Without `--engine`, IndexNow, as
 * before engines had names. Every engine's usage is checked before any sends, so that a mistake in
 * the flags of the second does not leave the first half done; then each runs in turn, and the exit
 * code is the worst of theirs. With one engine, a failure that stops it propagates as before; with
 * several, it is printed and the next engine still runs.
 */

import { isSitemapkitError } from '../../core/errors.js';
import type { CliContext } from '../context.js';
import { EXIT_USAGE, UsageError } from '../exit.js';
import { cliWords } from '../words.js';

/** What one engine does in a submit run. */
export interface EngineRunner {
  /** Usage checks, before any engine sends anything. */
  check?: () => Promise<void>;
  run: () => Promise<number>;
  /** A flag only this engine reads, when it was given: naming it without the engine is a usage error. */
  flag?: string | undefined;
}

export const ENGINE_HELP =
  'where to submit: indexnow (the default), google, bing; several: repeat --engine or separate with commas (run in the order given)';

export async function runEngines(
  engines: readonly string[],
  ctx: CliContext,
  runners: Readonly<Record<string, EngineRunner>>,
): Promise<number> {
  // `--engine indexnow --engine google` or `--engine indexnow,google`.
  const given = engines.flatMap((e) => e.split(',')).map((e) => e.trim().toLowerCase());
  const names = given.length === 0 ? ['indexnow'] : [...new Set(given)];
  for (const name of names) {
    if (!Object.hasOwn(runners, name))
      throw new UsageError(`--engine takes ${Object.keys(runners).join(', ')}, not "${name}"`);
  }
  for (const [name, runner] of Object.entries(runners)) {
    if (runner.flag !== undefined && !names.includes(name))
      throw new UsageError(
        `${runner.flag} is for --engine ${name}: add --engine ${name}, or leave ${runner.flag} out`,
      );
  }
  for (const name of names) await runners[name]!.check?.();
  let code = 0;
  for (const name of names) {
    const runner = runners[name]!;
    if (names.length === 1) return runner.run();
    try {
      code = Math.max(code, await runner.run());
    } catch (error) {
      // Anything but a failure worded for the user (an abort, a bug) ends the run as it would alone.
      if (ctx.signal.aborted || !isSitemapkitError(error) || error.code === 'ERR_ABORTED') throw error;
      const where = error.where === undefined ? '' : `${error.where}: `;
      const hint = error.hint === undefined ? '' : `\n  ${cliWords(error.hint)}`;
      ctx.stderr.write(`sitemapkit: ${name}: ${where}${cliWords(error.message)} [${error.code}]${hint}\n`);
      code = Math.max(code, EXIT_USAGE);
    }
  }
  return code;
}
