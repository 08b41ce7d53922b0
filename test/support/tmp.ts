import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh temporary folder for one test. */
export function tempDir(name = 'sk'): string {
  return mkdtempSync(join(tmpdir(), `${name}-`));
}
