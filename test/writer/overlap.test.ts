/**
 * A closed file finishes (its last chunks, gzip's last block, the sink's close: the fsync of a
 * folder) while the writer goes on with the next file (issue 16): the main thread no longer waits
 * for it. Proven without timing: the first file's close is held open until the second file has
 * received bytes, which the writer can only give it by going on. (A writer that waits for the close
 * would only get there when the fallback releases the close, and the recorded order says so.)
 */
import { describe, expect, it } from 'vitest';
import { writeSitemaps } from '../../src/writer/write-sitemaps.js';

const BASE = 'https://example.com/';
const entries = Array.from({ length: 30 }, (_, i) => ({ loc: `${BASE}p/${i}` }));

describe('closing a file overlaps with writing the next', () => {
  it.each([false, true])(
    'the second child gets its bytes while the first one closes (gzip %s)',
    async (gzip) => {
      const events: string[] = [];
      let secondWritten: () => void = () => undefined;
      const second = new Promise<void>((resolve) => {
        secondWritten = resolve;
      });
      let fallback: NodeJS.Timeout | undefined;
      const r = await writeSitemaps(entries, {
        baseUrl: BASE,
        gzip,
        maxUrlsPerFile: 10,
        output: {
          streams: (name) =>
            new WritableStream<Uint8Array>({
              write() {
                if (name.startsWith('sitemap-00002')) {
                  events.push('second child written');
                  secondWritten();
                }
              },
              async close() {
                if (!name.startsWith('sitemap-00001')) return;
                events.push('first child closing');
                // Only a writer that never goes on needs the fallback to get out.
                await Promise.race([
                  second,
                  new Promise<void>((resolve) => {
                    fallback = setTimeout(() => {
                      events.push('fallback');
                      resolve();
                    }, 5_000);
                  }),
                ]);
                clearTimeout(fallback);
                events.push('first child closed');
              },
            }),
        },
      });
      expect(r.urls).toBe(30);
      expect(events).not.toContain('fallback');
      expect(events.indexOf('second child written')).toBeGreaterThanOrEqual(0);
      expect(events.indexOf('second child written')).toBeLessThan(events.indexOf('first child closed'));
    },
  );

  it.each([false, true])('a child whose close fails fails the run with its error (gzip %s)', async (gzip) => {
    const aborted: string[] = [];
    const err = await writeSitemaps(entries, {
      baseUrl: BASE,
      gzip,
      maxUrlsPerFile: 10,
      output: {
        streams: (name) =>
          new WritableStream<Uint8Array>({
            close() {
              if (name.startsWith('sitemap-00001')) throw new Error('the disk is full');
            },
            abort() {
              aborted.push(name);
            },
          }),
      },
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('the disk is full');
  });
});
