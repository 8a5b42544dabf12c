import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file starts its own redis-server; the API tests also run a worker in-process.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
