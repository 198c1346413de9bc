import { defineProject } from 'vitest/config';

// Each file boots its own Hardhat node (~1-2 s) and drives the contract on it; two files at a time.
export default defineProject({
  test: {
    name: 'escrow',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
