import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { folderImports, folderViolations, readSourceFiles, SERVER_LAYERS } from './lint-server-folders.ts';

// The folder check of `npm run lint` (scripts/lint-server-folders.ts), on small trees written here
// and on the server's own.

const LAYERS = [['markets'], ['escrow'], ['db']];

function violations(files: Record<string, string>): string[] {
  return folderViolations(folderImports(new Map(Object.entries(files))), LAYERS);
}

describe('lint-server-folders', () => {
  test('imports that point down, and the root files that wire everything, pass', () => {
    expect(
      violations({
        'markets/join-market.ts': "import { verifyDeposit } from '../escrow/deposits/verify-deposit.ts';",
        'escrow/deposits/verify-deposit.ts': "import type { Db } from '../../db/client.ts';",
        'db/client.ts': '',
        'features.ts': "import { createMarketsModule } from './markets/markets-module.ts';",
        'markets/markets-module.ts': "import type { AppDeps } from '../app-deps.ts';",
      }),
    ).toEqual([]);
  });

  test('a planted two-way import fails, naming the files both ways', () => {
    const problems = violations({
      'markets/join-market.ts': "import { verifyDeposit } from '../escrow/deposits/verify-deposit.ts';",
      'escrow/deposits/verify-deposit.ts':
        "import type { MarketRow } from '../../markets/markets-repository.ts';",
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe(
      'escrow/ and markets/ import each other: escrow/deposits/verify-deposit.ts -> markets/markets-repository.ts; markets/join-market.ts -> escrow/deposits/verify-deposit.ts',
    );
    expect(problems[1]).toContain('escrow/ imports markets/, a layer above it');
  });

  test('an import up a layer fails even one way; type-only, dynamic and re-exports count', () => {
    for (const text of [
      "import type { MarketRow } from '../markets/markets-repository.ts';",
      "const module = await import('../markets/markets-repository.ts');",
      "export { findMarket } from '../markets/markets-repository.ts';",
    ]) {
      expect(violations({ 'db/client.ts': text })).toEqual([
        'db/ imports markets/, a layer above it (db -> markets): db/client.ts -> markets/markets-repository.ts',
      ]);
    }
  });

  test('a folder in no layer is named; imports in comments and out of src are not imports', () => {
    expect(
      violations({
        'payouts/claims.ts':
          "// import { x } from '../markets/markets-repository.ts';\nimport '../db/client.ts';",
        'escrow/deposits/scan-deposits.test.ts':
          "import { startTestChain } from '../../../test/support/test-chain.ts';",
      }),
    ).toEqual(['payouts/ is in no layer: add it to SERVER_LAYERS (scripts/lint-server-folders.ts)']);
  });

  test("the server's own folders follow the rule", () => {
    const src = fileURLToPath(new URL('../apps/server/src', import.meta.url));
    expect(folderViolations(folderImports(readSourceFiles(src)), SERVER_LAYERS)).toEqual([]);
  });
});
