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
