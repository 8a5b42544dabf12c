import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI tests spawn the built `wq`; each run starts Node (and worker threads).
    testTimeout: 60_000,
  },
});
