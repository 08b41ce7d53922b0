import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in this process with captured output (and optional standard input). */
export async function cli(args: string[], input?: string | Uint8Array): Promise<InProcessRun> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
  });
  stderr.setEncoding('utf8').on('data', (d: string) => {
    err += d;
  });
  const stdin = Readable.from(
    input === undefined ? [] : [typeof input === 'string' ? Buffer.from(input) : Buffer.from(input)],
  );
  const code = await runCli(args, { stdout, stderr, stdin, signal: new AbortController().signal });
  return { code, stdout: out, stderr: err };
}
