import { defineProject } from 'vitest/config';

// The repository's own tooling (lint checks, bench helpers): pure functions, no chain, no database.
export default defineProject({
  test: { name: 'scripts', include: ['*.test.ts'] },
});
