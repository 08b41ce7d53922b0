import type { Writable } from 'node:stream';
import { fsError, isSystemError } from '../core/fs-errors.js';

/**
 * The reader of our output went away (`sitemapkit parse … | head`): not a failure to report, so
 * the command ends quietly.
 */
export class OutputClosed extends Error {
  override name = 'OutputClosed';
}

/** A failure to write to standard output, in words; EPIPE is {@link OutputClosed}. */
export function outputError(e: unknown): unknown {
  if (isSystemError(e) && e.code === 'EPIPE') return new OutputClosed('the output was closed');
  return fsError(e, { path: '', doing: 'write to standard output', mode: 'write' });
}

/**
 * Writes to a stream honouring backpressure, so that `parse` printing millions of lines never
 * buffers them all and stdout is complete before the process exits.
 */
export async function writeOut(stream: Writable, text: string | Uint8Array): Promise<void> {
  if (!stream.write(text)) {
    await new Promise<void>((resolve, reject) => {
      const onDrain = (): void => {
        stream.off('error', onError);
        resolve();
      };
      const onError = (e: Error): void => {
        stream.off('drain', onDrain);
        reject(outputError(e));
      };
      stream.once('drain', onDrain);
      stream.once('error', onError);
    });
  }
}

/** Resolves once everything written so far has been handed to the OS. */
export function flush(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) resolve();
    else stream.write('', () => resolve());
  });
}

/** Colour only on a TTY and when NO_COLOR is not set. */
export function useColor(stream: { isTTY?: boolean }): boolean {
  return stream.isTTY === true && process.env['NO_COLOR'] === undefined;
}
