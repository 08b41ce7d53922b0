/**
 * The URLs of a change set (`generate --store … --changes FILE`, JSON Lines; see
 * src/writer/change-set.ts) for `submit --changes FILE`: every added, changed and removed URL,
 * streamed. A line that is not a change stops the run, naming the file and the line.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { SitemapkitError } from '../core/errors.js';
import { fsError } from '../core/fs-errors.js';
import { parseChangeSetLine, type UrlChangeRecord } from '../writer/change-set.js';

/** Counts of what a change set held, filled in while it is read. */
export interface ChangeSetCounts {
  added: number;
  changed: number;
  removed: number;
}

/** The URL changes of the change set at `path` (`-` for `stdin`). Throws `ERR_INPUT` on a bad line. */
export async function* readChangeSet(
  path: string,
  counts: ChangeSetCounts,
  stdin?: NodeJS.ReadableStream,
): AsyncGenerator<UrlChangeRecord> {
  const input = path === '-' && stdin !== undefined ? stdin : createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  try {
    for await (const line of lines) {
      n++;
      const r = parseChangeSetLine(line);
      if (r === undefined) continue;
      if (typeof r === 'string') {
        throw new SitemapkitError('ERR_INPUT', `line ${n} of the change set ${r}`, {
          where: `${path}:${n}`,
          hint: 'give the file that generate --store … --changes FILE wrote',
        });
      }
      if (r.kind !== 'url') continue;
      counts[r.change]++;
      yield r;
    }
  } catch (cause) {
    if (cause instanceof SitemapkitError) throw cause;
    throw fsError(cause, { path, doing: 'read the change set', mode: 'read', code: 'ERR_INPUT' });
  } finally {
    lines.close();
  }
}
