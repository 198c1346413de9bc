import { defineProject } from 'vitest/config';

// The fuzz suite (test/fuzz): its own project, so `npm test` runs it once as its own step with its
// counts in the summary, and the server integration project does not run it again. One file at a
// time: each boots a Hardhat node and a PGlite and sends thousands of requests.
export default defineProject({
  test: {
    name: 'fuzz',
    include: ['test/fuzz/**/*.test.ts'],
    globalSetup: ['test/fuzz/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
  },
});
