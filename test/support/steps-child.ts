import { spawn } from 'node:child_process';

/** How a child that prints its steps (and may kill itself at one) ended. */
export interface StepsOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The lines it printed on standard output: the steps it reached, in order. */
  steps: string[];
  stdout: string;
  stderr: string;
}

/**
 * Runs a Node script of the crash tests (`node SCRIPT ARGS…`): it prints each step it reaches on a
 * line of its own and kills itself with SIGKILL at the step it is told, so a crash window is hit on
 * purpose, never by timing.
 */
export function runStepsChild(
  script: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<StepsOutcome> {
  const child = spawn(process.execPath, [script, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve) =>
    child.on('close', (code, signal) =>
      resolve({ code, signal, steps: stdout.split('\n').filter(Boolean), stdout, stderr }),
    ),
  );
}
