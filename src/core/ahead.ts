/**
 * `mapAhead`: an async iterable mapped through an async function with up to `depth` calls in
 * flight, results in the input's order. For reads that are mostly waiting (a page's `stat` and
 * `readFile` on libuv's pool): the next pages are read while this one is parsed, where one read at
 * a time left the main thread idle for most of a framework build's site (Next.js: 18 s of wall
 * clock against 4.9 s of CPU).
 */
export async function* mapAhead<T, R>(
  items: Iterable<T> | AsyncIterable<T>,
  fn: (item: T) => Promise<R>,
  depth: number,
): AsyncGenerator<R> {
  const it: Iterator<T> | AsyncIterator<T> =
    Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  const queue: Promise<R>[] = [];
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && queue.length < depth) {
        const next = await it.next();
        if (next.done === true) exhausted = true;
        else {
          const p = fn(next.value);
          // Rethrown when its turn comes; a consumer that stops first must not leave an unhandled rejection.
          p.catch(() => undefined);
          queue.push(p);
        }
      }
      const head = queue.shift();
      if (head === undefined) return;
      yield await head;
    }
  } finally {
    if (!exhausted) await it.return?.();
  }
}
