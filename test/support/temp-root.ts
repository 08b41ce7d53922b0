/**
 * Vitest's global setup: every temporary folder of a test run lives under one folder of its own,
 * removed when the run ends. `TMPDIR` points there, so `os.tmpdir()` in the test workers and in
 * every process they start (the CLI, PostgreSQL clusters, Chromium's profiles) lands in it: a run
 * used to leave its thousands of `sk-*` folders in /tmp, and runs add up (148,000 folders and 24 GB
 * on the team's machine). The folder is readable by all (0755) because the PostgreSQL clusters
 * inside it run as the unprivileged `postgres` user, which must reach its data folder.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'sk-run-'));
  chmodSync(root, 0o755);
  const before = process.env['TMPDIR'];
  process.env['TMPDIR'] = root;
  return () => {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
