import type { Writable } from 'node:stream';

/**
 * Writes to a stream honouring backpressure, so that `parse` printing millions of lines never
 * buffers them all and stdout is complete before the process exits.
 */
export async function writeOut(stream: Writable, text: string): Promise<void> {
  if (!stream.write(text)) {
    await new Promise<void>((resolve, reject) => {
      const onDrain = (): void => {
        stream.off('error', onError);
        resolve();
      };
      const onError = (e: Error): void => {
        stream.off('drain', onDrain);
        reject(e);
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
