/**
 * The submission journal: what a submission has not yet got accepted, kept in the folder of the
 * build (beside its manifest), so that nothing is lost when a run stops (a crash, Ctrl-C, a quota,
 * an engine that is down) and nothing is sent twice when the next run picks it up. One journal per
 * channel (`indexnow`, `bing-urls`, `bing-sitemaps`, `google-sitemaps`, …), generic over engines:
 * an engine only reports which URLs it settled (accepted, or refused for good).
 *
 * Two files, both dotfiles beside the manifest:
 * - the plan `.sitemapkit-submit-CHANNEL.jsonl`, written whole through a temp file, fsync and
 *   rename before anything is sent: a header (its run id, the target), the hashes of URLs an
 *   interrupted run had already settled (`sent`), then every URL to send, those kept by earlier
 *   runs first;
 * - the settle log `.sitemapkit-submit-CHANNEL.done`, one line appended and fsynced after each
 *   settled batch: the plan's id, the hashes of the batch's URLs, a checksum. A line torn by a crash
 *   fails its checksum and is ignored (that batch is sent again: the only case of a repeat, at most
 *   one batch).
 *
 * A run that ends (even with URLs kept for a quota) rewrites the plan with only what is unsettled
 * and removes the log. A run killed between batches leaves plan and log: the next run sends the
 * unsettled URLs first, and skips the URLs of its own source that the killed run had settled, so
 * that rerunning the same command sends exactly the rest. Memory: about 8.5 bytes a URL (hashed
 * sets), the URLs themselves are streamed from the files.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { type FileHandle, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { SitemapkitError } from '../core/errors.js';
import { fsError, isSystemError } from '../core/fs-errors.js';
import { HashedStringSet, hashHex } from '../core/hash.js';
import { syncDir } from '../writer/atomic.js';
import {
  journalPath,
  keyOf,
  LazySet,
  logPath,
  normal,
  readPlanItems,
  withoutCredentials,
} from './journal-files.js';

export { journalPath } from './journal-files.js';

/** Where a journal lives and what it is for. */
export interface SubmissionJournalOptions {
  /** The folder: the build's output folder (beside its manifest), or any folder of yours. */
  dir: string;
  /** `indexnow`, `bing-urls`, `bing-sitemaps`, `google-sitemaps`: letters, digits and `-`. */
  channel: string;
  /** The endpoint or site the URLs are for; a journal kept for another target is refused. */
  target: string;
  /**
   * Called after each durable step (`planned`, `settled:N`, `finished`). Tests kill the process
   * there on purpose, to hit a crash window without timing.
   */
  onStep?: (step: string) => void | Promise<void>;
}

/** What a journal held when it was opened. */
export interface JournalState {
  /** URLs kept by earlier runs, to be sent first. */
  pending: number;
  /** URLs an interrupted run had settled; the same URLs from this run's source are skipped. */
  sent: number;
  /** Whether the last run was interrupted (its settle log was still there). */
  interrupted: boolean;
}

const VERSION = 1;

interface Header {
  sitemapkitSubmitJournal: number;
  channel: string;
  target: string;
  id: string;
}

/** What the submission journal did in a run. */
export interface JournalReport {
  path: string;
  /** URLs kept by earlier runs, sent first by this one. */
  fromEarlier: number;
  /** URLs kept for the next run (undefined in a dry run, which writes no journal). */
  kept?: number;
}

/**
 * A channel's journal. Open it with {@link openSubmissionJournal}, pass the source through
 * {@link SubmissionJournal.plan}, call {@link SubmissionJournal.settle} after each settled batch
 * and {@link SubmissionJournal.finish} at the end of the run.
 */
export class SubmissionJournal {
  readonly path: string;
  readonly state: JournalState;
  readonly #o: SubmissionJournalOptions;
  readonly #log: string;
  /** Settled by an interrupted run (and now by this one, once planned). */
  readonly #sent: LazySet;
  #id: string;
  #planned = 0;
  #settled = 0;
  #steps = 0;
  #hasOld: boolean;
  #oldSettled: LazySet;
  /** The hashes of URLs settled by an interrupted run, in order (written back into the plan). */
  readonly #sentKeys: string[];

  /** @internal use {@link openSubmissionJournal} */
  constructor(
    o: SubmissionJournalOptions,
    found: {
      id: string;
      sent: LazySet;
      sentKeys: string[];
      oldSettled: LazySet;
      state: JournalState;
      hasOld: boolean;
    },
  ) {
    this.#sentKeys = found.sentKeys;
    this.#o = o;
    this.path = journalPath(o.dir, o.channel);
    this.#log = logPath(o.dir, o.channel);
    this.#id = found.id;
    this.#sent = found.sent;
    this.#oldSettled = found.oldSettled;
    this.state = found.state;
    this.#hasOld = found.hasOld;
  }

  /** URLs planned by this run (kept ones included). */
  get planned(): number {
    return this.#planned;
  }

  /** URLs settled by this run. */
  get settled(): number {
    return this.#settled;
  }

