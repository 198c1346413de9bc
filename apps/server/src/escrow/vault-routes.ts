import { ROUTES } from '@pm/core/contract/routes';
import type { VaultResponse } from '@pm/core/contract/vault';
import { EscrowNotFoundError, type EscrowStatus, readEscrowStatus } from '@pm/escrow/deploy';
import { predictionEscrowAbi } from '@pm/escrow/prediction-escrow.gen';
import type { FastifyInstance } from 'fastify';
import type { Address, PublicClient } from 'viem';
import type { AppDeps } from '../app-deps.ts';
import { AppError } from '../errors/app-error.ts';
import { cacheFor } from '../http/cache-for.ts';
import { defineRoute } from '../http/define-route.ts';

/**
 * GET /api/vault reads the chain at most this often per instance, whatever the request rate (every
 * open page polls it): readEscrowStatus is some thirty calls at one block. Requests in between get
 * the same reading, which says its block. Not the response cache's TTL (decision 017), which may
 * be 0.
 */
export const VAULT_READ_EVERY_MS = 2_000;

/** The escrow's status on the wire (docs/api.md "The escrow contract"): wei and blocks as decimal strings. */
export function toVaultDto(status: EscrowStatus): VaultResponse {
  const constants = Object.fromEntries(
    Object.entries(status.constants).map(([name, value]) => [name, value.toString()]),
  ) as VaultResponse['constants'];
  return {
    address: status.address,
    chainId: status.chainId,
    blockNumber: status.blockNumber.toString(),
    abi: predictionEscrowAbi as unknown as VaultResponse['abi'],
    codeHash: status.codeHash,
    roles: {
      owner: status.owner,
      pendingOwner: status.pendingOwner,
      operator: status.operator,
      guardian: status.guardian,
      treasury: status.treasury,
    },
    paused: status.paused,
    balanceWei: status.balance.toString(),
    liabilitiesWei: status.liabilities.toString(),
    excessWei: status.excess.toString(),
    settlement: {
      capacityWei: status.settlementCapacity.toString(),
      refillPerHourWei: status.settlementRefillPerHour.toString(),
      allowanceWei: status.settlementAllowance.toString(),
    },
    minPayoutDelayS: status.minPayoutDelay,
    disputeBond: { minWei: status.disputeBondMin.toString(), bps: status.disputeBondBps },
    nextStakeId: status.nextStakeId.toString(),
    constants,
  };
}

/** readEscrowStatus of ESCROW_ADDRESS, no contract there answered as the escrow missing (503). */
async function readVault(chain: PublicClient, address: Address): Promise<VaultResponse> {
  try {
    return toVaultDto(await readEscrowStatus(chain, address));
  } catch (error) {
    if (error instanceof EscrowNotFoundError) {
      throw new AppError(
        'ESCROW_NOT_CONFIGURED',
        `The configured escrow address holds no contract: ${error.message}.`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
}

/**
 * GET /api/vault: the one public description of the escrow contract (docs/decisions/026), every
 * figure at one block. Without ESCROW_ADDRESS → 503 ESCROW_NOT_CONFIGURED; an RPC that fails → 503
 * CHAIN_UNAVAILABLE (the error handler), kept for the same 2 s so a down RPC is not hammered.
 */
export function registerVaultRoutes(app: FastifyInstance, deps: AppDeps): void {
  const address = deps.config.escrow.address;
  const read = address ? cacheFor(VAULT_READ_EVERY_MS, () => readVault(deps.chain, address)) : undefined;
  defineRoute(app, ROUTES.vault, async () => {
    if (!read) throw new AppError('ESCROW_NOT_CONFIGURED');
    return { status: 200, body: await read() };
  });
}
