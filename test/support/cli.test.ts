import { describe, expect, it } from 'vitest';
import { runProcess } from './cli.js';

describe('runProcess', () => {
  it('a child that exits without reading its input is no failure (EPIPE on its stdin, hit on purpose)', async () => {
    // 4 MiB is far past a pipe's buffer: the write cannot finish before the child is gone, so the
    // pipe breaks under it every time, on an idle machine as on a loaded one.
    const r = await runProcess('sh', ['-c', 'exit 0'], { input: 'x'.repeat(4 * 1024 * 1024) });
    expect(r).toMatchObject({ code: 0, signal: null, stdout: '', stderr: '' });
  });

  it('input still reaches a child that reads it', async () => {
    const r = await runProcess('sh', ['-c', 'wc -c'], { input: 'x'.repeat(100_000) });
    expect(r.stdout.trim()).toBe('100000');
  });
});
