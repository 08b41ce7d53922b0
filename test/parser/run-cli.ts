import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli/main.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `sitemapkit ARGS` in this process with captured output and optional standard input. */
export async function cli(args: string[], input?: string | Uint8Array): Promise<CliResult> {
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
