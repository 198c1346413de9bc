import type { Abi } from 'viem';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { marketEscrowAbi } from '../src/market-escrow.gen.ts';
import * as mirrored from '../src/market-escrow-constants.ts';
import { createMarketEscrowWorld, type MarketEscrowWorld } from './market-escrow-world.ts';

// src/market-escrow-constants.ts against a deployed MarketEscrow: every public constant of the contract
// is mirrored, with the value the contract answers, and nothing else is.

let world: MarketEscrowWorld;
beforeAll(async () => {
  world = await createMarketEscrowWorld();
});
afterAll(() => world?.stop());

/** The contract's public constants: its upper-case views without arguments. */
const CONSTANTS = marketEscrowAbi.flatMap((item) =>
  item.type === 'function' && item.inputs.length === 0 && item.name === item.name.toUpperCase()
    ? [item.name]
    : [],
);

test('every constant of market-escrow-constants.ts is the deployed contract’s, and every constant of the contract is there', async () => {
  // Read by name through the plain ABI type: each answers its own Solidity type (bigint, or number for uint8).
  const abi: Abi = marketEscrowAbi;
  const onChain: Record<string, unknown> = {};
  for (const functionName of CONSTANTS) {
    onChain[functionName] = await world.publicClient.readContract({
      address: world.address,
      abi,
      functionName,
    });
  }
  expect(CONSTANTS.length).toBeGreaterThanOrEqual(30);
  expect({ ...mirrored }).toEqual(onChain);
});
