/**
 * A bounded hand-over between producers (sitemap readers) and one consumer (the iteration):
 * `push` waits while it is full, so a slow consumer slows the readers instead of filling memory.
 * Items move in batches, so that each one costs a single await on the consumer's side.
 */
export class Channel<T> {
  readonly #capacity: number;
  #items: T[] = [];
  #closed = false;
  #error: unknown;
  #failed = false;
  #consumer: (() => void) | undefined;
  #producers: Array<() => void> = [];

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /** Waits for room, then adds `items`; false (dropping them) once the channel is closed. */
  async push(items: readonly T[]): Promise<boolean> {
    while (this.#items.length >= this.#capacity && !this.#closed) {
      await new Promise<void>((resolve) => this.#producers.push(resolve));
    }
    if (this.#closed) return false;
    for (const item of items) this.#items.push(item);
    const wake = this.#consumer;
    this.#consumer = undefined;
    wake?.();
    return true;
  }

  /** Ends the channel; with `error`, the consumer throws it after the items already pushed. */
  close(error?: unknown): void {
    if (this.#closed) return;
    this.#closed = true;
    if (error !== undefined) {
      this.#failed = true;
      this.#error = error;
    }
    const wake = this.#consumer;
    this.#consumer = undefined;
    wake?.();
    for (const w of this.#producers.splice(0)) w();
  }

  /** Everything pushed so far, waiting for something when empty; undefined once closed and drained. */
  async take(): Promise<T[] | undefined> {
    for (;;) {
      if (this.#items.length > 0) {
        const batch = this.#items;
        this.#items = [];
        for (const w of this.#producers.splice(0)) w();
        return batch;
      }
      if (this.#closed) {
        if (this.#failed) throw this.#error;
        return undefined;
      }
      await new Promise<void>((resolve) => {
        this.#consumer = resolve;
      });
    }
  }
}
