import type { CommitPlan, Sink, SinkFile, SinkStart } from './sink.js';

/** Applies a robots.txt update (the file lives on disk whatever the sink: loaded only when asked for). */
export async function applyRobots(plan: CommitPlan): Promise<void> {
  if (plan.robots === undefined) return;
  const { updateRobotsFile } = await import('./robots-file.js');
  await updateRobotsFile(plan.robots.path, plan.robots.add, plan.robots.replace);
}

/**
 * Files in memory, by public name. Like the folder, it is all or nothing: {@link files} shows a
 * set only once it is committed, and a failed run leaves the previous set in place.
 */
export class MemorySink implements Sink {
  readonly renames = true;
  /** The committed set: public name → bytes as they would be on disk (gzip included). */
  readonly files: Map<string, Uint8Array> = new Map();
  #pending = new Map<string, Uint8Array>();

  async start(): Promise<SinkStart> {
    this.#pending = new Map();
    return { previous: undefined, staleRoots: [] };
  }

  create(name: string): SinkFile {
    const chunks: Uint8Array[] = [];
    let length = 0;
    let open = true;
    return {
      write: (chunk) => {
        chunks.push(chunk);
        length += chunk.length;
        return undefined;
      },
      close: async () => {
        if (open) this.#pending.set(name, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length));
        open = false;
      },
      abort: () => {
        open = false;
      },
    };
  }

  async put(name: string, data: Uint8Array): Promise<void> {
    this.#pending.set(name, data);
  }

  async *read(name: string): AsyncIterable<Uint8Array> {
    const data = this.#pending.get(name);
    if (data === undefined) throw new Error(`${name} was not written in this run`);
    yield data;
  }

  async commit(plan: CommitPlan): Promise<void> {
    this.files.clear();
    for (const f of plan.files) {
      const data = this.#pending.get(f.name);
      if (data !== undefined) this.files.set(f.as, data);
    }
    this.#pending = new Map();
    await applyRobots(plan);
  }

  async abort(): Promise<void> {
    this.#pending = new Map();
  }

  locate(name: string): string {
    return name;
  }
}
