import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // Each file runs real worker processes on a 2-core machine: one file at a time.
    fileParallelism: false,
    // A container engine for the container tests (and Testcontainers' Redis), stopped after.
    globalSetup: ['./src/container-global-setup.ts'],
  },
});
