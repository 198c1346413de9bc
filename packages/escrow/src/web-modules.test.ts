import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// The web imports these modules: nothing they reach may need Node. Their own imports are followed
// (type-only ones erase); the packages they use must be among these, which run in a browser.
// The wallet's own claim (apps/web wallet/self-claim/escrow) reads and calls the contract with its typed ABI
// and decodes its reverts; a round bet is built with deposit-call.
const WEB_FACING = [
  'payout-list.ts',
  'deposit-terms.ts',
  'deposit-call.ts',
  'prediction-escrow.gen.ts',
  'decode-revert.ts',
];
const BROWSER_PACKAGES = new Set(['viem', 'zod', '@openzeppelin/merkle-tree']);

const IMPORT = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]/gm;

test('the web-facing modules reach no Node-only code', () => {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(fileURLToPath(new URL(file, import.meta.url)), 'utf8');
    for (const [statement, specifier] of source.matchAll(IMPORT)) {
      if (!specifier || /^\s*(?:import|export) type\s/.test(statement)) continue;
      if (specifier.startsWith('./')) visit(specifier.slice(2));
      else packages.add(specifier);
    }
  };
  for (const file of WEB_FACING) visit(file);
  expect(seen).toContain('payout-tree.ts');
  const nodeOnly = [...packages].filter(
    (name) => name.startsWith('node:') || builtinModules.includes(name) || !BROWSER_PACKAGES.has(name),
  );
  expect(nodeOnly).toEqual([]);
});
