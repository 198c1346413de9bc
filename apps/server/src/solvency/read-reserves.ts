import { type ReservesReport, reservesReport } from '@pm/core/reserves';
import { type EscrowLevels, readEscrowLevels } from '@pm/escrow/deploy';
import type { PublicClient } from 'viem';

export type ReservesDeps = {
  chain: PublicClient;
  escrowAddress: `0x${string}`;
  /** The operator key's address, whose gas balance is read at the same block (null: none configured). */
  operatorAddress: `0x${string}` | null;
};

export type ReservesReading = {
  report: ReservesReport;
  /** Everything read of the escrow at the report's block: its settlement bucket and pause too. */
  levels: EscrowLevels;
  operatorBalanceWei: bigint | null;
};

/**
 * The escrow's balance against its own `liabilities()`, both at one block (docs/architecture.md "Proof
 * of reserves"). The contract is the ledger: nothing the database says enters the figure, so a lost or
 * restored database cannot make it look better or worse. The operator key's balance is read with it:
 * gas money only, never counted as reserves.
 */
export async function readReserves(deps: ReservesDeps): Promise<ReservesReading> {
  const levels = await readEscrowLevels(deps.chain, deps.escrowAddress);
  const operatorBalanceWei = deps.operatorAddress
    ? await deps.chain.getBalance({ address: deps.operatorAddress, blockNumber: levels.blockNumber })
    : null;
  return {
    levels,
    report: reservesReport({
      blockNumber: levels.blockNumber,
      balanceWei: levels.balance,
      liabilitiesWei: levels.liabilities,
    }),
    operatorBalanceWei,
  };
}
