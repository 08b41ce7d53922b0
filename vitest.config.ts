import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two cores: more workers only fight over them (and over the child processes tests start).
    maxWorkers: 2,
    setupFiles: ['test/support/fast-check-seed.ts'],
    globalSetup: ['test/support/temp-root.ts'],
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
