import { defineConfig } from 'vitest/config';

// One runner for the workspace: `vitest run --project <name>` picks a suite.
export default defineConfig({
  test: {
    projects: [
      'packages/core',
      'packages/escrow',
      'packages/pay-and-post',
      'apps/server',
      'apps/server/vitest.fuzz.config.ts',
      'apps/web',
      'scripts',
    ],
  },
});
