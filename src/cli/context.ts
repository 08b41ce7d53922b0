import type { Writable } from 'node:stream';

/** What a command runs with: its streams, the interrupt signal and the exit code it sets. */
export interface CliContext {
  stdout: NodeJS.WritableStream & Writable;
  stderr: NodeJS.WritableStream & Writable;
  stdin: NodeJS.ReadableStream;
  /** Aborted on Ctrl-C; long commands stop cleanly and exit 130. */
  signal: AbortSignal;
  /** Set by a command's action; 0 when it never sets it. */
  exitCode: number;
}
