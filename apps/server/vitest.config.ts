import { configDefaults, defineProject } from 'vitest/config';

// Integration tests boot a real Hardhat node and a real database per file; keep two files at once
// on our two cores, and give the boot (PGlite ~0.6 s from the suite's template, Hardhat ~1 s) room.
export default defineProject({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The fuzz suite is its own project (vitest.fuzz.config.ts): run once, as its own step.
    exclude: [...configDefaults.exclude, 'test/fuzz/**'],
    globalSetup: ['test/support/pglite-template-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    // A worker runs file after file in one process, so the server's modules are imported once per
    // worker rather than once per file (seconds each); each file still opens its own chain, database
    // and app, and none keeps state in a module between files.
    isolate: false,
  },
});
