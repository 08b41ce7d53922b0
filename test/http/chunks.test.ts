import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chunksOf } from '../../src/http/body.js';

const CHUNK = 16 * 1024;

describe('chunksOf: a Node stream read chunk by chunk', () => {
  it('hands a slow consumer the chunks as they came, never joined (Node’s own iterator joins them)', async () => {
    const stream = new PassThrough({ highWaterMark: 1024 * 1024 });
    for (let i = 0; i < 10; i++) stream.write(Buffer.alloc(CHUNK, i));
    stream.end();
    const sizes: number[] = [];
    for await (const chunk of chunksOf(stream)) {
      sizes.push(chunk.length);
      await new Promise((r) => setTimeout(r, 1));
    }
    expect(sizes).toEqual(Array.from({ length: 10 }, () => CHUNK));

    // The reason it exists: the same stream through Node's iterator comes out joined.
    const joined = new PassThrough({ highWaterMark: 1024 * 1024 });
    for (let i = 0; i < 10; i++) joined.write(Buffer.alloc(CHUNK, i));
    joined.end();
    const native: number[] = [];
    for await (const chunk of joined as AsyncIterable<Buffer>) native.push(chunk.length);
    expect(native.length).toBeLessThan(10);
  });

  it('pauses the stream once a few chunks wait, and resumes as they are taken', async () => {
    const stream = new Readable({ read() {} });
    const it = chunksOf(stream, 2)[Symbol.asyncIterator]();
    const first = it.next();
    stream.push(Buffer.from('a'));
    expect((await first).value?.toString()).toBe('a');
    stream.push(Buffer.from('b'));
    stream.push(Buffer.from('c'));
    await new Promise((r) => setImmediate(r));
    expect(stream.isPaused()).toBe(true);
    expect((await it.next()).value?.toString()).toBe('b');
    expect(stream.isPaused()).toBe(false);
    stream.push(null);
    expect((await it.next()).value?.toString()).toBe('c');
    expect((await it.next()).done).toBe(true);
  });

  it('throws the stream’s error, and a premature close as an error', async () => {
    const failing = new Readable({ read() {} });
    const reading = (async () => {
      for await (const _ of chunksOf(failing));
    })();
    failing.destroy(new Error('reset'));
    await expect(reading).rejects.toThrow('reset');

    const closed = new Readable({ read() {} });
    const cut = (async () => {
      for await (const _ of chunksOf(closed));
    })();
    closed.destroy();
    await expect(cut).rejects.toMatchObject({ code: 'ERR_STREAM_PREMATURE_CLOSE' });
  });
});
