import { deployEscrow } from '@pm/escrow/deploy';
import { type Address, getAddress, getContractAddress, parseEther } from 'viem';
import { DEV_ESCROW_ROLES } from '../../src/config/dev-accounts.ts';
import type { TestChain } from './test-chain.ts';

/**
 * Where the dev admin's first contract lands on a fresh chain: npm start's escrow, and a test app's
 * when it starts with `ESCROW_ADDRESS` set to this and then runs `deployDevEscrow` (src/dev/dev-escrow.ts).
 */
export const FRESH_CHAIN_DEV_ESCROW = getContractAddress({
  from: getAddress(DEV_ESCROW_ROLES.admin.address),
  nonce: 0n,
});

/**
 * Deploys the escrow from the test chain's operator account (#0; its admin unless `admin` is given)
 * with this operator, through @pm/escrow's deployEscrow (the one place the constructor's arguments
 * are built).
 */
export async function deployTestEscrow(
  chain: TestChain,
  roles: {
    operator: Address;
    admin?: Address;
    guardian?: Address;
    treasury?: Address;
    minPayoutDelay?: number;
  },
): Promise<Address> {
  const deployed = await deployEscrow(chain.operator, chain.publicClient, {
    // Account #0 deploys; the admin is it too unless named (never the operator role: the contract refuses).
    admin: roles.admin ?? chain.operator.account.address,
    operator: roles.operator,
    guardian: roles.guardian ?? player(chain, 2),
    treasury: roles.treasury ?? player(chain, 1),
    settlementCapacity: parseEther('100'),
    settlementRefillPerHour: parseEther('100'),
    minPayoutDelay: roles.minPayoutDelay ?? 60,
    // The flag bond's floor and share of the pool: the product's defaults (docs/product.md).
    disputeBondMin: parseEther('0.01'),
    disputeBondBps: 500,
  });
  return deployed.address;
}

function player(chain: TestChain, index: number): Address {
  const wallet = chain.players[index];
  if (!wallet) throw new Error(`no dev player ${index}`);
  return wallet.account.address;
}
