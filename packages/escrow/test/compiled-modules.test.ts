import { expect, test } from 'vitest';
import { staleModules } from '../scripts/compile.ts';

test('the committed ABI and bytecode modules are what the Solidity sources compile to', async () => {
  // solc-js (wasm) compiles in a few seconds alone; on a shared machine it can take much longer.
  expect(await staleModules()).toEqual([]);
}, 180_000);
