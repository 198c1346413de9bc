import { CHAIN_ID } from '@pm/core/constants';
import { DEFAULT_FLAG_BOND_BPS, DEFAULT_FLAG_BOND_MIN_WEI } from '@pm/core/flag-bonds';
import { deployEscrow, type EscrowDeployed, type EscrowDeployment } from '@pm/escrow/deploy';
import { getAddress, parseEther } from 'viem';
import { createChainClient, createChainWallet } from '../chain/chain-client.ts';
import { DEV_ESCROW_ROLES, DEV_OPERATOR } from '../config/dev-accounts.ts';

/**
 * The escrow on the local chain (decision 026 "The chain"): the dev admin deploys it with the server's
 * key (DEV_OPERATOR) as its operator, the dev guardian and treasury (dev-accounts.ts). A bucket as large as
 * the contract allows and its shortest delay, so dev and tests are never held back by them; the flag
 * bond the server's defaults ask (FLAG_BOND_MIN_WEI, FLAG_BOND_BPS).
 */
export const DEV_ESCROW_DEPLOYMENT: EscrowDeployment = {
  admin: getAddress(DEV_ESCROW_ROLES.admin.address),
  operator: getAddress(DEV_OPERATOR.address),
  guardian: getAddress(DEV_ESCROW_ROLES.guardian.address),
  treasury: getAddress(DEV_ESCROW_ROLES.treasury.address),
  settlementCapacity: parseEther('10000'),
  settlementRefillPerHour: parseEther('10000'),
  minPayoutDelay: 60,
  disputeBondMin: DEFAULT_FLAG_BOND_MIN_WEI,
  disputeBondBps: DEFAULT_FLAG_BOND_BPS,
};

/** Deploys the dev escrow on the local chain at `rpcUrl`: one transaction, from the dev admin. */
export async function deployDevEscrow(rpcUrl: string): Promise<EscrowDeployed> {
  const chain = { id: CHAIN_ID.local, rpcUrl };
  return deployEscrow(
    createChainWallet(chain, DEV_ESCROW_ROLES.admin.privateKey),
    createChainClient(chain),
    DEV_ESCROW_DEPLOYMENT,
  );
}
