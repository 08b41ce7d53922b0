import { isSitemapkitError, type SitemapkitError } from '../../src/core/errors.js';

/** Everything an async iterable yields. */
export async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The SitemapkitError `p` rejects with; anything else fails the test. */
export async function failure(p: Promise<unknown>): Promise<SitemapkitError> {
  try {
    await p;
  } catch (e) {
    if (isSitemapkitError(e)) return e;
    throw e;
  }
  throw new Error('expected an error');
}