  async #step(name: string): Promise<void> {
    await this.#o.onStep?.(name);
  }

  /** The URLs the previous plan left unsettled, in order. */
  async *#leftovers(): AsyncGenerator<string> {
    if (!this.#hasOld) return;
    for await (const loc of readPlanItems(this.path)) {
      if (!this.#oldSettled.has(keyOf(loc))) yield loc;
    }
  }

  /**
   * Writes the plan (kept URLs first, then the URLs of `source` not kept already and not settled
   * by an interrupted run; each once), durably, and returns it to be sent, in that order. The whole
   * source is read first, so that a run that cannot send anything (a wrong key, an engine that is
   * down) still keeps it. With `dryRun`, writes nothing and returns the same URLs lazily.
   */
  async plan(
    source: Iterable<string> | AsyncIterable<string>,
    dryRun = false,
  ): Promise<AsyncIterable<string>> {
    const seen = new HashedStringSet();
    // Keyed by the URL itself (one hash); `sent` holds the hashes the files carry.
    const checkSent = this.#sent.size > 0;
    const take = (loc: string): boolean => {
      if (checkSent && this.#sent.has(keyOf(loc))) return false;
      return seen.add(loc);
    };
    if (dryRun) {
      const leftovers = this.#leftovers();
      return (async function* () {
        for await (const loc of leftovers) if (take(loc)) yield loc;
        for await (const raw of source) {
          const loc = normal(raw);
          if (loc !== '' && take(loc)) yield loc;
        }
      })();
    }
    const id = randomBytes(8).toString('hex');
    const count = await this.#writePlan(id, this.#sentKeys, async (add) => {
      for await (const loc of this.#leftovers()) if (take(loc)) await add(loc);
      for await (const raw of source) {
        const loc = normal(raw);
        if (loc !== '' && take(loc)) await add(loc);
      }
    });
    // The old settle log names the old plan's id: stale now, and removed.
    await rm(this.#log, { force: true });
    this.#id = id;
    this.#hasOld = true;
    this.#oldSettled = new LazySet();
    this.#planned = count;
    await this.#step('planned');
    return readPlanItems(this.path);
  }

  /** Writes a plan through a temp file, fsync and rename; returns how many URLs it holds. */
  async #writePlan(
    id: string,
    sentKeys: readonly string[],
    fill: (add: (loc: string) => Promise<void>) => Promise<void>,
  ): Promise<number> {
    const tmp = join(
      this.#o.dir,
      `.${basename(this.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
    );
    const failed = (e: unknown): unknown =>
      fsError(e, { path: this.path, doing: 'write the submission journal', mode: 'write' });
    // Opened at the first write, after the source has begun to be read: an unreadable input is
    // reported as such, not as a journal that could not be written.
    let fh: FileHandle | undefined;
    let count = 0;
    const header: Header = {
      sitemapkitSubmitJournal: VERSION,
      channel: this.#o.channel,
      target: this.#o.target,
      id,
    };
    let chunk = `${JSON.stringify(header)}\n`;
    const flush = async (): Promise<void> => {
      try {
        fh ??= await open(tmp, 'wx');
        if (chunk !== '') await fh.write(chunk);
      } catch (e) {
        throw failed(e);
      }
      chunk = '';
    };
    try {
      // An interrupted run's settled URLs stay "sent" until the run that picks it up ends.
      for (const k of sentKeys) {
        chunk += `${JSON.stringify({ sent: k })}\n`;
        if (chunk.length > 1_048_576) await flush();
      }
      // Errors of the source itself (an unreadable input) pass through as they are.
      await fill(async (loc) => {
        count++;
        // An item is a JSON string on its own line (a `sent` hash is an object).
        chunk += `${JSON.stringify(loc)}\n`;
        if (chunk.length > 1_048_576) await flush();
      });
      await flush();
      try {
        await fh!.sync();
        await fh!.close();
        fh = undefined;
        await rename(tmp, this.path);
      } catch (e) {
        throw failed(e);
      }
      await syncDir(this.#o.dir);
    } catch (e) {
      await fh?.close().catch(() => undefined);
      await rm(tmp, { force: true });
      throw e;
    }
    return count;
  }

  /** Records URLs as settled (accepted, or refused for good), durably, before the next batch goes. */
  async settle(urls: readonly string[]): Promise<void> {
    if (urls.length === 0) return;
    // The engines report the URLs as the plan gave them (normalised there): hashed as they are.
    const keys = urls.map(keyOf);
    for (const k of keys) this.#oldSettled.add(k);
    const body = `${this.#id} ${keys.join(',')}`;
    const line = `${body} ${hashHex(body)}\n`;
    let fh: FileHandle | undefined;
    try {
      fh = await open(this.#log, 'a');
      await fh.write(line);
      // The data and the file's new size reach the disk; other metadata (times) need not.
      await fh.datasync();
    } catch (e) {
      throw fsError(e, {
        path: this.#log,
        doing: 'record the settled URLs in the submission journal',
        mode: 'write',
      });
    } finally {
      await fh?.close();
    }
    this.#settled += urls.length;
    this.#steps++;
    await this.#step(`settled:${this.#steps}`);
  }

  /**
   * Ends the run: the plan is rewritten with only the unsettled URLs (and no `sent` list), or
   * removed when nothing is left. Returns how many URLs are kept for the next run.
   */
  async finish(): Promise<number> {
    if (this.#planned > 0 && this.#oldSettled.size >= this.#planned) {
      // Everything this run planned is settled: nothing to carry over (the common case).
      await rm(this.path, { force: true });
      await rm(this.#log, { force: true });
      await syncDir(this.#o.dir);
      await this.#step('finished');
      return 0;
    }
    // The leftovers stream from the current plan into the temp file; the rename comes after.
    const count = await this.#writePlan(randomBytes(8).toString('hex'), [], async (add) => {
      for await (const loc of this.#leftovers()) await add(loc);
    });
    if (count === 0) await rm(this.path, { force: true });
    await rm(this.#log, { force: true });
    await syncDir(this.#o.dir);
    await this.#step('finished');
    return count;
  }
}

/**
 * Opens the journal of `channel` in `dir`: reads what earlier runs kept (and what an interrupted
 * run settled). Throws `ERR_STATE` for a journal of another target or an unreadable one.
 */
export async function openSubmissionJournal(given: SubmissionJournalOptions): Promise<SubmissionJournal> {
  // The target is written into the file: never with the credentials a URL may carry.
  const options = { ...given, target: withoutCredentials(given.target) };
  if (!/^[a-z0-9][a-z0-9-]*$/.test(options.channel)) {
    throw new SitemapkitError(
      'ERR_OPTIONS',
      `journal channel "${options.channel}" must be letters, digits and -`,
    );
  }
  const path = journalPath(options.dir, options.channel);
  const sent = new LazySet();
  const sentKeys: string[] = [];
  const oldSettled = new LazySet();
  let header: Header | undefined;
  let pending = 0;
  let interrupted = false;
  const bad = (why: string, cause?: unknown): SitemapkitError =>
    new SitemapkitError('ERR_STATE', `the submission journal ${why}`, {
      where: path,
      cause,
      hint: 'if its URLs no longer need submitting, delete the file; otherwise restore it',
    });
  let lines: ReturnType<typeof createInterface> | undefined;
  try {
    let text: string | undefined;
    try {
      text = await readFile(logPath(options.dir, options.channel), 'utf8');
    } catch (e) {
      if (!isSystemError(e) || e.code !== 'ENOENT') throw e;
    }
    lines = createInterface({
      input: createReadStream(path, { encoding: 'utf8' }),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    let n = 0;
    const keys: string[] = [];
    for await (const line of lines) {
      n++;
      if (line === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (cause) {
        throw bad(`has a line that is not JSON (line ${n})`, cause);
      }
      if (typeof parsed === 'string') {
        if (n === 1)
          throw bad('does not start with its header (is it a sitemapkit journal of this version?)');
        const k = keyOf(parsed);
        if (oldSettled.has(k)) keys.push(k);
        else pending++;
        continue;
      }
      const j = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
      if (n === 1) {
        if (
          j['sitemapkitSubmitJournal'] !== VERSION ||
          typeof j['id'] !== 'string' ||
          typeof j['target'] !== 'string'
        )
          throw bad('does not start with its header (is it a sitemapkit journal of this version?)');
        header = j as unknown as Header;
        if (header.target !== options.target) {
          throw new SitemapkitError(
            'ERR_STATE',
            `the submission journal keeps URLs for ${header.target}, not ${options.target}`,
            {
              where: path,
              hint: `submit them to ${header.target} first, or delete the file if they no longer need submitting`,
            },
          );
        }
        // The settle log of this plan: its lines with a valid checksum and the plan's id.
        for (const l of (text ?? '').split('\n')) {
          const m = /^([0-9a-f]+) ([0-9a-f,]*) ([0-9a-f]{16})$/.exec(l);
          if (m === null || m[1] !== header.id || hashHex(`${m[1]} ${m[2]}`) !== m[3]) continue;
          interrupted = true;
          for (const k of m[2]!.split(',')) if (k !== '') oldSettled.add(k);
        }
        continue;
      }
      if (typeof j['sent'] === 'string') {
        if (sent.add(j['sent'])) sentKeys.push(j['sent']);
        continue;
      }
      throw bad(`has a line without a URL (line ${n})`);
    }
    if (interrupted) {
      for (const k of keys) if (sent.add(k)) sentKeys.push(k);
    }
  } catch (e) {
    if (e instanceof SitemapkitError) throw e;
    if (isSystemError(e) && e.code === 'ENOENT' && header === undefined) {
      // No journal yet: nothing kept.
    } else {
      throw bad('could not be read', e);
    }
  } finally {
    lines?.close();
  }
  if (!interrupted && sentKeys.length > 0) {
    // A plan that carries `sent` hashes was itself written by a recovering run; keep them.
    interrupted = true;
  }
  const journal = new SubmissionJournal(options, {
    id: header?.id ?? '',
    sent,
    sentKeys,
    oldSettled,
    hasOld: header !== undefined,
    state: { pending, sent: sentKeys.length, interrupted },
  });
  return journal;
}
