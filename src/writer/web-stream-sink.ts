import { applyRobots } from './memory-sink.js';
import type { CommitPlan, Sink, SinkFile, SinkStart } from './sink.js';

/** Gives the stream one file of the set goes into, by its public name (`sitemap.xml`, …). */
export type StreamFactory = (
  name: string,
) => WritableStream<Uint8Array> | Promise<WritableStream<Uint8Array>>;

/**
 * One web `WritableStream` per file. A stream is closed as soon as its file is complete, and the
 * streams still open are aborted when the run fails: a set is whole only once `writeSitemaps`
 * resolves (stage the files and swap them in then, if readers must never see a partial set).
 */
export class WebStreamSink implements Sink {
  readonly renames = false;
  readonly #factory: StreamFactory;
  readonly #open = new Set<SinkFile>();
  readonly #aborting: Array<Promise<unknown>> = [];

  constructor(factory: StreamFactory) {
    this.#factory = factory;
  }

  async start(): Promise<SinkStart> {
    return { previous: undefined, staleRoots: [] };
  }

  create(name: string): SinkFile {
    let writer: WritableStreamDefaultWriter<Uint8Array> | undefined;
    let error: unknown;
    const ready = Promise.resolve()
      .then(() => this.#factory(name))
      .then((stream) => {
        writer = stream.getWriter();
      });
    ready.catch((e: unknown) => {
      error ??= e;
    });
    const written = (p: Promise<void>): void => {
      p.catch((e: unknown) => {
        error ??= e;
      });
    };
    const file: SinkFile = {
      write(chunk) {
        if (error !== undefined) throw error;
        if (writer === undefined) return ready.then(() => file.write(chunk));
        const w = writer;
        written(w.write(chunk));
        // Wait while the stream's queue is full; `ready` settles once it has room.
        return (w.desiredSize ?? 1) > 0 ? undefined : w.ready;
      },
      close: async () => {
        await ready;
        this.#open.delete(file);
        if (error !== undefined) throw error;
        await writer!.close();
      },
      abort: (reason) => {
        this.#open.delete(file);
        this.#aborting.push(ready.then(() => writer?.abort(reason)).catch(() => undefined));
      },
    };
    this.#open.add(file);
    return file;
  }

  async put(name: string, data: Uint8Array): Promise<void> {
    const file = this.create(name);
    const wait = file.write(data);
    if (wait !== undefined) await wait;
    await file.close();
  }

  async commit(plan: CommitPlan): Promise<void> {
    await applyRobots(plan);
  }

  async abort(reason: unknown): Promise<void> {
    for (const f of [...this.#open]) f.abort(reason);
    // Settled before the run's error reaches the caller: every stream knows it was aborted by then.
    await Promise.all(this.#aborting);
  }

  locate(name: string): string {
    return name;
  }
}
