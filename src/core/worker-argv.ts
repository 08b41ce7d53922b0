import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The parent's Node options for the worker (profiling, `--import` hooks), without those a worker
 * refuses: the evaluated script of `node -e` / `-p` and its `--input-type` (the worker would stop
 * at once: "--input-type can only be used with string input").
 */
export function workerArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '-e' || a === '--eval' || a === '-p' || a === '--print' || a === '--input-type') i++;
    else if (!a.startsWith('--input-type=') && !a.startsWith('--eval=') && !a.startsWith('--print='))
      out.push(a);
  }
  return out;
}

/** Node's message for them: "Initiated Worker with invalid execArgv flags: --a=1, --b". */
const REFUSED = /: (.*)$/s;

/**
 * A worker thread with the parent's Node options (`workerArgv`). A worker refuses V8's options
 * and the process-wide ones (`--max-old-space-size`, `--stack-size`, `--title`, …) that a user
 * may well give `node` for a big run; Node names them, and there is no list to filter by ahead
 * (`process.allowedNodeEnvironmentFlags` holds V8's too), so the worker starts again without
 * them: the heap limits they set are the process's, and the worker's own come from
 * `resourceLimits`.
 */
export function startWorker(
  file: URL | string,
  options: WorkerOptions,
  parentArgv: readonly string[] = process.execArgv,
): Worker {
  const execArgv = workerArgv(parentArgv);
  try {
    return new Worker(file, { ...options, execArgv });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    const named = REFUSED.exec((error as Error).message)?.[1]?.split(', ') ?? [];
    const refused = new Set(named);
    const kept = execArgv.filter((a) => !refused.has(a));
    // A message of another shape: keep no option rather than fail the run.
    return new Worker(file, { ...options, execArgv: kept.length < execArgv.length ? kept : [] });
  }
}
