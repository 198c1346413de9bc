import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// The web imports these modules: nothing they reach may need Node. Their own imports are followed
// (type-only ones erase); the packages they use must be among these, which run in a browser.
// The wallet's own claim (apps/web wallet/self-claim/escrow) reads and calls the contract with its typed ABI
// and decodes its reverts; a round bet is built with deposit-call. On MarketEscrow (docs/decisions/034),
// every deposit is built with market-deposit and every claim or refund with market-claim-calls.
const WEB_FACING = [
  'payout-list.ts',
  'deposit-terms.ts',
  'deposit-call.ts',
  'prediction-escrow.gen.ts',
  'decode-revert.ts',
  'market-deposits/market-deposit.ts',
  'market-claims/market-claim-calls.ts',
  'market-escrow-constants.ts',
];
const BROWSER_PACKAGES = new Set(['viem', 'zod', '@openzeppelin/merkle-tree']);

const IMPORT = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]/gm;
const SOURCE = new URL('./', import.meta.url);

test('the web-facing modules reach no Node-only code', () => {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: URL) => {
    const path = file.href.slice(SOURCE.href.length);
    if (seen.has(path)) return;
    seen.add(path);
    const source = readFileSync(fileURLToPath(file), 'utf8');
    for (const [statement, specifier] of source.matchAll(IMPORT)) {
      if (!specifier || /^\s*(?:import|export) type\s/.test(statement)) continue;
      if (specifier.startsWith('./') || specifier.startsWith('../')) visit(new URL(specifier, file));
      else packages.add(specifier);
    }
  };
  for (const file of WEB_FACING) visit(new URL(file, SOURCE));
  expect(seen).toContain('payout-tree.ts');
  expect(seen).toContain('market-escrow-keys.ts');
  expect(seen).toContain('market-deposits/market-deposit-abi.gen.ts');
  expect(seen).toContain('market-claims/market-claim-abi.gen.ts');
  // The deposit encoder carries its slim ABI, never the whole generated one.
  expect(seen).not.toContain('market-escrow.gen.ts');
  const nodeOnly = [...packages].filter(
    (name) => name.startsWith('node:') || builtinModules.includes(name) || !BROWSER_PACKAGES.has(name),
  );
  expect(nodeOnly).toEqual([]);
});
