/**
 * A bounded hand-over between producers (sitemap readers) and one consumer (the iteration):
 * `push` waits while it is full, so a slow consumer slows the readers instead of filling memory.
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

  get closed(): boolean {
    return this.#closed;
  }

  /** Waits for room; returns false (dropping the item) once the channel is closed. */
  async push(item: T): Promise<boolean> {
    while (this.#items.length >= this.#capacity && !this.#closed) {
      await new Promise<void>((resolve) => this.#producers.push(resolve));
    }
    if (this.#closed) return false;
    this.#items.push(item);
    this.#wakeConsumer();
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
    this.#wakeConsumer();
    for (const wake of this.#producers.splice(0)) wake();
  }

  async *drain(): AsyncGenerator<T> {
    for (;;) {
      if (this.#items.length > 0) {
        const batch = this.#items;
        this.#items = [];
        for (const wake of this.#producers.splice(0)) wake();
        yield* batch;
        continue;
      }
      if (this.#closed) {
        if (this.#failed) throw this.#error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.#consumer = resolve;
      });
    }
  }

  #wakeConsumer(): void {
    const wake = this.#consumer;
    this.#consumer = undefined;
    wake?.();
  }
}
