import { spawn } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/main.js';

export const BIN = fileURLToPath(new URL('../../dist/cli/bin.js', import.meta.url));

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built CLI (npm test builds it first) as a real child process. `limitMs` kills it
 * (SIGKILL, seen as `signal`) if it has not ended by then: for runs that a wrong implementation
 * never ends, so that the test fails instead of hanging; never a timing assertion.
 */
export function runBin(
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string; limitMs?: number } = {},
): Promise<CliRun> {
  return runProcess(process.execPath, [BIN, ...args], options);
}

/** Runs any program as {@link runBin} runs the CLI (a shell line for the README's examples). */
export function runProcess(
  command: string,
  args: string[],
  options: { input?: string; env?: NodeJS.ProcessEnv; cwd?: string; limitMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer =
      options.limitMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), options.limitMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    // A program that exits without reading its input closes the pipe first (EPIPE, seen under load
    // in test/docs/audit.test.ts as an unhandled error): its output and exit code are the verdict.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
  });
}

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `sitemapkit ARGS` in this process through `runCli`, with captured output and optional
 * standard input: faster than a child process, for tests that need no real process (signals, exit).
 */
export async function cli(args: string[], input?: string | Uint8Array): Promise<InProcessRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  let err = '';
  stdout.on('data', (d: Buffer) => out.push(d));
  stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  const stdin = Readable.from(input === undefined ? [] : [Buffer.from(input)]);
  const code = await runCli(args, { stdout, stderr, stdin, signal: new AbortController().signal });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: err };
}
