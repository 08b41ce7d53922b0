/**
 * Helpers of a store build (build.ts): a sink file that measures what reaches the disk, the check
 * that a kept child is still the recorded one, and the publish gate's sentence.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { SinkFile } from '../writer/sink.js';
import type { PublishedRow } from './backend.js';

/** A sink file that also hashes and counts what reaches the disk (compressed bytes for `.gz`). */
export function measured(target: SinkFile): SinkFile & { done(): { size: number; disk: string } } {
  const hash = createHash('sha256');
  let size = 0;
  return {
    write(chunk) {
      hash.update(chunk);
      size += chunk.length;
      return target.write(chunk);
    },
    close: () => target.close(),
    abort: (reason) => target.abort(reason),
    done: () => ({ size, disk: hash.digest('hex') }),
  };
}

/** Whether the file at `path` is still the one recorded (size, then SHA-256 of its bytes). */
export async function unchangedOnDisk(path: string, p: PublishedRow): Promise<boolean> {
  try {
    if ((await stat(path)).size !== p.size) return false;
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }))
      hash.update(chunk as Buffer);
    return hash.digest('hex') === p.disk;
  } catch {
    return false;
  }
}

export function gateMessage(
  drop: number,
  published: number,
  limit: { share: number } | { count: number },
): string {
  const share = published === 0 ? 100 : (drop / published) * 100;
  const allowed =
    'share' in limit
      ? `${(limit.share * 100).toLocaleString('en-US')}%`
      : `${limit.count.toLocaleString('en-US')} URLs`;
  return `this build would remove ${drop.toLocaleString('en-US')} of the ${published.toLocaleString('en-US')} published URLs (${share.toFixed(1)}%), more than the ${allowed} allowed, so nothing was published and the store is as it was`;
}
